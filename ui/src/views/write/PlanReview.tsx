// Review mode, first pause: the plan for the next scene before any of its tools run — what
// should happen (editable: the writer's words become the plan's intention), why, and what it
// will do to the story's memory, each action a plain sentence with names (its raw call behind
// Details) — with Accept and Reject.
import { useState } from "react";
import type { PlanVerdict } from "../../bindings";
import { Icon } from "../../components/Icon";
import { errorText } from "../../lib/api";
import { toolSentence } from "../../lib/toolSentence";
import type { Plan } from "../../lib/types";
import { useNames } from "../../lib/useNames";
import "../../styles/review-words.css";

interface Props {
  tick: number | null;
  plan: Plan;
  regenerating: boolean;
  onDecide: (verdict: PlanVerdict) => Promise<void>;
}

export function PlanReview({ tick, plan, regenerating, onDecide }: Props) {
  const [intention, setIntention] = useState(plan.scene_intention);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const names = useNames(tick);
  const decide = async (verdict: PlanVerdict) => {
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
    const edited = intention.trim();
    if (edited === "") {
      setError("Say what should happen in the scene, or reject the plan.");
      return;
    }
    void decide(edited === plan.scene_intention.trim() ? { decision: "accept" } : { decision: "edit", plan: { ...plan, scene_intention: edited } });
  };
  return (
    <section className="card review plan-review" data-testid="plan-review" aria-labelledby="plan-review-title">
      <p className="eyebrow">Review · step 1 of 2</p>
      <h2 id="plan-review-title">
        The plan for scene {tick ?? "…"}
        {regenerating ? " (written again)" : ""}
      </h2>
      <p className="review-lead">Nothing has run yet. Change what should happen if you like, then accept to run its tools and write the scene, or reject to stop here.</p>
      <dl className="plan-fields">
        <div>
          <dt>What happens</dt>
          <dd>
            <textarea
              className="plan-intention"
              data-testid="plan-intention"
              aria-label="What happens in the scene (edit to change the plan)"
              value={intention}
              rows={3}
              onChange={(e) => setIntention(e.target.value)}
            />
          </dd>
        </div>
        {plan.rationale && (
          <div>
            <dt>Why now</dt>
            <dd data-testid="plan-rationale">{plan.rationale}</dd>
          </div>
        )}
        {plan.expected_outcomes && plan.expected_outcomes.length > 0 && (
          <div>
            <dt>It should lead to</dt>
            <dd>
              <ul className="plain-list">
                {plan.expected_outcomes.map((o, i) => (
                  <li key={i}>{o}</li>
                ))}
              </ul>
            </dd>
          </div>
        )}
        <div>
          <dt>Memory actions</dt>
          <dd>
            {plan.actions.length === 0 ? (
              <span className="muted">None: the scene is written from what the story already knows.</span>
            ) : (
              <ol className="plan-tools" data-testid="plan-tools">
                {plan.actions.map((a, i) => (
                  <li key={i} data-testid="plan-tool">
                    <span data-testid="plan-tool-sentence">{toolSentence(a.tool, a.args, names)}</span>
                    {a.reason && <span className="muted small"> — {a.reason}</span>}
                    <details className="tool-raw">
                      <summary className="muted small">Details</summary>
                      <pre className="tool-detail">
                        {a.tool} {JSON.stringify(a.args ?? {}, null, 2)}
                      </pre>
                    </details>
                  </li>
                ))}
              </ol>
            )}
          </dd>
        </div>
      </dl>
      {error && (
        <p className="notice notice-error" role="alert" data-testid="review-error">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="btn btn-danger-quiet" data-testid="plan-reject" disabled={busy} onClick={() => void decide({ decision: "reject" })}>
          <Icon name="close" /> Reject
        </button>
        <button type="button" className="btn btn-primary" data-testid="plan-accept" disabled={busy} onClick={accept}>
          <Icon name="check" /> Accept plan
        </button>
      </div>
    </section>
  );
}
