// Which provider profile plays each role of a tick for the open novel (novel.toml's
// `[models]`): the planner, the writer, the extractor, the reviser (the writer's when unset)
// and the critic (the extractor's when unset). "Default" is the profile used for writing.
import { useState } from "react";
import type { FormEvent } from "react";
import { commands } from "../../bindings";
import type { RoleProfiles_Deserialize, RoleProfiles_Serialize } from "../../bindings";
import { call, errorText } from "../../lib/api";
import { useToast } from "../../lib/toast";
import type { Providers } from "../../lib/types";

type Role = keyof RoleProfiles_Deserialize;

const ROLES: { role: Role; label: string; hint: string; unset: (d: string) => string }[] = [
  { role: "planner", label: "Planner", hint: "Plans each scene, looking up what it needs in the story's memory.", unset: (d) => `Default (${d})` },
  { role: "writer", label: "Writer", hint: "Writes the prose.", unset: (d) => `Default (${d})` },
  { role: "extractor", label: "Extractor", hint: "Reads the scene into the story memory.", unset: (d) => `Default (${d})` },
  { role: "reviser", label: "Reviser", hint: "Rewrites a draft the checks found fault with.", unset: () => "Same as the writer" },
  { role: "critic", label: "Critic", hint: "The second opinion, when it is on.", unset: () => "Same as the extractor" },
];

interface Props {
  roles: RoleProfiles_Serialize;
  providers: Providers;
}

export function RoleModels({ roles, providers }: Props) {
  const notify = useToast();
  const [chosen, setChosen] = useState<Record<Role, string>>(() => ({
    planner: roles.planner ?? "",
    writer: roles.writer ?? "",
    extractor: roles.extractor ?? "",
    reviser: roles.reviser ?? "",
    critic: roles.critic ?? "",
  }));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const names = providers.profiles.map((r) => r.profile.name);
  const fallback = providers.default_profile ?? "none set";

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const models: RoleProfiles_Deserialize = {};
      for (const { role } of ROLES) models[role] = chosen[role] === "" ? null : chosen[role];
      await call(commands.saveRoleProfiles(models));
      notify("Models per role saved.");
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="card role-models" onSubmit={submit} noValidate data-testid="role-models">
      <h3>Models per role</h3>
      <p className="muted small">Each step of a scene can use its own provider: a strong model to plan, a fast local one to write.</p>
      <div className="field-grid">
        {ROLES.map(({ role, label, hint, unset }) => {
          const missing = chosen[role] !== "" && !names.includes(chosen[role]);
          return (
            <div className={`field${missing ? " has-error" : ""}`} key={role}>
              <label htmlFor={`role-${role}`}>{label}</label>
              <select id={`role-${role}`} data-testid={`role-${role}`} value={chosen[role]} onChange={(e) => setChosen((c) => ({ ...c, [role]: e.target.value }))}>
                <option value="">{unset(fallback)}</option>
                {missing && <option value={chosen[role]}>{chosen[role]} (no such provider)</option>}
                {names.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
              {missing ? <p className="field-error">There is no provider called “{chosen[role]}” any more: choose another.</p> : <p className="field-hint">{hint}</p>}
            </div>
          );
        })}
      </div>
      {error && (
        <p className="notice notice-error" role="alert" data-testid="role-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" data-testid="role-save" disabled={saving}>
          {saving ? "Saving…" : "Save models"}
        </button>
      </div>
    </form>
  );
}
