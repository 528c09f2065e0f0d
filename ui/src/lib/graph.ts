// The story graph for Cytoscape: elements from `storyGraph()` with edges named in plain words,
// the stylesheet (colours from the theme's CSS variables; labels of a large graph only when
// zoomed in, hovered or selected), the filterable kinds, and the layout by size: force-directed
// `cose` for small graphs, `fcose` (fast, avoids overlap) for large ones, the writer's saved
// positions as a preset when every node has one.
import type cytoscape from "cytoscape";
import type { EdgeKind, NodeKind } from "../bindings";
import type { Graph } from "./types";

export type GraphKind = NodeKind | EdgeKind;

export const KINDS: { kind: GraphKind; label: string }[] = [
  { kind: "character", label: "Characters" },
  { kind: "location", label: "Places" },
  { kind: "relationship", label: "Who knows whom" },
  { kind: "connection", label: "Ways between places" },
  { kind: "presence", label: "Who is where" },
];

/** Above this many nodes plain `cose` is too slow to feel instant: `fcose` takes over. */
export const COSE_LIMIT = 80;

/** Above this many nodes labels show only when zoomed in to `LABEL_ZOOM`, or on hover/selection. */
export const LABEL_NODE_LIMIT = 40;
export const LABEL_ZOOM = 0.9;

/** Node names' size at zoom 1, and the smallest size on screen a hovered or selected name gets. */
export const LABEL_FONT = 12;
export const FOCUS_FONT = 13;

/** The font size (in graph units) that shows a hovered or selected node's name at `FOCUS_FONT`
 *  pixels or more on screen, whatever the zoom. */
export function focusFontSize(zoom: number): number {
  return Math.max(LABEL_FONT, FOCUS_FONT / Math.max(zoom, 0.05));
}

/** True when the graph is large enough and zoomed out far enough that labels would pile up. */
export function labelsHidden(nodeCount: number, zoom: number): boolean {
  return nodeCount > LABEL_NODE_LIMIT && zoom < LABEL_ZOOM;
}

/** Words for a stored kind such as "old_friend" or "rival-in-love". */
function words(text: string): string {
  return text.replace(/[_-]+/g, " ").replace(/\s+/g, " ").trim();
}

/** An edge's name on the canvas, in plain words: where someone is, how two people stand, a way. */
export function edgeLabel(e: Pick<Graph["edges"][number], "kind" | "label">): string {
  switch (e.kind) {
    case "presence":
      return "is in";
    case "relationship":
      return words(e.label) || "knows";
    case "connection":
      return words(e.label) || "leads to";
  }
}

export interface Link {
  /** The node at the other end. */
  other: string;
  otherLabel: string;
  kind: Graph["edges"][number]["kind"];
  /** The connection as a sentence fragment, read after the node's name. */
  text: string;
}

/**
 * Every node's links as plain text, for the list view, leaving out hidden kinds (of edge, or
 * of the node at the other end) the same way the canvas does.
 */
export function linksByNode(graph: Graph, hidden: GraphKind[]): Map<string, Link[]> {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const links = new Map<string, Link[]>(graph.nodes.map((n) => [n.id, []]));
  const add = (at: string, other: string, kind: Link["kind"], text: string) => {
    const o = nodes.get(other);
    if (o) links.get(at)?.push({ other, otherLabel: o.label, kind, text });
  };
  for (const e of graph.edges) {
    const a = nodes.get(e.source);
    const b = nodes.get(e.target);
    if (!a || !b || hidden.includes(e.kind) || hidden.includes(a.kind) || hidden.includes(b.kind)) continue;
    const how = edgeLabel(e);
    if (e.kind === "presence") {
      add(a.id, b.id, e.kind, `is in ${b.label}`);
      add(b.id, a.id, e.kind, `${a.label} is here`);
    } else if (e.kind === "relationship") {
      add(a.id, b.id, e.kind, `knows ${b.label}: ${how}`);
      add(b.id, a.id, e.kind, `knows ${a.label}: ${how}`);
    } else {
      const note = how === "leads to" ? "" : ` (${how})`;
      add(a.id, b.id, e.kind, `leads to ${b.label}${note}`);
      add(b.id, a.id, e.kind, `leads to ${a.label}${note}`);
    }
  }
  return links;
}

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
        data: { id: e.id, source: e.source, target: e.target, label: edgeLabel(e), kind: e.kind, intensity: e.intensity ?? 1 },
        classes: e.kind,
      })),
  ];
}

