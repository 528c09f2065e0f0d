// The live step indicator of a tick: gathering → planning → tools → writing → checking →
// (revising) → updating memory → committing; the current step is `stage`.
import { TICK_STAGES } from "../bindings";
import type { Stage } from "../bindings";
import { stageLabel } from "../lib/run";

export function StageIndicator({ stage, seen }: { stage: Stage | null; seen: Stage[] }) {
  const current = TICK_STAGES.findIndex((s) => s.stage === stage);
  const steps = TICK_STAGES.filter((s) => s.stage !== "revising" || seen.includes("revising"));
  return (
    <div className="stage-indicator">
      <p className="stage-current" data-testid="stage" data-stage={stage ?? "starting"} aria-live="polite">
        {stageLabel(stage)}…
      </p>
      <ol className="stage-steps">
        {steps.map((s) => {
          const index = TICK_STAGES.findIndex((x) => x.stage === s.stage);
          const state = s.stage === stage ? "current" : seen.includes(s.stage) || index < current ? "done" : "todo";
          return (
            <li key={s.stage} className={`step step-${state}`} aria-current={state === "current" ? "step" : undefined}>
              <span className="step-dot" aria-hidden="true" />
              <span className="step-label">{s.label}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
