// The checks' findings for a scene (POV leaks, continuity, length…), most severe first.
import type { Check } from "../bindings";
import type { Finding } from "../lib/types";

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

// Violations are what the revision acts on; notes are the uncertain cases, shown to the writer
// apart so that they never read as something the agent will change.
const GROUPS = [
  { severity: "violation", title: "To fix" },
  { severity: "warning", title: "Worth a look" },
  { severity: "note", title: "Notes — left as they are unless you change them" },
] as const;

export function FindingsList({ findings, testId = "findings" }: { findings: Finding[]; testId?: string }) {
  if (findings.length === 0) {
    return (
      <p className="findings findings-clean" data-testid={testId}>
        The checks found nothing to fix.
      </p>
    );
  }
  const groups = GROUPS.map((g) => ({ ...g, items: findings.filter((f) => f.severity === g.severity) })).filter((g) => g.items.length > 0);
  const titled = groups.length > 1 || groups[0]?.severity === "note";
  return (
    <div className="findings-groups" data-testid={testId}>
      {groups.map((g) => (
        <section key={g.severity} className="findings-group" data-group={g.severity}>
          {titled && <h4 className="findings-group-title">{g.title}</h4>}
          <ul className="findings">
            {g.items.map((f, i) => (
              <li key={i} className={`finding finding-${f.severity}`} data-severity={f.severity}>
                <span className={`badge badge-${f.severity}`}>{f.severity}</span>
                <span className="finding-check">{CHECKS[f.check] ?? f.check}</span>
                <span className="finding-message">{f.message}</span>
                {f.excerpt && <q className="finding-excerpt">{f.excerpt}</q>}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
