// After the writer edits a scene: re-read it into a memory proposal (title, summary, tension
// and each memory change with a checkbox, by name and field by field as before → after), list
// the later scenes that may now disagree, and apply what the writer keeps. Nothing changes in
// memory until Accept.
import { useEffect, useRef, useState } from "react";
import { commands } from "../../bindings";
import type { EditProposal_Serialize as EditProposal, LaterIssue_Serialize as LaterIssue } from "../../bindings";
import { Icon } from "../../components/Icon";
import { call } from "../../lib/api";
import { useFocusTrap } from "../../lib/focusTrap";
import { kindLabel } from "../../lib/review";
import { useToast } from "../../lib/toast";
import { ChangeLines } from "../shared/ChangeLines";
import { FormError, useAction } from "../shared/edit";

function Later({ issues }: { issues: LaterIssue[] }) {
  if (issues.length === 0) return null;
  return (
    <div className="notice notice-error later-issues" data-testid="later-issues">
      <p>
        <strong>Later scenes that may now disagree</strong> — flagged for you, never rewritten:
      </p>
      <ul>
        {issues.map((i) => (
          <li key={i.tick} data-testid="later-issue">
            Scene {i.tick} “{i.title}”: {i.findings.map((f) => f.message).join(" ")}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function MemoryProposal({ tick, onClose }: { tick: number; onClose: () => void }) {
  const notify = useToast();
  const [proposal, setProposal] = useState<EditProposal | null>(null);
  const [unticked, setUnticked] = useState<Set<number>>(new Set());
  const reading = useAction();
  const accepting = useAction();
  const first = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => first.current?.focus(), []);
  const trapKeys = useFocusTrap(dialog, reading.busy || accepting.busy ? undefined : onClose);

  const reread = () =>
    void reading.run(async () => {
      setProposal(await call(commands.proposeSceneMemory(tick)));
      setUnticked(new Set());
    });

  const accept = () =>
    void accepting.run(async () => {
      if (!proposal) return;
      const done = await call(commands.acceptSceneMemory(proposal, [...unticked]));
      const kept = proposal.changes.length - unticked.size;
      notify(`Memory updated from scene ${tick}: ${kept} change${kept === 1 ? "" : "s"} applied.`);
      if (done.later.length === 0) onClose();
      else setProposal({ ...proposal, changes: [], later: done.later });
    });

  const toggle = (index: number) =>
    setUnticked((s) => {
      const next = new Set(s);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });

  return (
    <div className="overlay" role="presentation">
      <div ref={dialog} className="dialog memory-proposal" role="dialog" aria-modal="true" aria-labelledby="proposal-title" data-testid="memory-proposal" onKeyDown={trapKeys}>
        <div className="dialog-head">
          <h2 id="proposal-title">Update the memory from scene {tick}?</h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label="Close" data-testid="proposal-close">
            <Icon name="close" />
          </button>
        </div>
        {!proposal ? (
          <>
            <p>Your edit is saved. The story's memory (summary, facts, whereabouts, loops) still reflects the scene as it was. Re-read the scene to see what would change; nothing is applied until you accept.</p>
            <FormError error={reading.error} testId="proposal-error" />
            <div className="form-actions">
              <button type="button" className="btn btn-quiet" onClick={onClose} data-testid="proposal-skip">
                Not now
              </button>
              <button ref={first} type="button" className="btn btn-primary" disabled={reading.busy} onClick={reread} data-testid="proposal-reread">
                {reading.busy ? "Re-reading…" : "Re-read the scene"}
              </button>
            </div>
          </>
        ) : (
          <>
            <dl className="proposal-scene">
              <div>
                <dt>Title</dt>
                <dd data-testid="proposal-title">{proposal.title}</dd>
              </div>
              <div>
                <dt>Tension</dt>
                <dd>{proposal.tension} / 10</dd>
              </div>
              <div>
                <dt>Summary</dt>
                <dd>
                  <ul>
                    {proposal.summary.map((s, i) => (
                      <li key={i}>{s}</li>
                    ))}
                  </ul>
                </dd>
              </div>
            </dl>
            {proposal.changes.length > 0 ? (
              <fieldset className="proposal-changes">
                <legend>Memory changes — untick what you do not want</legend>
                {proposal.changes.map((c) => (
                  <label key={c.index} className="check proposal-change" data-testid="proposal-change">
                    <input type="checkbox" checked={!unticked.has(c.index)} onChange={() => toggle(c.index)} data-testid={`proposal-change-${c.index}`} />
                    <span className="proposal-change-text">
                      <span>
                        <span className="badge badge-note">{kindLabel(c.category)}</span> <strong>{c.subject}</strong>
                      </span>
                      {c.lines.length > 0 ? <ChangeLines lines={c.lines} /> : <span>{c.summary}</span>}
                    </span>
                  </label>
                ))}
              </fieldset>
            ) : (
              <p className="muted">No memory changes to apply.</p>
            )}
            <Later issues={proposal.later} />
            {proposal.notes.length > 0 && <p className="muted small">{proposal.notes.join(" ")}</p>}
            <FormError error={accepting.error} testId="proposal-error" />
            <div className="form-actions">
              <button type="button" className="btn btn-quiet" onClick={onClose}>
                {proposal.changes.length > 0 ? "Discard" : "Close"}
              </button>
              {proposal.changes.length > 0 && (
                <button type="button" className="btn btn-primary" disabled={accepting.busy} onClick={accept} data-testid="proposal-accept">
                  Accept {proposal.changes.length - unticked.size} change{proposal.changes.length - unticked.size === 1 ? "" : "s"}
                </button>
              )}
            </div>
          </>
        )}
      </div>
    </div>
  );
}
