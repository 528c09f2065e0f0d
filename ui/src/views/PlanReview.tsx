// Review mode, first pause: the plan for the next scene before any of its tools run — what
// should happen, why, and which tools it will call — with Accept and Reject.
import { useState } from "react";
import { Icon } from "../components/Icon";
import { errorText } from "../lib/api";
import type { Plan } from "../lib/types";

interface Props {
  tick: number | null;
  plan: Plan;
  regenerating: boolean;
  onAccept: () => Promise<void>;
  onReject: () => Promise<void>;
}

export function PlanReview({ tick, plan, regenerating, onAccept, onReject }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const decide = async (answer: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await answer();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };
  return (
    <section className="card review plan-review" data-testid="plan-review" aria-labelledby="plan-review-title">
      <p className="eyebrow">Review · step 1 of 2</p>
      <h2 id="plan-review-title">
        The plan for scene {tick ?? "…"}
        {regenerating ? " (written again)" : ""}
      </h2>
      <p className="review-lead">Nothing has run yet. Accept to run its tools and write the scene, or reject to stop here.</p>
      <dl className="plan-fields">
        <div>
          <dt>What happens</dt>
          <dd data-testid="plan-intention">{plan.scene_intention}</dd>
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
          <dt>Tools</dt>
          <dd>
            {plan.actions.length === 0 ? (
              <span className="muted">No tools: the scene is written from what the story already knows.</span>
            ) : (
              <ol className="plan-tools" data-testid="plan-tools">
                {plan.actions.map((a, i) => (
                  <li key={i} data-testid="plan-tool">
                    <code>{a.tool}</code>
                    {a.reason && <span className="muted small"> — {a.reason}</span>}
                    {Object.keys(a.args ?? {}).length > 0 && <pre className="tool-detail">{JSON.stringify(a.args, null, 2)}</pre>}
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
        <button type="button" className="btn btn-danger-quiet" data-testid="plan-reject" disabled={busy} onClick={() => void decide(onReject)}>
          <Icon name="close" /> Reject
        </button>
        <button type="button" className="btn btn-primary" data-testid="plan-accept" disabled={busy} onClick={() => void decide(onAccept)}>
          <Icon name="check" /> Accept plan
        </button>
      </div>
    </section>
  );
}
