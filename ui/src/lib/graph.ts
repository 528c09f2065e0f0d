// The story graph for Cytoscape: elements from `storyGraph()`, the stylesheet (colours from
// the theme's CSS variables), the filterable kinds, and the layout by size: force-directed
// `cose` for small graphs, `concentric` by degree (near linear) for large ones.
import type cytoscape from "cytoscape";
import type { EdgeKind, NodeKind } from "../bindings";
import type { Graph } from "./types";

export type GraphKind = NodeKind | EdgeKind;

export const KINDS: { kind: GraphKind; label: string }[] = [
  { kind: "character", label: "Characters" },
  { kind: "location", label: "Locations" },
  { kind: "relationship", label: "Relationships" },
  { kind: "connection", label: "Connections" },
  { kind: "presence", label: "Presence" },
];

/** Above this many nodes the force-directed layout is too slow to feel instant. */
export const COSE_LIMIT = 80;

export function elements(graph: Graph): cytoscape.ElementDefinition[] {
  const ids = new Set(graph.nodes.map((n) => n.id));
  return [
    ...graph.nodes.map((n) => ({
      group: "nodes" as const,
      data: { id: n.id, label: n.label, kind: n.kind, subtitle: n.subtitle },
      classes: n.alive ? n.kind : `${n.kind} dead`,
    })),
    ...graph.edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e) => ({
        group: "edges" as const,
        data: { id: e.id, source: e.source, target: e.target, label: e.label, kind: e.kind, intensity: e.intensity ?? 1 },
        classes: e.kind,
      })),
  ];
}

export function layoutFor(nodeCount: number): cytoscape.LayoutOptions {
  if (nodeCount <= COSE_LIMIT) {
    return {
      name: "cose",
      animate: false,
      randomize: true,
      fit: true,
      padding: 40,
      nodeRepulsion: () => 9000,
      idealEdgeLength: () => 110,
      numIter: 1000,
      nodeDimensionsIncludeLabels: true,
    };
  }
  return {
    name: "concentric",
    animate: false,
    fit: true,
    padding: 30,
    avoidOverlap: true,
    minNodeSpacing: 14,
    concentric: (node) => node.degree(false),
    levelWidth: () => 3,
  };
}

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

export function stylesheet(): cytoscape.StylesheetJson {
  const ink = cssVar("--ink", "#1f2328");
  const surface = cssVar("--surface", "#ffffff");
  const muted = cssVar("--muted", "#6b6f76");
  const character = cssVar("--graph-character", "#4a6fa5");
  const location = cssVar("--graph-location", "#5f8f6f");
  const relationship = cssVar("--graph-relationship", "#b5654a");
  const line = cssVar("--graph-line", "#b8b2a7");
  const accent = cssVar("--accent", "#35608f");
  return [
    {
      selector: "node",
      style: {
        label: "data(label)",
        color: ink,
        "font-size": 11,
        "font-family": "system-ui, sans-serif",
        "text-valign": "bottom",
        "text-margin-y": 5,
        "text-outline-color": surface,
        "text-outline-width": 2,
        "min-zoomed-font-size": 7,
        "border-width": 2,
        "border-color": surface,
      },
    },
    { selector: "node.character", style: { shape: "ellipse", width: 30, height: 30, "background-color": character } },
    { selector: "node.location", style: { shape: "round-rectangle", width: 38, height: 26, "background-color": location } },
    { selector: "node.dead", style: { opacity: 0.55, "border-style": "dashed", "border-color": muted } },
    { selector: "node:selected", style: { "border-width": 4, "border-color": accent } },
    {
      selector: "edge",
      style: {
        width: 1.5,
        "line-color": line,
        "curve-style": "bezier",
        label: "data(label)",
        "font-size": 9,
        color: muted,
        "text-rotation": "autorotate",
        "text-outline-color": surface,
        "text-outline-width": 2,
        "min-zoomed-font-size": 9,
      },
    },
    {
      selector: "edge.relationship",
      style: { "line-color": relationship, width: "mapData(intensity, 1, 10, 1, 7)", opacity: 0.85 },
    },
    { selector: "edge.connection", style: { "line-style": "dashed", "line-color": line, width: 2 } },
    {
      selector: "edge.presence",
      style: {
        "line-style": "dotted",
        "line-color": character,
        opacity: 0.6,
        "target-arrow-shape": "triangle",
        "target-arrow-color": character,
        "arrow-scale": 0.7,
      },
    },
    { selector: "edge:selected", style: { "line-color": accent, "target-arrow-color": accent, opacity: 1 } },
    { selector: ".hidden", style: { display: "none" } },
  ];
}
