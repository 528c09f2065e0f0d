// Settings: AI provider profiles (with Find local servers, run at once when there are none
// yet), the open novel's generation settings, models per role and budget, appearance and the
// keyboard shortcuts.
import { useEffect, useRef, useState } from "react";
import { commands } from "../../bindings";
import type { FoundServer_Serialize, ModelList_Serialize } from "../../bindings";
import { Icon } from "../../components/Icon";
import { LoadError } from "../../components/LoadError";
import { call, errorText } from "../../lib/api";
import { useNovel } from "../../lib/novel";
import { BLANK_DRAFT, draftFrom, draftFromFound } from "../../lib/providers";
import type { ProviderDraft } from "../../lib/providers";
import type { ThemePreference } from "../../lib/theme";
import { useToast } from "../../lib/toast";
import type { Providers } from "../../lib/types";
import { useLoad } from "../../lib/useLoad";
import { BudgetForm } from "./BudgetForm";
import { DetectedServers } from "./DetectedServers";
import type { Detection } from "./DetectedServers";
import { GenerationForm } from "./GenerationForm";
import { ProviderForm } from "./ProviderForm";
import { ProviderList } from "./ProviderList";
import { RoleModels } from "./RoleModels";
import "../../styles/settings.css";

interface Props {
  themePreference: ThemePreference;
  setThemePreference: (p: ThemePreference) => void;
  onHelp: () => void;
}

export function SettingsView({ themePreference, setThemePreference, onHelp }: Props) {
  const { overview } = useNovel();
  const notify = useToast();
  const loaded = useLoad("providers", () => call(commands.listProviders()));
  const [providers, setProviders] = useState<Providers | null>(null);
  const [editing, setEditing] = useState<{ draft: ProviderDraft; key: number; models?: ModelList_Serialize; server?: string } | null>(null);
  const [detection, setDetection] = useState<Detection | null>(null);
  const roles = useLoad(overview ? `roles:${overview.path}` : null, () => call(commands.roleProfiles()));
  const budget = useLoad(overview ? `budget:${overview.path}` : null, () => call(commands.novelBudget()));
  const shown = providers ?? loaded.data;
  const first = shown !== undefined && shown.profiles.length === 0;

  const edit = (draft: ProviderDraft, found?: FoundServer_Serialize) =>
    setEditing((e) => ({
      draft,
      key: (e?.key ?? 0) + 1,
      models: found && { models: found.server.models, source: found.server.base_url, note: null },
      server: found?.server.base_url,
    }));

  const detect = async () => {
    setDetection({ state: "running" });
    try {
      setDetection({ state: "done", servers: await call(commands.detectProviders()) });
    } catch (e) {
      setDetection({ state: "error", message: errorText(e) });
    }
  };
  // The first run (no profile yet) looks for local servers without being asked.
  const offered = useRef(false);
  useEffect(() => {
    if (first && !offered.current) {
      offered.current = true;
      void detect();
    }
  }, [first]);

  return (
    <div className="settings">
      <section className="settings-section" aria-labelledby="providers-title">
        <div className="section-head">
          <div>
            <h2 id="providers-title">AI providers</h2>
            {shown && <p className="muted small">Shared with the novel command line, in {shown.file}</p>}
          </div>
          {!editing && (
            <div className="section-actions">
              <button type="button" className="btn btn-quiet" data-testid="provider-detect" disabled={detection?.state === "running"} onClick={() => void detect()}>
                Find local servers
              </button>
              <button type="button" className="btn btn-quiet" data-testid="provider-add" onClick={() => edit({ ...BLANK_DRAFT, makeDefault: first })}>
                <Icon name="plus" /> Add provider
              </button>
            </div>
          )}
        </div>
        {detection && !editing && (
          <DetectedServers detection={detection} onAdd={(found) => edit(draftFromFound(found, first), found)} onClose={() => setDetection(null)} />
        )}
        {loaded.error !== undefined && !shown && <LoadError error={loaded.error} onRetry={loaded.reload} />}
        {shown && (
          <ProviderList
            providers={shown}
            onEdit={(row) => edit(draftFrom(row, shown.default_profile === row.profile.name))}
            onChanged={setProviders}
          />
        )}
        {(editing || first) && (
          <ProviderForm
            key={editing?.key ?? 0}
            initial={editing?.draft ?? { ...BLANK_DRAFT, makeDefault: true }}
            initialModels={editing?.models}
            onSaved={(view, name) => {
              setProviders(view);
              const server = editing?.server;
              if (server) {
                // The server just added now says under which name it is saved.
                setDetection((d) =>
                  d?.state === "done" ? { ...d, servers: d.servers.map((f) => (f.server.base_url === server ? { ...f, saved_as: name } : f)) } : d,
                );
              }
              setEditing(null);
              notify(`Provider “${name}” saved.`);
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </section>

      <section className="settings-section" aria-labelledby="generation-title">
        <h2 id="generation-title">Writing this novel</h2>
        {overview ? (
          <>
            {/* Keyed by the novel so another novel's forms start afresh; each key names its form
                too, as siblings sharing one key get duplicated when React re-renders them. */}
            <GenerationForm key={`generation:${overview.path}`} settings={overview.generation} />
            {roles.error !== undefined && !roles.data && <LoadError error={roles.error} onRetry={roles.reload} />}
            {roles.data && shown && <RoleModels key={`roles:${overview.path}`} roles={roles.data} providers={shown} />}
            {budget.error !== undefined && !budget.data && <LoadError error={budget.error} onRetry={budget.reload} />}
            {budget.data && <BudgetForm key={`budget:${overview.path}`} budget={budget.data} />}
          </>
        ) : (
          <p className="muted">Open a novel to change how its scenes are written.</p>
        )}
      </section>

      <section className="settings-section" aria-labelledby="appearance-title">
        <h2 id="appearance-title">Appearance</h2>
        <div className="segmented" role="radiogroup" aria-label="Theme">
          {(["system", "light", "dark"] as const).map((p) => (
            <button
              key={p}
              type="button"
              role="radio"
              aria-checked={themePreference === p}
              data-testid={`theme-${p}`}
              className={themePreference === p ? "on" : ""}
              onClick={() => setThemePreference(p)}
            >
              {p === "system" ? "Follow the system" : p === "light" ? "Light" : "Dark"}
            </button>
          ))}
        </div>
        <p className="muted small">
          Keyboard shortcuts are listed under <button type="button" className="link" onClick={onHelp}>?</button> — press ? anywhere.
        </p>
      </section>
    </div>
  );
}
