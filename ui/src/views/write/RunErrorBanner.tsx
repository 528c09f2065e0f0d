// When the run could not even start (no provider set up, novel busy, …): the message, and
// for provider problems a button to Settings.
import type { AppError } from "../../bindings";
import { Icon } from "../../components/Icon";

export function RunErrorBanner({ error, goSettings, onDismiss }: { error: AppError; goSettings: () => void; onDismiss: () => void }) {
  const provider = error.kind === "provider";
  return (
    <section className="banner banner-error" data-testid="run-error" data-kind={error.kind} role="alert">
      <div className="banner-icon">
        <Icon name="alert" size={22} />
      </div>
      <div className="banner-body">
        <h2>{provider ? "The AI provider is not ready" : "The scene could not be started"}</h2>
        <p className="banner-message">{error.message}</p>
        <p>Your story is unchanged — nothing was lost.</p>
        <div className="banner-actions">
          {provider && (
            <button type="button" className="btn btn-primary" data-testid="go-settings" onClick={goSettings}>
              Open Settings
            </button>
          )}
          <button type="button" className="btn btn-quiet" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      </div>
    </section>
  );
}
