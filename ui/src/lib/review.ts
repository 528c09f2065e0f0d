// Review mode's memory diff, grouped as a novelist thinks of it: who and what is new, what
// changed, the story's open questions (opened, advanced, resolved), relationships and lore.
import type { ChangeCategory } from "../bindings";
import type { ProposedChange } from "./types";

export interface ChangeGroup {
  id: string;
  label: string;
  changes: ProposedChange[];
}

const GROUPS: { id: string; label: string; categories: ChangeCategory[] }[] = [
  { id: "created", label: "New in the story", categories: ["new_character", "new_location"] },
  { id: "changed", label: "Changed", categories: ["character_update", "location_update"] },
  { id: "loops_opened", label: "Loops opened", categories: ["loop_opened"] },
  { id: "loops_advanced", label: "Loops advanced", categories: ["loop_advanced"] },
  { id: "loops_resolved", label: "Loops resolved", categories: ["loop_resolved"] },
  { id: "relationships", label: "Relationships", categories: ["relationship"] },
  { id: "lore", label: "Lore", categories: ["lore"] },
];

const KINDS: Record<ChangeCategory, string> = {
  new_character: "New character",
  character_update: "Character",
  new_location: "New place",
  location_update: "Place",
  relationship: "Relationship",
  loop_opened: "New loop",
  loop_advanced: "Loop",
  loop_resolved: "Loop",
  lore: "Lore",
};

export function kindLabel(category: ChangeCategory): string {
  return KINDS[category] ?? category;
}

/** The non-empty groups, in reading order; every change lands in exactly one. */
export function groupChanges(changes: ProposedChange[]): ChangeGroup[] {
  return GROUPS.map((g) => ({ id: g.id, label: g.label, changes: changes.filter((c) => g.categories.includes(c.category)) })).filter(
    (g) => g.changes.length > 0,
  );
}

/** A change's subject by name where the story knows the id ("C0" → "Tamsin Vale"); pairs
 *  ("C0 – C1") are resolved on both sides. */
export function subjectName(subject: string, names: ReadonlyMap<string, string>): string {
  return subject
    .split(" – ")
    .map((part) => names.get(part.trim()) ?? part)
    .join(" – ");
}
