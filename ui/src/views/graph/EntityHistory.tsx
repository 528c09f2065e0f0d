// An entity's history by scene, newest first: each change with its old and new value in the
// writer's words (places and people by name), contradictions (recorded, not applied)
// highlighted, and a whole record (as first recorded, or removed) field by field.
import type { JsonValue } from "../../bindings";
import type { HistoryItem } from "../../lib/types";
import { compact, human, Value } from "./RecordValue";
import type { Names } from "./RecordValue";

/** Fields of a whole record that the panel's heading already says. */
const SAID = new Set(["id", "name"]);

/** A whole record (field "*": the entity created or removed) without its id and name. */
function wholeRecord(value: JsonValue | null): JsonValue | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !SAID.has(k)));
}

function Change({ h, names }: { h: HistoryItem; names: Names }) {
  if (h.field === "*") {
    const record = wholeRecord(h.new_value ?? h.old_value);
    return (
      <>
        <span className="history-field">{h.change === "created" ? "First recorded" : human(h.change)}</span>
        {record !== null && (
          <div className="history-record">
            <Value value={record} names={names} />
          </div>
        )}
      </>
    );
  }
  return (
    <>
      <span className="history-field">{human(h.field)}</span> <span className="muted">{h.change}</span>
      {(h.old_value !== null || h.new_value !== null) && (
        <span className="history-change">
          {h.old_value !== null && <del>{compact(h.old_value, names)}</del>}
          {h.old_value !== null && h.new_value !== null && " → "}
          {h.new_value !== null && <ins>{compact(h.new_value, names)}</ins>}
        </span>
      )}
    </>
  );
}

export function EntityHistory({ items, names }: { items: HistoryItem[]; names: Names }) {
  const byTick = new Map<number, HistoryItem[]>();
  for (const h of items) byTick.set(h.tick, [...(byTick.get(h.tick) ?? []), h]);
  const ticks = [...byTick.keys()].sort((a, b) => b - a);
  return (
    <ol className="history" data-testid="entity-history">
      {ticks.map((tick) => (
        <li key={tick}>
          <h4>{tick === 0 ? "At the start" : `Scene ${tick}`}</h4>
          <ul>
            {(byTick.get(tick) ?? []).map((h, i) => (
              <li key={i} className={`history-item${h.flagged ? " flagged" : ""}`} data-flagged={h.flagged ? "true" : "false"}>
                {h.flagged && <span className="badge badge-violation">Contradiction — not applied</span>}
                <Change h={h} names={names} />
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}
