// The audit's report card: each criterion of the book with its number, what the number counts
// in words, and a pass or needs-attention state; each failure says why in the writer's words
// and links its scenes to the manuscript (the first is where to look).
import { useState } from "react";
import type { AuditFailure, Criterion_Serialize, SceneRef } from "../../bindings";
import { plural } from "../../lib/format";

/** Failures shown before "Show all": a long list would bury the next criterion. */
const FIRST_FAILURES = 5;

type State = "pass" | "attention" | "unjudged";

function stateOf(c: Criterion_Serialize): State {
  if (c.failures.length > 0) return "attention";
  return c.score === null ? "unjudged" : "pass";
}

const STATE_WORDS: Record<State, string> = { pass: "Holds", attention: "Needs attention", unjudged: "Not judged" };

function SceneLink({ at, openScene, first }: { at: SceneRef; openScene: (tick: number) => void; first: boolean }) {
  // Scene 0 is "the start": a question the premise set up, before any scene to open.
  if (at.scene === 0) return <span className="muted">the start of the book</span>;
  return (
    <button
      type="button"
      className="link"
      data-testid="audit-scene"
      data-scene={at.scene}
      title={`Open scene ${at.scene} in the manuscript`}
      onClick={() => openScene(at.scene)}
    >
      {first ? `Scene ${at.scene}` : `scene ${at.scene}`}
      {first && at.title ? ` · ${at.title}` : ""}
    </button>
  );
}

function Failure({ failure, openScene }: { failure: AuditFailure; openScene: (tick: number) => void }) {
  const [where, ...also] = failure.scenes;
  return (
    <li className="audit-failure" data-testid="audit-failure" data-kind={failure.kind}>
      {where && (
        <p className="audit-where">
          <SceneLink at={where} openScene={openScene} first />
          {also.length > 0 && (
            <span className="muted small">
              {" "}
              (see also{" "}
              {also.map((s, i) => (
                <span key={`${s.scene}-${i}`}>
                  {i > 0 && ", "}
                  <SceneLink at={s} openScene={openScene} first={false} />
                </span>
              ))}
              )
            </span>
          )}
        </p>
      )}
      <p className="audit-why">{failure.why}</p>
    </li>
  );
}

function CriterionRow({ criterion, openScene }: { criterion: Criterion_Serialize; openScene: (tick: number) => void }) {
  const [all, setAll] = useState(false);
  const state = stateOf(criterion);
  const shown = all ? criterion.failures : criterion.failures.slice(0, FIRST_FAILURES);
  return (
    <li className={`audit-criterion audit-${state}`} data-testid="audit-criterion" data-key={criterion.key} data-state={state}>
      <div className="audit-criterion-head">
        <span className="audit-score" data-testid="audit-score" aria-label={criterion.score === null ? "not judged" : `${criterion.score} out of 100`}>
          {criterion.score ?? "—"}
        </span>
        <div className="audit-criterion-text">
          <h3>{criterion.title}</h3>
          <p className="muted small" data-testid="audit-measure">
            {criterion.measure}
            {criterion.key === "cost" && " · shown beside the book, not counted in its score"}
          </p>
        </div>
        <span className={`badge audit-state-${state}`} data-testid="audit-state">
          {state === "attention" ? `${STATE_WORDS[state]} · ${plural(criterion.failures.length, "place")}` : STATE_WORDS[state]}
        </span>
      </div>
      {shown.length > 0 && (
        <ul className="audit-failures">
          {shown.map((f, i) => (
            <Failure key={i} failure={f} openScene={openScene} />
          ))}
        </ul>
      )}
      {criterion.failures.length > FIRST_FAILURES && (
        <button type="button" className="btn btn-quiet audit-more" onClick={() => setAll((a) => !a)}>
          {all ? "Show fewer" : `Show all ${criterion.failures.length}`}
        </button>
      )}
    </li>
  );
}

export function ReportCard({ criteria, openScene }: { criteria: Criterion_Serialize[]; openScene: (tick: number) => void }) {
  return (
    <ol className="audit-criteria" data-testid="audit-card">
      {criteria.map((c) => (
        <CriterionRow key={c.key} criterion={c} openScene={openScene} />
      ))}
    </ol>
  );
}
