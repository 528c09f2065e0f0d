// The checks' findings for a scene (POV leaks, continuity, length…), most severe first.
import type { Check } from "../bindings";
import type { Finding } from "../lib/types";

const ORDER = { violation: 0, warning: 1, note: 2 } as const;
// Every check the engine has: a new one fails the type check here until it has a name.
const CHECKS: Record<Check, string> = {
  pov_leak: "Point of view",
  other_mind: "Another character's mind",
  dead_character: "Dead character",
  two_places: "In two places",
  lost_item: "Lost item",
  length: "Length",
  tense_drift: "Tense",
  person_drift: "Person",
  markup: "Markup",
  meta_text: "Commentary, not story",
  unreachable: "Unreachable place",
  contradiction: "Contradicts the story memory",
  repetition: "Repeated phrase",
  stock_phrase: "Stock phrasing",
  title: "Title",
  off_page: "Knows what happened off-page",
};

export function FindingsList({ findings, testId = "findings" }: { findings: Finding[]; testId?: string }) {
  if (findings.length === 0) {
    return (
      <p className="findings findings-clean" data-testid={testId}>
        The checks found nothing to fix.
      </p>
    );
  }
  const sorted = [...findings].sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
  return (
    <ul className="findings" data-testid={testId}>
      {sorted.map((f, i) => (
        <li key={i} className={`finding finding-${f.severity}`} data-severity={f.severity}>
          <span className={`badge badge-${f.severity}`}>{f.severity}</span>
          <span className="finding-check">{CHECKS[f.check] ?? f.check}</span>
          <span className="finding-message">{f.message}</span>
          {f.excerpt && <q className="finding-excerpt">{f.excerpt}</q>}
        </li>
      ))}
    </ul>
  );
}
