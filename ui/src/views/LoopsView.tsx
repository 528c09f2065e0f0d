// Loops board: the story's open threads as cards in three columns (open, resolved,
// abandoned), with importance, when they opened and their notes by tick; each can be resolved,
// abandoned, reopened or edited, and the writer can open a new one.
import { useState } from "react";
import { commands } from "../bindings";
import type { LoopStatus } from "../bindings";
import { BranchTag } from "../components/BranchTag";
import { EmptyState } from "../components/EmptyState";
import { LoadError } from "../components/LoadError";
import { call } from "../lib/api";
import { useNovel } from "../lib/novel";
import type { Loop } from "../lib/types";
import { useLoad } from "../lib/useLoad";
import { LoopActions, NewLoopForm } from "./bible/LoopActions";
import "../styles/bible.css";
import "../styles/loops.css";

const COLUMNS: { status: LoopStatus; label: string; empty: string }[] = [
  { status: "open", label: "Open", empty: "No open threads." },
  { status: "resolved", label: "Resolved", empty: "Nothing resolved yet." },
  { status: "abandoned", label: "Abandoned", empty: "Nothing abandoned." },
];

/** An open loop untouched for this many scenes is flagged as left hanging. */
const STALE_AFTER = 5;

function LoopCardView({ loop, currentTick }: { loop: Loop; currentTick: number }) {
  const idle = currentTick - loop.last_tick;
  const stale = loop.status === "open" && idle >= STALE_AFTER;
  return (
    <article className={`loop-card${stale ? " stale" : ""}`} data-testid="loop-card" data-status={loop.status} data-importance={loop.importance}>
      <header className="loop-head">
        <span className={`badge badge-importance-${loop.importance}`}>{loop.importance}</span>
        {loop.category && <span className="muted small">{loop.category}</span>}
      </header>
      <p className="loop-description">{loop.description}</p>
      <p className="loop-meta muted small">
        Opened in scene {loop.opened_tick}
        {loop.resolved_tick !== null && ` · closed in scene ${loop.resolved_tick}`}
        {stale && ` · untouched for ${idle} scenes`}
      </p>
      {loop.notes.length > 0 && (
        <ol className="loop-notes">
          {loop.notes.map((n, i) => (
            <li key={i}>
              <span className="loop-note-tick">Scene {n.tick}</span> {n.note}
            </li>
          ))}
        </ol>
      )}
      <LoopActions key={`${loop.status}:${loop.description}`} loop={loop} />
    </article>
  );
}

function AddLoop() {
  const [adding, setAdding] = useState(false);
  if (adding) return <NewLoopForm onDone={() => setAdding(false)} />;
  return (
    <button type="button" className="btn btn-quiet" data-testid="new-loop" onClick={() => setAdding(true)}>
      New loop
    </button>
  );
}

export function LoopsView() {
  const { overview, version } = useNovel();
  const loops = useLoad(`loops:${overview?.path}:${version}`, () => call(commands.loopsBoard()));
  if (loops.error !== undefined && !loops.data) return <LoadError error={loops.error} onRetry={loops.reload} />;
  if (!loops.data) return <p className="loading">Loading the loops…</p>;
  if (loops.data.length === 0) {
    return (
      <>
        <EmptyState title="No open loops yet">Questions, promises and mysteries the story opens show up here.</EmptyState>
        <div className="loops-add">
          <AddLoop />
        </div>
      </>
    );
  }
  return (
    <>
      <div className="loops-summary">
        <p className="muted small">
          The story's open questions, promises and mysteries <BranchTag />
        </p>
        <AddLoop />
      </div>
      <div className="loops-board">
      {COLUMNS.map((col) => {
        const cards = loops.data?.filter((l) => l.status === col.status) ?? [];
        return (
          <section key={col.status} className={`loops-column column-${col.status}`} data-testid={`loops-${col.status}`}>
            <h2>
              {col.label} <span className="muted">{cards.length}</span>
            </h2>
            {cards.length === 0 ? (
              <p className="muted small">{col.empty}</p>
            ) : (
              cards.map((l) => <LoopCardView key={l.id} loop={l} currentTick={overview?.current_tick ?? 0} />)
            )}
          </section>
        );
      })}
      </div>
    </>
  );
}
