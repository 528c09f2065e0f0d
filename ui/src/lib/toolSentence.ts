// A planned memory action as a writer reads it: one plain sentence per tool, with characters,
// places and loops by name ("Looks up: the ledger's missing page", "Changes Tamsin Vale:
// emotional state → resolved"), never the tool's name, an id or JSON. The raw call stays
// available behind a Details disclosure where it is shown.
import type { JsonValue } from "../bindings";

export type Names = ReadonlyMap<string, string>;
type Args = Partial<Record<string, JsonValue>>;

/** Field names in a writer's words. */
const FIELDS: Record<string, string> = {
  last_location: "whereabouts",
  emotional_state: "emotional state",
  tension_level: "tension",
  perspective_a: "how the first sees the second",
  perspective_b: "how the second sees the first",
  status: "status",
  arc: "arc",
  want: "wants",
  need: "needs",
};

function field(key: string): string {
  return FIELDS[key] ?? key.replace(/_/g, " ");
}

/** A value in words: ids by name, a reference to an earlier action's result said so. */
export function words(value: JsonValue | undefined, names: Names): string {
  if (value === null || value === undefined || value === "") return "nothing";
  if (typeof value === "string") {
    if (value.startsWith("$")) return "what an earlier step found";
    return names.get(value) ?? value;
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.length === 0 ? "nothing" : value.map((v) => words(v, names)).join(", ");
  const entries = Object.entries(value);
  if (entries.length === 0) return "nothing";
  return entries.map(([k, v]) => `${names.get(k) ?? field(k)}: ${words(v, names)}`).join("; ");
}

function text(args: Args, key: string): string {
  const v = args[key];
  return typeof v === "string" ? v.trim() : "";
}

function who(args: Args, key: string, names: Names): string {
  const v = args[key];
  return typeof v === "string" && v ? words(v, names) : "someone";
}

/** "emotional state → resolved; inventory + brass key". */
function changes(args: Args, names: Names): string {
  const parts: string[] = [];
  const set = args.changes;
  if (set && typeof set === "object" && !Array.isArray(set)) {
    for (const [k, v] of Object.entries(set)) {
      if (k === "relationships" && v && typeof v === "object" && !Array.isArray(v)) {
        for (const [other, view] of Object.entries(v)) parts.push(`sees ${names.get(other) ?? other} as ${words(view, names)}`);
      } else if (v && typeof v === "object" && !Array.isArray(v)) {
        for (const [inner, x] of Object.entries(v)) parts.push(`${field(inner)} → ${words(x, names)}`);
      } else {
        parts.push(`${field(k)} → ${words(v, names)}`);
      }
    }
  }
  const append = args.append;
  if (append && typeof append === "object" && !Array.isArray(append)) {
    for (const [k, v] of Object.entries(append)) parts.push(`${field(k)} + ${words(v, names)}`);
  }
  return parts.join("; ");
}

function relationFields(args: Args, names: Names): string {
  return ["kind", "status", "intensity", "perspective_a", "perspective_b", "event"]
    .filter((k) => args[k] !== undefined && args[k] !== null && args[k] !== "")
    .map((k) => (k === "event" ? words(args[k], names) : `${field(k)} → ${words(args[k], names)}`))
    .join("; ");
}

function withDetail(head: string, detail: string): string {
  return detail ? `${head}: ${detail}` : head;
}

/** The action as a sentence. Unknown tools read as their name in words and their arguments. */
export function toolSentence(tool: string, args: Args | null | undefined, names: Names): string {
  const a: Args = args ?? {};
  switch (tool) {
    case "memory.search": {
      const query = text(a, "query");
      return query ? `Looks up: ${query}` : "Looks something up in the story's memory";
    }
    case "character.generate":
      return withDetail(`Adds a character: ${text(a, "name") || "someone new"}`, text(a, "role"));
    case "character.update":
      return withDetail(`Changes ${who(a, "id", names)}`, changes(a, names));
    case "location.generate":
      return withDetail(`Adds a place: ${text(a, "name") || "somewhere new"}`, text(a, "description"));
    case "location.update":
      return withDetail(`Changes ${who(a, "id", names)}`, changes(a, names));
    case "relationship.create":
      return withDetail(`Links ${who(a, "character_a", names)} and ${who(a, "character_b", names)}`, relationFields(a, names));
    case "relationship.update":
      return withDetail(`Changes how ${who(a, "character_a", names)} and ${who(a, "character_b", names)} stand`, relationFields(a, names));
    case "relationship.query":
      return `Looks up ${who(a, "character_id", names)}'s relationships`;
    case "lore.add":
      return withDetail("Adds lore", text(a, "fact"));
    case "loop.update": {
      const action = text(a, "action").replace(/_/g, " ");
      return withDetail(`${action ? action.charAt(0).toUpperCase() + action.slice(1) : "Tends"} the loop “${who(a, "loop_id", names)}”`, text(a, "reason"));
    }
    default: {
      const name = tool.replace(/[._]/g, " ");
      const detail = Object.entries(a)
        .map(([k, v]) => `${field(k)}: ${words(v, names)}`)
        .join("; ");
      return withDetail(name.charAt(0).toUpperCase() + name.slice(1), detail);
    }
  }
}

/** What a tool did, as a heading for its outcome ("Looked up the story's memory"). */
export function toolDone(tool: string): string {
  const done: Record<string, string> = {
    "memory.search": "Looked up the story's memory",
    "character.generate": "Added a character",
    "character.update": "Changed a character",
    "location.generate": "Added a place",
    "location.update": "Changed a place",
    "relationship.create": "Linked two characters",
    "relationship.update": "Changed a relationship",
    "relationship.query": "Looked up relationships",
    "lore.add": "Added lore",
    "loop.update": "Tended a loop",
  };
  const name = tool.replace(/[._]/g, " ");
  return done[tool] ?? name.charAt(0).toUpperCase() + name.slice(1);
}
