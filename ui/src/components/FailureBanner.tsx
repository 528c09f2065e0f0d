// The banner for a scene that could not be written: what went wrong in words a writer
// understands, the reassurance that nothing changed, and Retry / Skip.
import { useState } from "react";
import type { FailureInfo } from "../lib/run";
import { stageLabel } from "../lib/run";
import { errorText } from "../lib/api";
import { Icon } from "./Icon";

interface Props {
  failure: FailureInfo;
  onRetry: () => void;
  onSkip: (tick: number) => Promise<void>;
}

/** A hint about the likely cause, from the provider's message. */
function cause(message: string): string | null {
  if (/\b5\d\d\b|server error|internal server/i.test(message)) return "The AI server reported an error. It is often temporary: try again in a moment.";
  if (/\b429\b|rate limit/i.test(message)) return "The AI provider is limiting requests. Wait a little, then try again.";
  if (/\b40[13]\b|api key|unauthori[sz]ed|forbidden/i.test(message)) return "The AI provider refused the key. Check the provider in Settings.";
  if (/timed? ?out|timeout/i.test(message)) return "The AI provider took too long to answer.";
  if (/connect|refused|unreachable|dns/i.test(message)) return "The AI provider could not be reached. Is the server running?";
  return null;
}

export function FailureBanner({ failure, onRetry, onSkip }: Props) {
  const [skipError, setSkipError] = useState<string | null>(null);
  const [skipping, setSkipping] = useState(false);
  const hint = cause(failure.message);
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
    <section className="banner banner-error" data-testid="run-error" data-kind="tick" role="alert">
      <div className="banner-icon">
        <Icon name="alert" size={22} />
      </div>
      <div className="banner-body">
        <h2>
          {failure.tick !== null ? `Scene ${failure.tick} could not be written` : "The scene could not be written"}
          {failure.stage ? ` (while ${stageLabel(failure.stage).toLowerCase()})` : ""}
        </h2>
        <p className="banner-message">{failure.message}</p>
        {hint && <p>{hint}</p>}
        <p>Your story is unchanged — nothing was lost.</p>
        {failure.errorFile && <p className="banner-file">Details for troubleshooting: {failure.errorFile}</p>}
        {skipError && <p className="field-error">{skipError}</p>}
        <div className="banner-actions">
          <button type="button" className="btn btn-primary" data-testid="retry-tick" onClick={onRetry}>
            Retry
          </button>
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
