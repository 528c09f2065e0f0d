// A profile's generation settings in the provider form: sampling, the longest answer, the
// model's context length, the request timeout, how to ask for JSON, and prices per million
// tokens. Empty means "not set": the server's default, no ceiling, free.
import type { StructuredOutput } from "../../bindings";
import { STRUCTURED_OUTPUT } from "../../lib/providers";
import type { DraftErrors, ProviderDraft } from "../../lib/providers";

type TextField = "temperature" | "topP" | "maxOutputTokens" | "contextLength" | "timeoutSecs";

const FIELDS: { name: TextField; id: string; label: string; placeholder: string; hint: string }[] = [
  { name: "temperature", id: "temperature", label: "Temperature", placeholder: "server default", hint: "0 to 2; higher is more varied." },
  { name: "topP", id: "top-p", label: "Top p", placeholder: "server default", hint: "Above 0, at most 1." },
  { name: "maxOutputTokens", id: "max-output-tokens", label: "Longest answer (tokens)", placeholder: "no ceiling", hint: "" },
  { name: "contextLength", id: "context-length", label: "Context length (tokens)", placeholder: "unknown", hint: "The model's window; filled from the server where it says." },
  { name: "timeoutSecs", id: "timeout", label: "Timeout (seconds)", placeholder: "300", hint: "The longest wait for an answer (or a silence in a stream)." },
];

interface Props {
  draft: ProviderDraft;
  errors: DraftErrors;
  runsCommand: boolean;
  set: <K extends keyof ProviderDraft>(k: K, v: ProviderDraft[K]) => void;
}

export function ProfileSettingsFields({ draft, errors, runsCommand, set }: Props) {
  // A command-line agent has its own settings; only the timeout is ours.
  const shown = runsCommand ? FIELDS.filter((f) => f.name === "timeoutSecs") : FIELDS;
  return (
    <fieldset className="profile-settings" data-testid="provider-settings">
      <legend>Generation settings</legend>
      <div className="field-grid">
        {shown.map((f) => (
          <div className={`field${errors[f.name] ? " has-error" : ""}`} key={f.name}>
            <label htmlFor={`provider-${f.id}`}>{f.label}</label>
            <input
              id={`provider-${f.id}`}
              data-testid={`provider-${f.id}`}
              inputMode="decimal"
              value={draft[f.name]}
              placeholder={f.placeholder}
              onChange={(e) => set(f.name, e.target.value)}
            />
            {errors[f.name] ? <p className="field-error">{errors[f.name]}</p> : f.hint && <p className="field-hint">{f.hint}</p>}
          </div>
        ))}
      </div>
      {!runsCommand && (
        <>
          <div className="field">
            <label htmlFor="provider-structured-output">Structured output</label>
            <select
              id="provider-structured-output"
              data-testid="provider-structured-output"
              value={draft.structuredOutput}
              onChange={(e) => set("structuredOutput", e.target.value as StructuredOutput)}
            >
              {STRUCTURED_OUTPUT.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            <p className="field-hint">How plans and memory updates are asked for as JSON. Test connection finds what the server accepts.</p>
          </div>
          <div className={`field${errors.prices ? " has-error" : ""}`}>
            <span className="field-label">Prices per million tokens</span>
            <div className="field-row">
              <input
                aria-label="Price per million prompt tokens"
                data-testid="provider-price-prompt"
                inputMode="decimal"
                value={draft.pricePrompt}
                placeholder="prompt (in)"
                onChange={(e) => set("pricePrompt", e.target.value)}
              />
              <input
                aria-label="Price per million completion tokens"
                data-testid="provider-price-completion"
                inputMode="decimal"
                value={draft.priceCompletion}
                placeholder="answer (out)"
                onChange={(e) => set("priceCompletion", e.target.value)}
              />
            </div>
            {errors.prices ? (
              <p className="field-error">{errors.prices}</p>
            ) : (
              <p className="field-hint">For budgets and the cost per scene; leave both empty for a local server.</p>
            )}
          </div>
        </>
      )}
    </fieldset>
  );
}
