// One scene of the timeline on one line: its number, its title (opening it in the manuscript),
// POV, place, who wrote it (the agent, by hand, imported) and how many findings its checks
// left; the rest on demand under Details — who wrote it, the plan's reason, the findings, the
// characters in it, and behind the engineer's numbers the tokens, model calls, time and the
// lookups run. A failed attempt shows its error with Retry /
// Skip without being opened.
import { useState } from "react";
import { FindingsList } from "../../components/FindingsList";
import { TelemetryDetails } from "../../components/TelemetryDetails";
import { errorText } from "../../lib/api";
import { count, duration, plural } from "../../lib/format";
import type { TimelineEntry } from "../../lib/types";

/** Who wrote the scene, on its line (short) and in its details (a sentence). */
const WRITER: Record<TimelineEntry["written_by"], { short: string; long: string }> = {
  agent: { short: "Agent", long: "Written by the agent." },
  hand: { short: "By hand", long: "Written by hand in the manuscript." },
  import: { short: "Imported", long: "A scene of the imported manuscript." },
};

const STATUS: Record<TimelineEntry["status"], string> = {
  committed: "Written",
  failed: "Failed",
  failed_resolved: "Failed, then retried or skipped",
};

interface Props {
  row: TimelineEntry;
  running: boolean;
  onRetry: () => void;
  onSkip: (tick: number) => Promise<void>;
  /** Opens the scene in the manuscript. */
  onOpen: (tick: number) => void;
}

export function TimelineRow({ row, running, onRetry, onSkip, onOpen }: Props) {
  const [skipError, setSkipError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const failed = row.status === "failed";
  const committed = row.status === "committed";
  // The checks read only what the agent writes: a scene written by hand or imported was never
  // checked, which is not the same as clean.
  const checked = row.written_by === "agent" || row.findings.length > 0;
  const telemetry = row.tokens > 0 || row.calls > 0 || row.roles.length > 0 || row.tools.length > 0;
  const findings = row.findings.filter((f) => f.severity !== "note").length;
  const notes = row.findings.length - findings;
  const detailsId = `timeline-details-${row.tick}-${row.status}`;
  return (
    <article className={`timeline-row status-${row.status}${open ? " open" : ""}`} data-testid="timeline-row" data-tick={row.tick} data-status={row.status}>
      <div className="timeline-line">
        <span className="timeline-tick" aria-label={`Scene ${row.tick}`}>
          {row.tick}
        </span>
        {committed ? (
          <button type="button" className="timeline-title link" data-testid="timeline-open" onClick={() => onOpen(row.tick)} title="Open this scene in the manuscript">
            {row.title ?? "Untitled"}
          </button>
        ) : (
          <span className="timeline-title muted">{STATUS[row.status]}</span>
        )}
        <span className="timeline-cell" data-testid="timeline-pov" title="Point of view">
          {row.pov ?? ""}
        </span>
        <span className="timeline-cell muted" data-testid="timeline-place" title="Place">
          {row.location ?? ""}
        </span>
        <span className={`timeline-cell timeline-by by-${row.written_by}`} data-testid="timeline-by" title={committed ? WRITER[row.written_by].long : undefined}>
          {committed ? WRITER[row.written_by].short : ""}
        </span>
        <span className="timeline-cell timeline-count" data-testid="timeline-finding-count">
          {committed &&
            (!checked ? (
              <span className="muted small">not checked</span>
            ) : findings > 0 ? (
              <span className="badge badge-warning">{plural(findings, "finding")}</span>
            ) : notes > 0 ? (
              <span className="muted small">{plural(notes, "note")}</span>
            ) : (
              <span className="muted small">clean</span>
            ))}
        </span>
        <button
          type="button"
          className="btn btn-quiet btn-small timeline-toggle"
          data-testid="timeline-expand"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "Less" : "More"}
        </button>
      </div>
      {open && (
        <div className="timeline-body" id={detailsId} data-testid="timeline-details">
          {committed && (
            <p className="timeline-meta" data-testid="timeline-written-by">
              {WRITER[row.written_by].long}
            </p>
          )}
          {row.chapter !== null && (
            <p className="timeline-meta">
              Chapter {row.chapter}
              {row.chapter_title ? ` · ${row.chapter_title}` : ""}
            </p>
          )}
          {row.characters.length > 0 && <p className="timeline-meta" data-testid="timeline-characters">With {row.characters.join(", ")}</p>}
          {row.rationale && row.written_by === "agent" && <p className="timeline-rationale">{row.rationale}</p>}
          {committed && row.findings.length > 0 && <FindingsList findings={row.findings} testId="timeline-findings" />}
          {telemetry && (
          <TelemetryDetails testId="timeline-telemetry">
            <p className="timeline-usage">
              {[row.tokens > 0 && `${count(row.tokens)} tokens`, row.calls > 0 && plural(row.calls, "model call"), duration(row.duration_ms), money(row.cost)]
                .filter(Boolean)
                .join(" · ")}
            </p>
            {row.roles.length > 0 && (
              <ul className="timeline-roles" data-testid="timeline-roles" aria-label="Which model did what">
                {row.roles.map((r) => (
                  <li key={r.role} data-role={r.role}>
                    <span className="role-name">{r.role}</span> {r.model ?? "model not named"} ·{" "}
                    {[plural(r.calls, "call"), `${count(r.prompt_tokens + r.completion_tokens)} tokens`, money(r.cost)].filter(Boolean).join(" · ")}
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
          )}
        </div>
      )}
      {row.error && (failed || open) && (
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
    </article>
  );
}

/** A cost at the profiles' prices, when there is one ("cost 0.0102"). */
function money(cost: number | null): string | false {
  return cost !== null && cost > 0 && `cost ${cost.toFixed(4)}`;
}
