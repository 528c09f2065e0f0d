// The profile form's model field: a dropdown filled from the server (each model with its
// context length where the server says), "Another model" to type a name, and a plain text
// field with the reason when the server lists no models or cannot be asked (one sentence, the
// engine's full message under Details).
import type { ModelEntry_Serialize, ModelList_Serialize } from "../../bindings";
import { modelsProblem } from "../../lib/modelsError";
import { modelLabel } from "../../lib/providers";

export type ModelsState =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "listed"; list: ModelList_Serialize }
  | { state: "error"; message: string };

const OTHER = "\u0000other";

interface Props {
  model: string;
  models: ModelsState;
  /** Typing a name instead of choosing one (chosen "Another model"). */
  typing: boolean;
  error?: string;
  onList: () => void;
  onChoose: (model: string, entry: ModelEntry_Serialize | null) => void;
  onTyping: (typing: boolean) => void;
}

export function ModelPicker({ model, models, typing, error, onList, onChoose, onTyping }: Props) {
  const listed = models.state === "listed" ? models.list.models : [];
  const dropdown = listed.length > 0 && !typing;
  const unlisted = model !== "" && !listed.some((m) => m.id === model);
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={dropdown ? "provider-model-select" : "provider-model"}>Model</label>
      <div className="input-with-button">
        {dropdown ? (
          <select
            id="provider-model-select"
            data-testid="provider-model-select"
            value={model}
            onChange={(e) => {
              if (e.target.value === OTHER) {
                onTyping(true);
                return;
              }
              onChoose(e.target.value, listed.find((m) => m.id === e.target.value) ?? null);
            }}
          >
            {model === "" && <option value="">Choose a model…</option>}
            {unlisted && <option value={model}>{model} (not in the server's list)</option>}
            {listed.map((m) => (
              <option key={m.id} value={m.id}>
                {modelLabel(m)}
              </option>
            ))}
            <option value={OTHER}>Another model (type its name)</option>
          </select>
        ) : (
          <input
            id="provider-model"
            data-testid="provider-model"
            value={model}
            onChange={(e) => onChoose(e.target.value, listed.find((m) => m.id === e.target.value) ?? null)}
          />
        )}
        <button type="button" className="btn btn-quiet btn-small" data-testid="provider-list-models" disabled={models.state === "loading"} onClick={onList}>
          {models.state === "loading" ? "Asking…" : listed.length > 0 ? "Refresh" : "List models"}
        </button>
      </div>
      {error && <p className="field-error">{error}</p>}
      {models.state === "listed" && listed.length === 0 && (
        <p className="field-hint" data-testid="provider-models-note">
          {models.list.note ?? "The server lists no models."} Type the model's name above.
        </p>
      )}
      {models.state === "error" && (
        <div className="models-error" data-testid="provider-models-error">
          <p className="field-hint">
            {modelsProblem(models.message)} Type the model's name above.
          </p>
          <details className="small" data-testid="provider-models-details">
            <summary>Details</summary>
            <p className="models-error-detail">{models.message}</p>
          </details>
        </div>
      )}
      {typing && listed.length > 0 && (
        <button type="button" className="link small" data-testid="provider-model-choose" onClick={() => onTyping(false)}>
          Choose from the server's {listed.length} models instead
        </button>
      )}
    </div>
  );
}
