// The graph as a list, for keyboard and screen-reader users: every character and place with
// its links in words, under the same filters as the canvas. Up/Down/Home/End move between
// entries; Enter opens an entry's details.
import { useMemo, useRef } from "react";
import type { KeyboardEvent } from "react";
import { linksByNode } from "../../lib/graph";
import type { GraphKind } from "../../lib/graph";
import type { Graph } from "../../lib/types";

interface Props {
  graph: Graph;
  hidden: GraphKind[];
  selected: string | null;
  onSelect: (id: string) => void;
}

const SECTIONS = [
  { kind: "character", title: "Characters" },
  { kind: "location", title: "Places" },
] as const;

export function GraphList({ graph, hidden, selected, onSelect }: Props) {
  const links = useMemo(() => linksByNode(graph, hidden), [graph, hidden]);
  const root = useRef<HTMLDivElement>(null);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const keys = ["ArrowDown", "ArrowUp", "Home", "End"];
    if (!keys.includes(e.key) || !root.current) return;
    const entries = Array.from(root.current.querySelectorAll<HTMLButtonElement>("button.graph-entry"));
    if (entries.length === 0) return;
    const at = entries.indexOf(document.activeElement as HTMLButtonElement);
    const next =
      e.key === "Home" ? 0 : e.key === "End" ? entries.length - 1 : e.key === "ArrowDown" ? Math.min(at + 1, entries.length - 1) : Math.max(at - 1, 0);
    e.preventDefault();
    entries[next].focus();
  };

  return (
    <div className="graph-list" ref={root} onKeyDown={onKeyDown} data-testid="graph-list">
      {SECTIONS.filter((s) => !hidden.includes(s.kind)).map((s) => {
        const nodes = graph.nodes.filter((n) => n.kind === s.kind).sort((a, b) => a.label.localeCompare(b.label));
        return (
          <section key={s.kind} aria-label={s.title}>
            <h2>{s.title}</h2>
            <ul>
              {nodes.map((n) => {
                const mine = links.get(n.id) ?? [];
                return (
                  <li key={n.id} data-testid="graph-list-item" data-id={n.id}>
                    <button
                      type="button"
                      className={`graph-entry${selected === n.id ? " on" : ""}`}
                      aria-current={selected === n.id ? "true" : undefined}
                      onClick={() => onSelect(n.id)}
                    >
                      <span className="graph-entry-name">{n.label}</span>
                      {n.subtitle && <span className="muted small"> — {n.subtitle}</span>}
                      {!n.alive && <span className="muted small"> (dead)</span>}
                    </button>
                    {mine.length > 0 ? (
                      <ul className="graph-links" aria-label={`${n.label}'s links`}>
                        {mine.map((l, i) => (
                          <li key={i} className={`graph-link graph-link-${l.kind}`}>
                            {l.text}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <p className="muted small graph-links">No links shown.</p>
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
