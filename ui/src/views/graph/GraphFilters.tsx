// Toggles to show or hide each kind of node and edge in the graph, with their counts.
import { KINDS } from "../../lib/graph";
import type { GraphKind } from "../../lib/graph";

interface Props {
  counts: Record<GraphKind, number>;
  hidden: GraphKind[];
  onToggle: (kind: GraphKind) => void;
}

export function GraphFilters({ counts, hidden, onToggle }: Props) {
  return (
    <div className="graph-filters" role="group" aria-label="Show in the graph">
      {KINDS.map(({ kind, label }) => {
        const on = !hidden.includes(kind);
        return (
          <button
            key={kind}
            type="button"
            className={`chip chip-${kind}${on ? " on" : ""}`}
            data-testid={`filter-${kind}`}
            aria-pressed={on}
            onClick={() => onToggle(kind)}
          >
            <span className="chip-swatch" aria-hidden="true" />
            {label} <span className="chip-count">{counts[kind]}</span>
          </button>
        );
      })}
    </div>
  );
}
