// Review mode, second pause: everything the tick is about to save — the prose (editable), the
// checks' findings, what the tools did, and every memory change as a checkbox, grouped by
// kind, each field it sets as before → after with names. Unticked changes are left out;
// Accept saves, Reject saves nothing.
import { useState } from "react";
import { FindingsList } from "../../components/FindingsList";
import { Icon } from "../../components/Icon";
import { errorText } from "../../lib/api";
import { plural, wordCount } from "../../lib/format";
import { groupChanges, kindLabel, subjectName } from "../../lib/review";
import { toolDone } from "../../lib/toolSentence";
import type { Proposal } from "../../lib/types";
import { useNames } from "../../lib/useNames";
import type { Verdict } from "../../bindings";
import { ChangeLines } from "../shared/ChangeLines";

interface Props {
  proposal: Proposal;
  regenerating: boolean;
  onDecide: (verdict: Verdict) => Promise<void>;
}

export function SceneReview({ proposal, regenerating, onDecide }: Props) {
  const [prose, setProse] = useState(proposal.prose);
  const [unticked, setUnticked] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const names = useNames(proposal.tick);
  const groups = groupChanges(proposal.changes);
  const kept = proposal.changes.length - unticked.size;

  const toggle = (index: number) =>
    setUnticked((s) => {
      const next = new Set(s);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });

  const decide = async (verdict: Verdict) => {
    setBusy(true);
    setError(null);
    try {
      await onDecide(verdict);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  const accept = () => {
    if (prose.trim() === "") {
      setError("The scene cannot be empty. Put the text back, or reject the scene.");
      return;
    }
    const edited = prose.trim() !== proposal.prose.trim();
    void decide({ decision: "accept", prose: edited ? prose : null, unticked: [...unticked].sort((a, b) => a - b) });
  };

  return (
    <section className="card review scene-review" data-testid="scene-review" aria-labelledby="scene-review-title">
      <p className="eyebrow">Review · step 2 of 2</p>
      <h2 id="scene-review-title">
        Scene {proposal.tick}
        {regenerating ? " written again" : ""}: <span data-testid="review-title">{proposal.title}</span>
      </h2>
      <p className="review-lead">
        Nothing is saved yet. Edit the prose if you like, untick any memory change you do not want, then accept — or reject to keep the story as it
        is.
      </p>
      <div className="review-grid">
        <div className="review-prose">
          <label htmlFor="review-prose" className="review-label">
            The scene <span className="muted small">({plural(wordCount(prose), "word")}, tension {proposal.tension}/10)</span>
          </label>
          <textarea
            id="review-prose"
            data-testid="review-prose"
            className="scene-editor reading"
            value={prose}
            rows={Math.min(30, Math.max(12, Math.round(prose.length / 80)))}
            onChange={(e) => setProse(e.target.value)}
          />
          {proposal.summary.length > 0 && (
            <ul className="summary-bullets" data-testid="review-summary">
              {proposal.summary.map((s, i) => (
                <li key={i}>{s}</li>
              ))}
            </ul>
          )}
        </div>
        <div className="review-side">
          <section className="side-block">
            <h3>Memory changes</h3>
            {proposal.changes.length === 0 ? (
              <p className="muted small" data-testid="review-no-changes">
                This scene changes nothing in the story's memory.
              </p>
            ) : (
              <>
                <p className="muted small" data-testid="review-kept">
                  {kept} of {plural(proposal.changes.length, "change")} will be saved
                </p>
                {groups.map((g) => (
                  <fieldset key={g.id} className="change-group" data-testid="change-group" data-group={g.id}>
                    <legend>{g.label}</legend>
                    {g.changes.map((c) => (
                      <label key={c.index} className="change-item" data-testid="review-change" data-index={c.index} data-category={c.category}>
                        <input
                          type="checkbox"
                          checked={!unticked.has(c.index)}
                          onChange={() => toggle(c.index)}
                          aria-label={`Keep: ${kindLabel(c.category)} ${subjectName(c.subject, names)}`}
                        />
                        <span className="change-text">
                          <span className="change-subject">
                            {kindLabel(c.category)} · {subjectName(c.subject, names)}
                          </span>
                          {c.lines.length > 0 ? <ChangeLines lines={c.lines} /> : c.summary && <span className="change-summary">{c.summary}</span>}
                        </span>
                      </label>
                    ))}
                  </fieldset>
                ))}
              </>
            )}
          </section>
          <section className="side-block">
            <h3>Checks</h3>
            <FindingsList findings={proposal.findings} testId="review-findings" />
          </section>
          {proposal.tools.length > 0 && (
            <section className="side-block">
              <h3>What the memory actions did</h3>
              <ul className="tool-list" data-testid="review-tools">
                {proposal.tools.map((t, i) => (
                  <li key={i} className={t.ok ? "tool-ok" : "tool-failed"}>
                    <details>
                      <summary>
                        <span className="tool-status" aria-label={t.ok ? "succeeded" : "failed"}>
                          {t.ok ? "✓" : "✗"}
                        </span>
                        {toolDone(t.tool)}
                      </summary>
                      <pre className="tool-detail">{t.detail}</pre>
                    </details>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {proposal.notes.length > 0 && (
            <section className="side-block">
              <h3>Notes</h3>
              <ul className="plain-list small muted" data-testid="review-notes">
                {proposal.notes.map((n, i) => (
                  <li key={i}>{n}</li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
      {error && (
        <p className="notice notice-error" role="alert" data-testid="review-error">
          {error}
        </p>
      )}
      <div className="form-actions review-actions">
        <button type="button" className="btn btn-danger-quiet" data-testid="review-reject" disabled={busy} onClick={() => void decide({ decision: "reject" })}>
          <Icon name="close" /> Reject
        </button>
        <button type="button" className="btn btn-primary" data-testid="review-accept" disabled={busy} onClick={accept}>
          <Icon name="check" /> Accept and save
        </button>
      </div>
    </section>
  );
}
