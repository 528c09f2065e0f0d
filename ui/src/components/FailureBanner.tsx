// The banner for a scene that could not be written: what went wrong in words a writer
// understands (the message, and the hint Rust gives for the failure's kind), the reassurance
// that nothing changed, and Retry / Skip — and, for a draft the checks would not let through
// (commentary instead of story, the wrong person throughout), Keep anyway and Edit.
import { useState } from "react";
import { FAILURE_HINTS } from "../bindings";
import type { FailureInfo } from "../lib/run";
import { stageLabel } from "../lib/run";
import { errorText } from "../lib/api";
import { Icon } from "./Icon";

interface Props {
  failure: FailureInfo;
  onRetry: () => void;
  onSkip: (tick: number) => Promise<void>;
  /** Commits the failed draft as it is; offered when the draft itself was refused. */
  onKeep?: () => void;
  /** Keeps the refused draft and opens it in the editor. */
  onEdit?: (tick: number) => void;
}

export function FailureBanner({ failure, onRetry, onSkip, onKeep, onEdit }: Props) {
  const [skipError, setSkipError] = useState<string | null>(null);
  const [skipping, setSkipping] = useState(false);
  const hint = FAILURE_HINTS[failure.kind];
  const skip = async () => {
    if (failure.tick === null) return;
    setSkipping(true);
    setSkipError(null);
    try {
      await onSkip(failure.tick);
    } catch (e) {
      setSkipError(errorText(e));
    } finally {
      setSkipping(false);
    }
  };
  return (
    <section className="banner banner-error" data-testid="run-error" data-kind="tick" data-error-kind={failure.kind} role="alert">
      <div className="banner-icon">
        <Icon name="alert" size={22} />
      </div>
      <div className="banner-body">
        <h2>
          {failure.tick !== null ? `Scene ${failure.tick} could not be written` : "The scene could not be written"}
          {failure.stage ? ` (while ${stageLabel(failure.stage).toLowerCase()})` : ""}
        </h2>
        <p className="banner-message">{failure.message}</p>
        {hint && <p data-testid="run-error-hint">{hint}</p>}
        <p>Your story is unchanged — nothing was lost.</p>
        {failure.errorFile && <p className="banner-file">Details for troubleshooting: {failure.errorFile}</p>}
        {skipError && <p className="field-error">{skipError}</p>}
        <div className="banner-actions">
          <button type="button" className="btn btn-primary" data-testid="retry-tick" onClick={onRetry}>
            Retry
          </button>
          {onKeep && failure.kind === "prose_rejected" && failure.tick !== null && (
            <button
              type="button"
              className="btn btn-quiet"
              data-testid="keep-draft"
              onClick={onKeep}
              title="Commit this draft as it is, over the checks; its timeline entry says you kept it"
            >
              Keep anyway
            </button>
          )}
          {onEdit && failure.kind === "prose_rejected" && failure.tick !== null && (
            <button
              type="button"
              className="btn btn-quiet"
              data-testid="edit-draft"
              onClick={() => failure.tick !== null && onEdit(failure.tick)}
              title="Keep this draft and open it in the editor, with what the checks found beside it"
            >
              Edit
            </button>
          )}
          {failure.tick !== null && (
            <button
              type="button"
              className="btn btn-quiet"
              data-testid="skip-tick"
              disabled={skipping}
              onClick={skip}
              title="Give up on this attempt; the next scene starts fresh"
            >
              Skip
            </button>
          )}
        </div>
      </div>
    </section>
  );
}
