// Graph: characters and places with who knows whom, ways between places and who is where;
// filters by kind, a search to find an entity, the details panel of the one selected, the
// writer's dragged positions kept per novel (with "Reset layout"), and a list view of the
// same data for keyboard and screen-reader users.
import { useCallback, useMemo, useState } from "react";
import { commands } from "../../bindings";
import { EmptyState } from "../../components/EmptyState";
import { BranchTag } from "../../components/BranchTag";
import { LoadError } from "../../components/LoadError";
import { call } from "../../lib/api";
import { plural } from "../../lib/format";
import type { GraphKind, Positions } from "../../lib/graph";
import { clearPositions, loadPositions, savePositions } from "../../lib/graphPositions";
import { useNovel } from "../../lib/novel";
import type { Theme } from "../../lib/theme";
import { useLoad } from "../../lib/useLoad";
import { useCodexLinks } from "../../lib/codexLink";
import { EntityPanel } from "./EntityPanel";
import { GraphCanvas } from "./GraphCanvas";
import { GraphFilters } from "./GraphFilters";
import { GraphList } from "./GraphList";
import "../../styles/graph.css";

export default function GraphView({ theme }: { theme: Theme }) {
  const codexLinks = useCodexLinks();
  const { overview, version } = useNovel();
  const graph = useLoad(`graph:${overview?.path}:${version}`, () => call(commands.storyGraph()));
  const [hidden, setHidden] = useState<GraphKind[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [layout, setLayout] = useState<{ state: "running" | "done"; name: string; nodes: number; edges: number }>({
    state: "running",
    name: "",
    nodes: 0,
    edges: 0,
  });
  const [query, setQuery] = useState("");
  const [mode, setMode] = useState<"graph" | "list">("graph");
  const path = overview?.path;
  const [saved, setSaved] = useState<{ path: string | undefined; positions: Positions }>(() => ({
    path,
    positions: loadPositions(path),
  }));
  const [layoutKey, setLayoutKey] = useState(0);
  // Another novel opened: its own positions (set during render, React's pattern for derived state).
  if (saved.path !== path) setSaved({ path, positions: loadPositions(path) });

  const onDragged = useCallback(
    (positions: Positions) => {
      savePositions(path, positions);
      setSaved({ path, positions });
    },
    [path],
  );

  const resetLayout = () => {
    clearPositions(path);
    setSaved({ path, positions: {} });
    setLayoutKey((k) => k + 1);
  };

  const counts = useMemo(() => {
    const c: Record<GraphKind, number> = { character: 0, location: 0, relationship: 0, connection: 0, presence: 0 };
    for (const n of graph.data?.nodes ?? []) c[n.kind] += 1;
    for (const e of graph.data?.edges ?? []) c[e.kind] += 1;
    return c;
  }, [graph.data]);

  const names = useMemo(() => new Map((graph.data?.nodes ?? []).map((n) => [n.id, n.label])), [graph.data]);

  const onLayout = useCallback((state: "running" | "done", name: string, visible: { nodes: number; edges: number }) => {
    setLayout({ state, name, ...visible });
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
  const hasSaved = Object.keys(saved.positions).length > 0;

  return (
    <div className={`graph-view${selected ? " with-panel" : ""}`}>
      <div className="graph-toolbar">
        <div className="segmented graph-mode" role="group" aria-label="Show as">
          {(["graph", "list"] as const).map((m) => (
            <button
              key={m}
              type="button"
              className={mode === m ? "on" : ""}
              aria-pressed={mode === m}
              data-testid={`graph-mode-${m}`}
              onClick={() => setMode(m)}
            >
              {m === "graph" ? "Graph" : "List"}
            </button>
          ))}
        </div>
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
            <ul className="graph-search-results" role="listbox">
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
        data-layout-name={layout.name}
        data-visible-nodes={layout.nodes}
        data-visible-edges={layout.edges}
      >
        <span data-testid="graph-counts">
          {plural(counts.character, "character")} · {plural(counts.location, "location")} · {plural(links, "link")}
        </span>{" "}
        <BranchTag />
        {mode === "graph" && (
          <button
            type="button"
            className="btn btn-quiet graph-reset"
            data-testid="graph-reset-layout"
            disabled={!hasSaved}
            title={hasSaved ? "Forget the positions you dragged and lay the graph out afresh" : "Drag a node to keep it where you put it"}
            onClick={resetLayout}
          >
            Reset layout
          </button>
        )}
      </p>
      <div className="graph-body">
        {mode === "graph" ? (
          <GraphCanvas
            graph={graph.data}
            hidden={hidden}
            theme={theme}
            selected={selected}
            onSelect={setSelected}
            onLayout={onLayout}
            saved={saved.positions}
            layoutKey={layoutKey}
            onDragged={onDragged}
          />
        ) : (
          <GraphList graph={graph.data} hidden={hidden} selected={selected} onSelect={setSelected} />
        )}
        {selected && <EntityPanel id={selected} version={version} names={names} onClose={() => setSelected(null)} onOpenCodex={codexLinks?.openCodex} />}
      </div>
    </div>
  );
}
