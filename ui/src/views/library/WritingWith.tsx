// The New novel form's last step: which model will write the book, and proof that it answers.
// A profile a connection test has already reached (what the server accepts is recorded on it)
// is trusted; any other is tested before the novel is created, so the first scene does not
// discover a missing server. With no profile at all the writer is sent to Settings.
import { useState } from "react";
import { commands } from "../../bindings";
import { Icon } from "../../components/Icon";
import { call, errorText } from "../../lib/api";
import type { ProfileRow, Providers } from "../../lib/types";
import { useLoad } from "../../lib/useLoad";

/** Where the check stands: known to answer, being tested, or failed with the reason. */
export type Check = { state: "unknown" } | { state: "ok"; detail: string } | { state: "testing" } | { state: "failed"; message: string };

export function writingProfile(providers: Providers | undefined): ProfileRow | null {
  if (!providers) return null;
  const name = providers.default_profile;
  return providers.profiles.find((p) => p.profile.name === name) ?? providers.profiles[0] ?? null;
}

/** A test found out what the server accepts: it answered. */
export function reached(row: ProfileRow): boolean {
  const c = row.profile.capabilities;
  return !!c && Object.values(c).some((v) => v !== null && v !== undefined);
}

interface Props {
  check: Check;
  onCheck: (check: Check) => void;
  onSettings: () => void;
}

export function WritingWith({ check, onCheck, onSettings }: Props) {
  const providers = useLoad("providers:new-novel", () => call(commands.listProviders()));
  const row = writingProfile(providers.data);
  const [busy, setBusy] = useState(false);

  const test = async () => {
    if (!row) return;
    setBusy(true);
    onCheck({ state: "testing" });
    try {
      const report = await call(commands.testProvider(row.profile.name));
      onCheck({ state: "ok", detail: `${report.model} answered in ${report.latency_ms} ms` });
    } catch (e) {
      onCheck({ state: "failed", message: errorText(e) });
    } finally {
      setBusy(false);
    }
  };

  if (!providers.data) return null;
  if (!row) {
    return (
      <div className="notice notice-warning" data-testid="writing-with" data-state="none">
        <p>No model is connected yet. The novel can be created now, but its first scene needs one.</p>
        <button type="button" className="btn btn-quiet" onClick={onSettings} data-testid="writing-with-settings">
          <Icon name="settings" /> Find a local server or add a provider
        </button>
      </div>
    );
  }
  const model = row.profile.model ? ` · ${row.profile.model}` : "";
  const state = check.state === "unknown" && reached(row) ? "ok" : check.state;
  return (
    <div className={`writing-with writing-with-${state}`} data-testid="writing-with" data-state={state}>
      <p>
        Written with <strong>{row.profile.name}</strong>
        {model}
        {state === "ok" && (
          <span className="muted" data-testid="writing-with-ok">
            {" "}
            <Icon name="check" size={14} /> {check.state === "ok" ? check.detail : "answered its last connection test"}
          </span>
        )}
        {state === "unknown" && <span className="muted"> · tested when you create the novel</span>}
        {state === "testing" && <span className="muted"> · testing the connection…</span>}
      </p>
      {check.state === "failed" && (
        <p className="field-error" role="alert" data-testid="writing-with-error">
          {check.message}
        </p>
      )}
      <div className="writing-with-actions">
        <button type="button" className="btn btn-quiet btn-small" onClick={() => void test()} disabled={busy} data-testid="writing-with-test">
          Test connection
        </button>
        <button type="button" className="btn btn-quiet btn-small" onClick={onSettings}>
          <Icon name="settings" size={15} /> Providers
        </button>
      </div>
    </div>
  );
}
