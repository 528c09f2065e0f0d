// Find local servers: what answered on the usual ports of Ollama, LM Studio, llama.cpp, Jan
// and vLLM on this computer, each with its models and an Add button that opens the profile
// form filled in (a server already saved says under which name instead).
import type { FoundServer_Serialize } from "../../bindings";
import { modelLabel } from "../../lib/providers";

export type Detection =
  | { state: "running" }
  | { state: "done"; servers: FoundServer_Serialize[] }
  | { state: "error"; message: string };

interface Props {
  detection: Detection;
  onAdd: (server: FoundServer_Serialize) => void;
  onClose: () => void;
}

/** Models shown per server before "and N more". */
const SHOWN = 4;

export function DetectedServers({ detection, onAdd, onClose }: Props) {
  return (
    <div className="card detected" data-testid="detected" aria-live="polite">
      <div className="detected-head">
        <strong>Model servers on this computer</strong>
        <button type="button" className="btn btn-quiet btn-small" data-testid="detected-close" onClick={onClose}>
          Close
        </button>
      </div>
      {detection.state === "running" && <p className="muted">Looking for Ollama, LM Studio, llama.cpp, Jan and vLLM…</p>}
      {detection.state === "error" && (
        <p className="notice notice-error" role="alert" data-testid="detected-error">
          {detection.message}
        </p>
      )}
      {detection.state === "done" && detection.servers.length === 0 && (
        <p className="muted" data-testid="detected-none">
          No model server answered on this computer (Ollama 11434, LM Studio 1234, llama.cpp 8080, Jan 1337, vLLM 8000). Start one — for
          example <code>ollama serve</code> — and look again, or add a hosted provider by hand.
        </p>
      )}
      {detection.state === "done" && detection.servers.length > 0 && (
        <ul className="detected-list">
          {detection.servers.map((found) => {
            const models = found.server.models;
            return (
              <li key={found.server.base_url} className="detected-server" data-testid="detected-server" data-name={found.suggested.name}>
                <div className="provider-main">
                  <strong>{found.server.label}</strong>
                  <p className="muted small">{found.server.base_url}</p>
                  <p className="small" data-testid="detected-models">
                    {models.length === 0
                      ? "Lists no models: type the model's name when you add it."
                      : models.slice(0, SHOWN).map(modelLabel).join(" · ") + (models.length > SHOWN ? ` and ${models.length - SHOWN} more` : "")}
                  </p>
                </div>
                <div className="provider-actions">
                  {found.saved_as ? (
                    <span className="badge" data-testid="detected-saved">
                      Saved as “{found.saved_as}”
                    </span>
                  ) : (
                    <button type="button" className="btn btn-primary btn-small" data-testid="detected-add" onClick={() => onAdd(found)}>
                      Add
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
