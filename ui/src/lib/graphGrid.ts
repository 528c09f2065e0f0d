// Where the characters and places linked to nothing go. A force-directed layout strings them
// out in rows where long names run into each other (and a long row shrinks the whole graph
// when it is fitted in view), so they sit in a grid of their own, beside or below the linked
// graph, each cell as wide as the longest name: shaped to fit the canvas at the largest zoom.
import type cytoscape from "cytoscape";

export interface Area {
  x1: number;
  y1: number;
  w: number;
  h: number;
}

/** Room between the linked graph and the grid, and between names in the grid. */
const APART = 60;
const GAP_X = 28;
const GAP_Y = 18;
/** The fit's padding on each side (as in GraphCanvas). */
const PADDING = 40;

/**
 * The grid for `count` cells of `cell` size: its columns and top-left corner, to the right of
 * or below `linked` (or alone), whichever lets the whole be shown largest in `view`.
 */
export function gridPlan(count: number, cell: { w: number; h: number }, linked: Area | null, view: { w: number; h: number }) {
  const room = { w: Math.max(view.w - 2 * PADDING, 1), h: Math.max(view.h - 2 * PADDING, 1) };
  let best = { cols: 1, x: 0, y: 0, zoom: -1 };
  for (let cols = 1; cols <= count; cols++) {
    const rows = Math.ceil(count / cols);
    const gw = cols * cell.w;
    const gh = rows * cell.h;
    const options = linked
      ? [
          { w: Math.max(linked.w, gw), h: linked.h + APART + gh, x: linked.x1 + Math.max(0, (linked.w - gw) / 2), y: linked.y1 + linked.h + APART },
          { w: linked.w + APART + gw, h: Math.max(linked.h, gh), x: linked.x1 + linked.w + APART, y: linked.y1 + Math.max(0, (linked.h - gh) / 2) },
        ]
      : [{ w: gw, h: gh, x: 0, y: 0 }];
    for (const o of options) {
      const zoom = Math.min(room.w / o.w, room.h / o.h);
      if (zoom > best.zoom) best = { cols, x: o.x, y: o.y, zoom };
    }
  }
  return best;
}

/** The nodes that have no edge at all; the layout of the rest leaves them to `placeLoneNodes`. */
export function loneNodes(cy: cytoscape.Core): cytoscape.NodeCollection {
  return cy.nodes().filter((n) => n.connectedEdges().length === 0);
}

/**
 * Puts `lone` in a grid by kind and name beside or below the other nodes, sized from the
 * widest name so that no two labels meet.
 */
export function placeLoneNodes(cy: cytoscape.Core, lone: cytoscape.NodeCollection, view: { w: number; h: number }) {
  if (lone.empty()) return;
  const byName = (a: cytoscape.NodeSingular, b: cytoscape.NodeSingular) =>
    String(a.data("kind")).localeCompare(String(b.data("kind"))) || String(a.data("label")).localeCompare(String(b.data("label")));
  const sorted: cytoscape.NodeSingular[] = [];
  lone.forEach((n) => void sorted.push(n));
  sorted.sort(byName);
  // Each node with its label: the label hangs below, so the box is not centred on the node.
  const boxes = sorted.map((n) => ({ n, bb: n.boundingBox({ includeLabels: true, includeOverlays: false }), at: n.position() }));
  const cell = {
    w: Math.max(...boxes.map((b) => b.bb.w)) + GAP_X,
    h: Math.max(...boxes.map((b) => b.bb.h)) + GAP_Y,
  };
  const rest = cy.nodes().difference(lone);
  const bb = rest.nonempty() ? rest.boundingBox({ includeLabels: true, includeOverlays: false }) : null;
  const plan = gridPlan(boxes.length, cell, bb && { x1: bb.x1, y1: bb.y1, w: bb.w, h: bb.h }, view);
  cy.batch(() =>
    boxes.forEach(({ n, bb: box, at }, i) => {
      const left = plan.x + (i % plan.cols) * cell.w;
      const top = plan.y + Math.floor(i / plan.cols) * cell.h;
      n.position({ x: left + cell.w / 2 + (at.x - (box.x1 + box.x2) / 2), y: top + (at.y - box.y1) });
    }),
  );
}
