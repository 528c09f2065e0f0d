// A view's data could not be loaded: the message and a Try again button.
import { errorText } from "../lib/api";

export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="notice notice-error" role="alert" data-testid="load-error">
      <p>{errorText(error)}</p>
      <button type="button" className="btn btn-quiet" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
