// A scene once committed: title and word count, the summary bullets and the checks'
// findings; the tokens it took behind Details.
import { FindingsList } from "../components/FindingsList";
import { TelemetryDetails } from "../components/TelemetryDetails";
import { count, plural } from "../lib/format";
import type { TickSummary } from "../lib/types";

export function CommittedScene({ summary, latest }: { summary: TickSummary; latest: boolean }) {
  return (
    <section
      className={`card committed${latest ? " latest" : ""}`}
      data-testid={latest ? "committed-scene" : "earlier-scene"}
      data-tick={summary.tick}
    >
      <p className="eyebrow">
        Scene {summary.tick} committed · {plural(summary.words, "word")}
        {summary.revised ? " · revised once" : ""}
      </p>
      <h2 className="committed-title">{summary.title}</h2>
      {summary.summary.length > 0 && (
        <ul className="summary-bullets">
          {summary.summary.map((s, i) => (
            <li key={i}>{s}</li>
          ))}
        </ul>
      )}
      {latest && (
        <div className="committed-findings">
          <h3>Checks</h3>
          <FindingsList findings={summary.findings} />
        </div>
      )}
      <TelemetryDetails testId={latest ? "committed-telemetry" : "earlier-telemetry"}>
        <p>{count(summary.tokens)} tokens</p>
      </TelemetryDetails>
    </section>
  );
}
