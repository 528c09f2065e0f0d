// The prose of a scene that could not be written, kept on screen under the failure banner:
// what streamed before the provider failed (or the whole draft the checks refused), with Copy
// and "Keep as a draft" — committed as it is, with no model call, and opened in the editor for
// the writer to finish. The draft comes from the failure's error file through the overview, so
// it is offered again after a restart.
import { useState } from "react";
import { Icon } from "../../components/Icon";
import { Prose } from "../../components/Prose";
import { copyText } from "../../lib/clipboard";
import { plural, wordCount } from "../../lib/format";

interface Props {
  tick: number | null;
  text: string;
  /** Keeps it as a draft and opens it in the editor; absent when there is nothing on disk to keep. */
  onKeep?: () => void;
  busy: boolean;
}

export function FailedDraft({ tick, text, onKeep, busy }: Props) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => setCopied(await copyText(text));
  return (
    <section className="failed-draft" data-testid="failed-draft" aria-label="What was written before it stopped">
      <header className="failed-draft-head">
        <div>
          <h3>{tick !== null ? `What scene ${tick} had so far` : "What the scene had so far"}</h3>
          <p className="muted small">
            {plural(wordCount(text), "word")}, not yet part of the book. Copy it, or keep it as a draft and finish it yourself.
          </p>
        </div>
        <div className="failed-draft-actions">
          <button type="button" className="btn btn-quiet btn-small" data-testid="copy-draft" onClick={() => void copy()}>
            <Icon name="copy" /> {copied ? "Copied" : "Copy"}
          </button>
          {onKeep && (
            <button
              type="button"
              className="btn btn-primary btn-small"
              data-testid="keep-as-draft"
              disabled={busy}
              onClick={onKeep}
              title="Add it to the book as it is, with no call to the AI, and open it in the editor to finish"
            >
              Keep as a draft
            </button>
          )}
        </div>
      </header>
      {copied === false && <p className="field-error">Could not copy; select the text and copy it by hand.</p>}
      <article className="failed-draft-prose">
        <Prose text={text} testId="failed-draft-prose" className="reading" />
      </article>
    </section>
  );
}
