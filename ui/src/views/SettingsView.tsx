// Settings: AI provider profiles, the open novel's generation settings, appearance and the
// keyboard shortcuts.
import { useState } from "react";
import { commands } from "../bindings";
import { Icon } from "../components/Icon";
import { LoadError } from "../components/LoadError";
import { call } from "../lib/api";
import { useNovel } from "../lib/novel";
import { BLANK_DRAFT, draftFrom } from "../lib/providers";
import type { ProviderDraft } from "../lib/providers";
import type { ThemePreference } from "../lib/theme";
import { useToast } from "../lib/toast";
import type { Providers } from "../lib/types";
import { useLoad } from "../lib/useLoad";
import { GenerationForm } from "./GenerationForm";
import { ProviderForm } from "./ProviderForm";
import { ProviderList } from "./ProviderList";
import "../styles/settings.css";

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
  const [editing, setEditing] = useState<{ draft: ProviderDraft; key: number } | null>(null);
  const shown = providers ?? loaded.data;
  const first = shown !== undefined && shown.profiles.length === 0;

  const edit = (draft: ProviderDraft) => setEditing((e) => ({ draft, key: (e?.key ?? 0) + 1 }));

  return (
    <div className="settings">
      <section className="settings-section" aria-labelledby="providers-title">
        <div className="section-head">
          <div>
            <h2 id="providers-title">AI providers</h2>
            {shown && <p className="muted small">Shared with the novel command line, in {shown.file}</p>}
          </div>
          {!editing && (
            <button type="button" className="btn btn-quiet" data-testid="provider-add" onClick={() => edit({ ...BLANK_DRAFT, makeDefault: first })}>
              <Icon name="plus" /> Add provider
            </button>
          )}
        </div>
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
            onSaved={(view, name) => {
              setProviders(view);
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
          <GenerationForm key={overview.path} settings={overview.generation} />
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
