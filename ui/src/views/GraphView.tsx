// Graph: characters and locations with relationships, connections and presence; filters by
// kind, a search to find an entity, and the details panel of the one selected.
import { useCallback, useMemo, useState } from "react";
import { commands } from "../bindings";
import { EmptyState } from "../components/EmptyState";
import { BranchTag } from "../components/BranchTag";
import { LoadError } from "../components/LoadError";
import { call } from "../lib/api";
import { plural } from "../lib/format";
import { layoutFor } from "../lib/graph";
import type { GraphKind } from "../lib/graph";
import { useNovel } from "../lib/novel";
import type { Theme } from "../lib/theme";
import { useLoad } from "../lib/useLoad";
import { EntityPanel } from "./EntityPanel";
import { GraphCanvas } from "./GraphCanvas";
import { GraphFilters } from "./GraphFilters";
import "../styles/graph.css";

export default function GraphView({ theme }: { theme: Theme }) {
  const { overview, version } = useNovel();
  const graph = useLoad(`graph:${overview?.path}:${version}`, () => call(commands.storyGraph()));
  const [hidden, setHidden] = useState<GraphKind[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [layout, setLayout] = useState<{ state: "running" | "done"; nodes: number; edges: number }>({
    state: "running",
    nodes: 0,
    edges: 0,
  });
  const [query, setQuery] = useState("");

  const counts = useMemo(() => {
    const c: Record<GraphKind, number> = { character: 0, location: 0, relationship: 0, connection: 0, presence: 0 };
    for (const n of graph.data?.nodes ?? []) c[n.kind] += 1;
    for (const e of graph.data?.edges ?? []) c[e.kind] += 1;
    return c;
  }, [graph.data]);

  const names = useMemo(() => new Map((graph.data?.nodes ?? []).map((n) => [n.id, n.label])), [graph.data]);

  const onLayout = useCallback((state: "running" | "done", visible: { nodes: number; edges: number }) => {
    setLayout({ state, ...visible });
  }, []);

  const toggle = (kind: GraphKind) => setHidden((h) => (h.includes(kind) ? h.filter((k) => k !== kind) : [...h, kind]));

  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q || !graph.data) return [];
    return graph.data.nodes.filter((n) => n.label.toLowerCase().includes(q)).slice(0, 8);
  }, [query, graph.data]);

  if (graph.error !== undefined && !graph.data) return <LoadError error={graph.error} onRetry={graph.reload} />;
  if (!graph.data) return <p className="loading">Loading the graph…</p>;
  if (graph.data.nodes.length === 0) {
    return <EmptyState title="Nobody here yet">Characters and places appear as the story introduces them.</EmptyState>;
  }
  const links = graph.data.edges.length;

  return (
    <div className={`graph-view${selected ? " with-panel" : ""}`}>
      <div className="graph-toolbar">
        <GraphFilters counts={counts} hidden={hidden} onToggle={toggle} />
        <div className="graph-search">
          <input
            type="search"
            placeholder="Find a character or place"
            aria-label="Find a character or place"
            data-testid="graph-search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          {matches.length > 0 && (
            <ul className="search-results" role="listbox">
              {matches.map((n) => (
                <li key={n.id}>
                  <button
                    type="button"
                    data-testid="graph-search-result"
                    onClick={() => {
                      setSelected(n.id);
                      setQuery("");
                    }}
                  >
                    {n.label} <span className="muted small">{n.kind}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <p
        className="graph-stats"
        data-testid="graph-stats"
        data-layout={layout.state}
        data-layout-name={layoutFor(graph.data.nodes.length).name}
        data-visible-nodes={layout.nodes}
        data-visible-edges={layout.edges}
      >
        <span data-testid="graph-counts">
          {plural(counts.character, "character")} · {plural(counts.location, "location")} · {plural(links, "link")}
        </span>{" "}
        <BranchTag />
      </p>
      <div className="graph-body">
        <GraphCanvas
          graph={graph.data}
          hidden={hidden}
          theme={theme}
          selected={selected}
          onSelect={setSelected}
          onLayout={onLayout}
        />
        {selected && <EntityPanel id={selected} version={version} names={names} onClose={() => setSelected(null)} />}
      </div>
    </div>
  );
}
