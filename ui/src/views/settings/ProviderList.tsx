// The saved provider profiles: kind, model, address, generation settings, whether the key can
// be found, and Test connection (model, latency, structured output and what the server was
// found to accept, which Rust records in the profile; or the error), Edit, Use, Delete.
import { useState } from "react";
import { commands } from "../../bindings";
import type { ProbeReport_Serialize as ProbeReport } from "../../bindings";
import { call, errorText } from "../../lib/api";
import { describeSettings, kindInfo, testFindings } from "../../lib/providers";
import type { ProfileRow, Providers } from "../../lib/types";

interface Props {
  providers: Providers;
  onEdit: (row: ProfileRow) => void;
  onChanged: (view: Providers) => void;
}

type TestState = { state: "running" } | { state: "ok"; report: ProbeReport } | { state: "error"; message: string };

function ProviderRow({ row, isDefault, onEdit, onChanged }: { row: ProfileRow; isDefault: boolean } & Omit<Props, "providers">) {
  const [test, setTest] = useState<TestState | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const p = row.profile;

  const runTest = async () => {
    setTest({ state: "running" });
    try {
      setTest({ state: "ok", report: await call(commands.testProvider(p.name)) });
    } catch (e) {
      setTest({ state: "error", message: errorText(e) });
    }
  };

  const act = async (what: Promise<Providers>) => {
    setError(null);
    try {
      onChanged(await what);
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <li className={`provider-row${isDefault ? " is-default" : ""}`} data-testid="provider-row" data-name={p.name}>
      <div className="provider-main">
        <div className="provider-title">
          <strong>{p.name}</strong>
          {isDefault && <span className="badge badge-accent">Used for writing</span>}
        </div>
        <p className="muted small">
          {[kindInfo(p.kind).label, p.model, p.kind === "command" ? (p.command ?? []).join(" ") : p.base_url ?? kindInfo(p.kind).default_base_url]
            .filter(Boolean)
            .join(" · ")}
        </p>
        {describeSettings(p) && (
          <p className="muted small" data-testid="provider-settings-summary">
            {describeSettings(p)}
          </p>
        )}
        <p className={`small key-status ${row.key_ready ? "ok" : "problem"}`} data-testid="provider-key-status">
          {row.key_ready
            ? p.key_source === "keychain"
              ? "Key stored in the keychain"
              : p.api_key_env
                ? `Key from $${p.api_key_env}`
                : "Ready (no key needed)"
            : row.key_problem ?? "The key cannot be found."}
        </p>
        {test && (
          <p className={`small test-result test-${test.state}`} data-testid="provider-test-result" role="status">
            {test.state === "running"
              ? "Testing the connection…"
              : test.state === "ok"
                ? `Connected: ${test.report.model} answered in ${test.report.latency_ms} ms · structured output ${
                    test.report.structured_output ? "supported" : "not supported (answers are repaired)"
                  } · ${test.report.prompt_tokens + test.report.completion_tokens} tokens · ${testFindings(test.report)}`
                : `Failed: ${test.message}`}
          </p>
        )}
        {error && <p className="field-error">{error}</p>}
      </div>
      <div className="provider-actions">
        <button type="button" className="btn btn-quiet btn-small" data-testid="provider-test" disabled={test?.state === "running"} onClick={runTest}>
          Test connection
        </button>
        <button type="button" className="btn btn-quiet btn-small" data-testid="provider-edit" onClick={() => onEdit(row)}>
          Edit
        </button>
        {!isDefault && (
          <button type="button" className="btn btn-quiet btn-small" data-testid="provider-make-default" onClick={() => act(call(commands.setDefaultProvider(p.name)))}>
            Use for writing
          </button>
        )}
        {confirming ? (
          <button type="button" className="btn btn-danger btn-small" data-testid="provider-delete-confirm" onClick={() => act(call(commands.deleteProvider(p.name)))}>
            Delete “{p.name}”?
          </button>
        ) : (
          <button type="button" className="btn btn-danger-quiet btn-small" data-testid="provider-delete" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
    </li>
  );
}

export function ProviderList({ providers, onEdit, onChanged }: Props) {
  if (providers.profiles.length === 0) {
    return <p className="muted">No provider yet. Add one to start writing — a local OpenAI-compatible server works well.</p>;
  }
  return (
    <ul className="provider-list">
      {providers.profiles.map((row) => (
        <ProviderRow key={row.profile.name} row={row} isDefault={providers.default_profile === row.profile.name} onEdit={onEdit} onChanged={onChanged} />
      ))}
    </ul>
  );
}
