// A stored value as a writer reads it: field names in words, ids of characters and places by
// their names, lists as lists and records field by field (never raw JSON).
import type { JsonValue } from "../../bindings";

/** Ids of characters and places, shown by name. */
export type Names = ReadonlyMap<string, string>;

/** Stored field names whose words are the engine's ("tick" is its word for a scene). */
const FIELDS: Record<string, string> = {
  first_tick: "First scene",
  last_update_tick: "Last changed in scene",
  opened_tick: "Opened in scene",
  resolved_tick: "Resolved in scene",
  character_a: "First character",
  character_b: "Second character",
};

/** "last_location" → "Last location"; a field counted in ticks is counted in scenes. */
export function human(key: string): string {
  const known = FIELDS[key];
  if (known) return known;
  const s = key.replace(/_/g, " ").replace(/\btick(s?)\b/g, "scene$1");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The value on one line: for a change "old → new". */
export function compact(value: JsonValue | null | undefined, names: Names): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return names.get(value) ?? value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map((v) => compact(v, names)).join(", ");
  const entries = Object.entries(value);
  return entries.length === 0 ? "none" : entries.map(([k, v]) => `${human(k)}: ${compact(v, names)}`).join("; ");
}

export function Value({ value, names }: { value: JsonValue; names: Names }) {
  if (value === null || value === "") return <span className="muted">—</span>;
  if (typeof value === "string") return <>{names.get(value) ?? value}</>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>;
    return (
      <ul className="value-list">
        {value.map((v, i) => (
          <li key={i}>
            <Value value={v} names={names} />
          </li>
        ))}
      </ul>
    );
  }
  if (typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return <span className="muted">none</span>;
    return (
      <dl className="value-map">
        {entries.map(([k, v]) => (
          <div key={k}>
            <dt>{human(k)}</dt>
            <dd>
              <Value value={v} names={names} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return <>{String(value)}</>;
}
