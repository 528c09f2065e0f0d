// One tick in the timeline: number, status, scene, POV and place, the plan's rationale and
// findings; behind Details the tokens, model calls, time and the tools run. A failed tick has
// Retry / Skip.
import { useState } from "react";
import { FindingsList } from "../components/FindingsList";
import { TelemetryDetails } from "../components/TelemetryDetails";
import { errorText } from "../lib/api";
import { count, duration, plural } from "../lib/format";
import type { TimelineEntry } from "../lib/types";

const STATUS: Record<TimelineEntry["status"], string> = {
  committed: "Committed",
  failed: "Failed",
  failed_resolved: "Failed, then retried or skipped",
};

interface Props {
  row: TimelineEntry;
  running: boolean;
  onRetry: () => void;
  onSkip: (tick: number) => Promise<void>;
}

export function TimelineRow({ row, running, onRetry, onSkip }: Props) {
  const [skipError, setSkipError] = useState<string | null>(null);
  const failed = row.status === "failed";
  return (
    <article className={`timeline-row status-${row.status}`} data-testid="timeline-row" data-tick={row.tick} data-status={row.status}>
      <div className="timeline-tick" aria-label={`Tick ${row.tick}`}>
        {row.tick}
      </div>
      <div className="timeline-body">
        <header className="timeline-head">
          <h3>{row.title ?? (row.status === "committed" ? "Untitled" : "No scene")}</h3>
          <span className={`badge badge-status-${row.status}`}>{STATUS[row.status]}</span>
        </header>
        {(row.pov || row.location) && <p className="timeline-meta">{[row.pov && `POV ${row.pov}`, row.location].filter(Boolean).join(" · ")}</p>}
        {row.rationale && <p className="timeline-rationale">{row.rationale}</p>}
        {row.status === "committed" && row.findings.length > 0 && <FindingsList findings={row.findings} testId="timeline-findings" />}
        <TelemetryDetails testId="timeline-telemetry">
          <p className="timeline-usage">
            {[
              row.tokens > 0 && `${count(row.tokens)} tokens`,
              row.calls > 0 && plural(row.calls, "model call"),
              duration(row.duration_ms),
              money(row.cost),
            ]
              .filter(Boolean)
              .join(" · ")}
          </p>
          {row.roles.length > 0 && (
            <ul className="timeline-roles" data-testid="timeline-roles" aria-label="Which model did what">
              {row.roles.map((r) => (
                <li key={r.role} data-role={r.role}>
                  <span className="role-name">{r.role}</span> {r.model ?? "model not named"} ·{" "}
                  {[plural(r.calls, "call"), `${count(r.prompt_tokens + r.completion_tokens)} tokens`, money(r.cost)]
                    .filter(Boolean)
                    .join(" · ")}
                </li>
              ))}
            </ul>
          )}
          {row.tools.length > 0 && (
            <details className="timeline-tools">
              <summary>
                {row.tools.length} {row.tools.length === 1 ? "tool" : "tools"} run
                {row.tools.some((t) => !t.ok) ? ` · ${row.tools.filter((t) => !t.ok).length} failed` : ""}
              </summary>
              <ul className="tool-list">
                {row.tools.map((t, i) => (
                  <li key={i} className={t.ok ? "tool-ok" : "tool-failed"}>
                    <span className="tool-status">{t.ok ? "✓" : "✗"}</span> <code>{t.tool}</code>
                    <pre className="tool-detail">{t.detail}</pre>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </TelemetryDetails>
        {row.error && (
          <div className={`timeline-error${failed ? "" : " resolved"}`}>
            <p>
              <strong>{failed ? "This scene could not be written:" : "An earlier attempt failed:"}</strong> {row.error.message}
            </p>
            <p className="muted small">Details: {row.error.error_file}</p>
            {failed && (
              <div className="banner-actions">
                <button type="button" className="btn btn-primary btn-small" data-testid="retry-tick" disabled={running} onClick={onRetry}>
                  Retry
                </button>
                <button
                  type="button"
                  className="btn btn-quiet btn-small"
                  data-testid="skip-tick"
                  disabled={running}
                  onClick={() => onSkip(row.tick).catch((e: unknown) => setSkipError(errorText(e)))}
                >
                  Skip
                </button>
              </div>
            )}
            {skipError && <p className="field-error">{skipError}</p>}
          </div>
        )}
      </div>
    </article>
  );
}

/** A cost at the profiles' prices, when there is one ("cost 0.0102"). */
function money(cost: number | null): string | false {
  return cost !== null && cost > 0 && `cost ${cost.toFixed(4)}`;
}
