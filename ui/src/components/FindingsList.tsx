// The checks' findings for a scene (POV leaks, continuity, length…), most severe first.
import { CHECK_HEADINGS, type Check } from "../bindings";
import type { Finding } from "../lib/types";

// Every check the engine has, headed in the engine's one wording (exported with the bindings):
// a check without a heading fails the type check here.
const CHECKS: Record<Check, string> = CHECK_HEADINGS;

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
