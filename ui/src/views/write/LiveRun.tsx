// What a run shows while it works: the stage indicator, the plan, the prose streaming in (as
// text) and its word count, and a notice while a fresh draft replaces one that could not be
// kept; the tool results and token usage behind Details.
import { Prose } from "../../components/Prose";
import { StageIndicator } from "../../components/StageIndicator";
import { TelemetryDetails } from "../../components/TelemetryDetails";
import { count, plural, wordCount } from "../../lib/format";
import { retryNotice } from "../../lib/run";
import type { RunState } from "../../lib/run";

export function LiveRun({ run }: { run: RunState }) {
  const running = run.status !== "idle";
  const usage = run.tickUsage.prompt + run.tickUsage.completion;
  const total = run.runUsage.prompt + run.runUsage.completion;
  return (
    <div className="live-run">
      <div className="live-main">
        {/* Calm, not an error: nothing is lost and the run goes on. Stopping still finishes the
            fresh draft; a cancel abandons it, so the notice goes. */}
        {run.retrying && (run.status === "running" || run.status === "stopping") && (
          <p className="notice notice-info retry-notice" role="status" data-testid="retry-notice">
            {retryNotice(run.retrying)}
          </p>
        )}
        {running && run.prose === "" && (
          <div className="prose-placeholder" data-testid="live-prose-waiting">
            {run.stage === "revising" ? "Revising the scene…" : "The prose will appear here as it is written."}
          </div>
        )}
        {/* Present from the start of a run (empty until the writer streams), so it can be watched. */}
        <article className={`live-prose-wrap${running ? " streaming" : ""}`} aria-live="off">
          <Prose text={run.prose} testId="live-prose" className="reading" />
        </article>
      </div>
      <aside className="live-side" aria-label="Progress">
        {running && <StageIndicator stage={run.stage} seen={run.stagesSeen} />}
        {run.plan && (
          <section className="side-block">
            <h3>The plan</h3>
            <p>{run.plan.scene_intention}</p>
            {run.plan.rationale && <p className="muted small">{run.plan.rationale}</p>}
          </section>
        )}
        {(run.prose !== "" || usage > 0 || run.tools.length > 0) && (
          <section className="side-block stats" data-testid="usage">
            <h3>This scene</h3>
            <p data-testid="live-words">{plural(wordCount(run.prose), "word")}</p>
            <TelemetryDetails testId="run-telemetry">
              {usage > 0 && (
                <p data-testid="run-tokens">
                  {count(usage)} tokens ({count(run.tickUsage.prompt)} in, {count(run.tickUsage.completion)} out)
                </p>
              )}
              {run.requested > 1 && total > 0 && <p className="muted small">This run: {count(total)} tokens</p>}
              {run.tools.length > 0 && (
                <ul className="tool-list" data-testid="tool-results" aria-label="Tools">
                  {run.tools.map((t, i) => (
                    <li key={`${t.id}-${i}`} className={t.ok ? "tool-ok" : "tool-failed"} data-testid="tool-result">
                      <details>
                        <summary>
                          <span className="tool-status" aria-label={t.ok ? "succeeded" : "failed"}>
                            {t.ok ? "✓" : "✗"}
                          </span>
                          <code>{t.tool}</code>
                        </summary>
                        <pre className="tool-detail">{t.detail}</pre>
                      </details>
                    </li>
                  ))}
                </ul>
              )}
            </TelemetryDetails>
          </section>
        )}
      </aside>
    </div>
  );
}
