// Words for the story's history as a novelist reads it: where a version came from, when it
// was made, and what a rewind keeps.
import type { VersionOrigin } from "../bindings";

const ORIGINS: Record<VersionOrigin, string> = {
  draft: "First draft",
  revision: "Written",
  regeneration: "Written again",
  edit: "Your edit",
  restore: "Restored",
  imported: "Earlier text",
};

export function originLabel(origin: VersionOrigin): string {
  return ORIGINS[origin] ?? origin;
}

const when = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** "20 Nov, 10:05" from an RFC 3339 time; the text as it is when it does not parse. */
export function shortTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : when.format(date);
}

/** The scenes a rewind keeps in a branch, as the subject of a sentence: "Scene 4 is",
 *  "Scenes 3–5 are". */
export function laterScenes(from: number, to: number): { subject: string; one: boolean } {
  return from === to ? { subject: `Scene ${from}`, one: true } : { subject: `Scenes ${from}–${to}`, one: false };
}