export type Positions = Record<string, { x: number; y: number }>;

/**
 * The layout: the writer's saved positions as they are when every node has one; otherwise a
 * force-directed layout, with any saved nodes held where the writer put them.
 */
export function layoutFor(nodeCount: number, saved: Positions = {}, ids: string[] = []): cytoscape.LayoutOptions {
  const kept = ids.filter((id) => saved[id]);
  if (ids.length > 0 && kept.length === ids.length) {
    return { name: "preset", positions: (node: cytoscape.NodeSingular) => saved[node.id()], fit: true, padding: 40 } as cytoscape.LayoutOptions;
  }
  if (nodeCount > COSE_LIMIT || kept.length > 0) {
    return {
      name: "fcose",
      quality: "default",
      animate: false,
      randomize: true,
      fit: true,
      padding: 30,
      nodeDimensionsIncludeLabels: true,
      nodeSeparation: 90,
      nodeRepulsion: () => 20000,
      idealEdgeLength: () => 100,
      packComponents: true,
      fixedNodeConstraint: kept.length > 0 ? kept.map((nodeId) => ({ nodeId, position: saved[nodeId] })) : undefined,
    } as cytoscape.LayoutOptions;
  }
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

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Pushes apart boxes (centre x/y, width/height) that overlap, with `gap` between them: the
 * force-directed layouts leave a few nodes touching in a large graph. Each pass moves both of
 * an overlapping pair half the way along the shallower axis; stops when nothing overlaps.
 */
export function separate(boxes: Box[], gap = 4, passes = 30): Box[] {
  const out = boxes.map((b) => ({ ...b }));
  for (let pass = 0; pass < passes; pass++) {
    let moved = false;
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i];
        const b = out[j];
        const dx = b.x - a.x;
        const dy = b.y - a.y;
        const ox = (a.w + b.w) / 2 + gap - Math.abs(dx);
        const oy = (a.h + b.h) / 2 + gap - Math.abs(dy);
        if (ox <= 0 || oy <= 0) continue;
        moved = true;
        // Identical centres: split them by index so the push has a direction.
        if (ox < oy) {
          const push = (ox / 2) * (dx > 0 || (dx === 0 && i < j) ? 1 : -1);
          a.x -= push;
          b.x += push;
        } else {
          const push = (oy / 2) * (dy > 0 || (dy === 0 && i < j) ? 1 : -1);
          a.y -= push;
          b.y += push;
        }
      }
    }
    if (!moved) break;
  }
  return out;
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
        "font-size": LABEL_FONT,
        "font-family": "system-ui, sans-serif",
        "text-valign": "bottom",
        "text-margin-y": 5,
        "text-outline-color": surface,
        "text-outline-width": 2,
        // Drawn down to half size (Cytoscape rounds the zoom to a power of two for this test):
        // a normal graph fitted in view keeps its names.
        "min-zoomed-font-size": 5,
        "border-width": 2,
        "border-color": surface,
      },
    },
    { selector: "node.character", style: { shape: "ellipse", width: 30, height: 30, "background-color": character } },
    { selector: "node.location", style: { shape: "round-rectangle", width: 38, height: 26, "background-color": location } },
    { selector: "node.dead", style: { opacity: 0.55, "border-style": "dashed", "border-color": muted } },
    { selector: "node:selected", style: { "border-width": 4, "border-color": accent } },
    // The hovered and selected node's name: always drawn, on top, on a backing that keeps it
    // legible over its neighbours' (its size follows the zoom, see focusFontSize).
    {
      selector: "node.hover, node:selected",
      style: {
        "min-zoomed-font-size": 0,
        "z-index": 10,
        "text-background-color": surface,
        "text-background-opacity": 0.9,
        "text-background-padding": "2px",
        "text-background-shape": "roundrectangle",
      },
    },
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
    // A large graph zoomed out: no labels, except the node under the pointer and the selected one.
    { selector: ".quiet", style: { "text-opacity": 0 } },
    { selector: "node.quiet.hover, node.quiet:selected", style: { "text-opacity": 1 } },
    { selector: ".hidden", style: { display: "none" } },
  ];
}
