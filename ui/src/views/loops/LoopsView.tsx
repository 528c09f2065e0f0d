// Loops board: the story's open questions, promises and mysteries in four columns that say
// where each stands — just opened, advancing, stale (untouched for LOOP_STALE_AFTER scenes,
// the engine's number) and resolved (or let go) — most important first, then oldest. A card
// says when it opened ("before scene 1" for one the premise set up), links the scenes that
// touched it to the manuscript, lists its notes by scene, and can be resolved, abandoned,
// reopened or edited; the writer can open a new one.
import { useState } from "react";
import { LOOP_STALE_AFTER, commands } from "../../bindings";
import type { LoopColumn } from "../../bindings";
import { BranchTag } from "../../components/BranchTag";
import { EmptyState } from "../../components/EmptyState";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { plural } from "../../lib/format";
import { useNovel } from "../../lib/novel";
import type { Loop } from "../../lib/types";
import { useLoad } from "../../lib/useLoad";
import { LoopActions, NewLoopForm } from "../shared/LoopActions";
import "../../styles/bible.css";
import "../../styles/loops.css";

const COLUMNS: { column: LoopColumn; label: string; meaning: string; empty: string }[] = [
  { column: "open", label: "Open", meaning: "Raised, not moved on since", empty: "Nothing newly raised." },
  { column: "advancing", label: "Advancing", meaning: `Moved on within the last ${plural(LOOP_STALE_AFTER, "scene")}`, empty: "Nothing moving right now." },
  { column: "stale", label: "Stale", meaning: `Untouched for ${plural(LOOP_STALE_AFTER, "scene")} or more`, empty: "Nothing left hanging." },
  { column: "resolved", label: "Resolved", meaning: "Resolved or let go", empty: "Nothing resolved yet." },
];

/** "Opened in scene 3"; a loop the premise set up opened before scene 1, not in "scene 0". */
export function openedIn(tick: number): string {
  return tick > 0 ? `Opened in scene ${tick}` : "Set up before scene 1";
}

function LoopCardView({ loop, openScene }: { loop: Loop; openScene: (tick: number) => void }) {
  const stale = loop.column === "stale";
  return (
    <article
      className={`loop-card${stale ? " stale" : ""}`}
      data-testid="loop-card"
      data-status={loop.status}
      data-column={loop.column}
      data-importance={loop.importance}
    >
      <header className="loop-head">
        <span className={`badge badge-importance-${loop.importance}`}>{loop.importance}</span>
        <span className="muted small">
          {loop.status === "abandoned" ? "let go" : loop.category}
        </span>
      </header>
      <p className="loop-description">{loop.description}</p>
      <p className="loop-meta muted small" data-testid="loop-meta">
        {openedIn(loop.opened_tick)}
        {loop.resolved_tick !== null && ` · closed in scene ${loop.resolved_tick}`}
        {loop.status === "open" && loop.idle_scenes > 0 && ` · untouched for ${plural(loop.idle_scenes, "scene")}`}
      </p>
      {loop.scenes.length > 0 && (
        <p className="loop-scenes small" data-testid="loop-scenes">
          <span className="muted">Scenes </span>
          {loop.scenes.map((tick, i) => (
            <span key={tick}>
              {i > 0 && ", "}
              <button type="button" className="link" data-testid="loop-scene" data-tick={tick} onClick={() => openScene(tick)} title={`Open scene ${tick} in the manuscript`}>
                {tick}
              </button>
            </span>
          ))}
        </p>
      )}
      {loop.notes.length > 0 && (
        <ol className="loop-notes">
          {loop.notes.map((n, i) => (
            <li key={i}>
              <span className="loop-note-tick">{n.tick > 0 ? `Scene ${n.tick}` : "Before scene 1"}</span> {n.note}
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

export function LoopsView({ openScene }: { openScene: (tick: number) => void }) {
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
          The story's open questions, promises and mysteries, most important first, then oldest <BranchTag />
        </p>
        <AddLoop />
      </div>
      <div className="loops-board">
        {COLUMNS.map((col) => {
          const cards = loops.data?.filter((l) => l.column === col.column) ?? [];
          return (
            <section key={col.column} className={`loops-column column-${col.column}`} data-testid={`loops-${col.column}`}>
              <header className="loops-column-head">
                <h2>
                  {col.label} <span className="muted">{cards.length}</span>
                </h2>
                <p className="muted small" data-testid={`loops-${col.column}-meaning`}>
                  {col.meaning}
                </p>
              </header>
              {cards.length === 0 ? (
                <p className="muted small">{col.empty}</p>
              ) : (
                cards.map((l) => <LoopCardView key={l.id} loop={l} openScene={openScene} />)
              )}
            </section>
          );
        })}
      </div>
    </>
  );
}
