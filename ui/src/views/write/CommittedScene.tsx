// A scene once committed: title, word count and what it was kept with (revised, findings
// left), the summary bullets and the checks' findings; its tokens, and how many of them the
// server's prompt cache read, behind Details.
import { FindingsList } from "../../components/FindingsList";
import { TelemetryDetails } from "../../components/TelemetryDetails";
import { cachedPrompt, count, plural } from "../../lib/format";
import { kept } from "../../lib/kept";
import type { TickSummary } from "../../lib/types";

export function CommittedScene({ summary, latest }: { summary: TickSummary; latest: boolean }) {
  const keptWith = kept(summary);
  const cache = cachedPrompt(summary.usage);
  const testId = latest ? "committed" : "earlier";
  return (
    <section
      className={`card committed${latest ? " latest" : ""}${keptWith.findings > 0 ? " kept-with-findings" : ""}`}
      data-testid={latest ? "committed-scene" : "earlier-scene"}
      data-tick={summary.tick}
    >
      <p className="eyebrow" data-testid={`${testId}-eyebrow`}>
        Scene {summary.tick} committed · {plural(summary.words, "word")}
        {keptWith.parts.map((p) => ` · ${p}`).join("")}
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
      <TelemetryDetails testId={`${testId}-telemetry`}>
        <p>{count(summary.tokens)} tokens</p>
        {cache && <p data-testid={`${testId}-cache`}>{cache}</p>}
      </TelemetryDetails>
    </section>
  );
}
