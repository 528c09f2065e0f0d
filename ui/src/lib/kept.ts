// What a committed scene was kept with, in the words of the CLI's tick line (`novel tick`):
// revised or not, and how many of the checks' findings it still has, so a scene kept with
// problems never reads as clean.
import { count, plural } from "./format";
import type { TickSummary } from "./types";

export interface Kept {
  /** "revised once", "kept with 3 findings, 1 to fix"…; the CLI shows them in parentheses, the Write view after " · ". */
  parts: string[];
  /** Violations (what the revision acts on): the scene was kept with something to fix. */
  toFix: number;
  /** Violations and warnings; notes are the checks' uncertain cases and never count. */
  findings: number;
}

export function kept({ revised, findings }: Pick<TickSummary, "revised" | "findings">): Kept {
  const toFix = findings.filter((f) => f.severity === "violation").length;
  const found = toFix + findings.filter((f) => f.severity === "warning").length;
  const parts = revised ? ["revised once"] : [];
  if (found > 0) {
    const keptWith = `kept with ${plural(found, "finding")}`;
    parts.push(toFix > 0 ? `${keptWith}, ${count(toFix)} to fix` : `${keptWith} worth a look`);
  } else if (revised) {
    // Said only after a revision: an unrevised clean scene needs no word about its checks.
    parts.push("checks clean");
  }
  return { parts, toFix, findings: found };
}
