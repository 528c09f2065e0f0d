// The Cytoscape canvas: builds the graph when the data changes (or the layout is reset), puts
// a small graph's unlinked nodes in a grid, restyles on theme change, hides filtered kinds,
// quiets labels of a large graph when zoomed out (the hovered and selected node's name stays
// readable), reports taps on nodes and relationship edges, and hands back positions after a drag.
import { useEffect, useRef } from "react";
import cytoscape from "cytoscape";
import fcose from "cytoscape-fcose";
import { elements, focusFontSize, labelsHidden, layoutFor, separate, stylesheet } from "../../lib/graph";
import { loneNodes, placeLoneNodes } from "../../lib/graphGrid";
import type { GraphKind, Positions } from "../../lib/graph";
import type { Theme } from "../../lib/theme";
import type { Graph } from "../../lib/types";

interface Props {
  graph: Graph;
  hidden: GraphKind[];
  theme: Theme;
  selected: string | null;
  onSelect: (id: string | null) => void;
  onLayout: (state: "running" | "done", name: string, visible: { nodes: number; edges: number }) => void;
  /** Positions the writer left; read when the graph is built. */
  saved: Positions;
  /** Bumped by "Reset layout" to lay the graph out afresh. */
  layoutKey: number;
  /** Every node's position after the writer drags one. */
  onDragged: (positions: Positions) => void;
}

cytoscape.use(fcose);

/** Fits the graph in view without blowing a small one up past a comfortable size. */
function fit(cy: cytoscape.Core) {
  cy.fit(undefined, 40);
  if (cy.zoom() > 1.4) {
    cy.zoom(1.4);
    cy.center();
  }
}

declare global {
  interface Window {
    __novelCy?: cytoscape.Core;
  }
}

/** What the canvas shows, from the computed styles (`:visible` only updates on the next frame). */
function visibleCounts(cy: cytoscape.Core) {
  const shown = (e: cytoscape.SingularElementArgument) => e.style("display") !== "none";
  const nodes = cy.nodes().filter(shown).length;
  const edges = cy.edges().filter((e) => shown(e) && shown(e.source()) && shown(e.target())).length;
  return { nodes, edges };
}

/** Nudges apart the few nodes a force-directed layout of a large graph leaves touching. */
function unoverlap(cy: cytoscape.Core) {
  const nodes = cy.nodes();
  const boxes = nodes.map((n) => {
    const p = n.position();
    return { x: p.x, y: p.y, w: n.outerWidth(), h: n.outerHeight() };
  });
  const apart = separate(boxes, 4);
  cy.batch(() => nodes.forEach((n, i) => void n.position({ x: apart[i].x, y: apart[i].y })));
}

export function GraphCanvas({ graph, hidden, theme, selected, onSelect, onLayout, saved, layoutKey, onDragged }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const cyRef = useRef<cytoscape.Core | null>(null);
  const layoutState = useRef<"running" | "done">("running");
  const layoutName = useRef("");
  const callbacks = useRef({ onSelect, onLayout, onDragged, saved });
  useEffect(() => {
    callbacks.current = { onSelect, onLayout, onDragged, saved };
  });

  useEffect(() => {
    if (!container.current) return;
    const cy = cytoscape({
      container: container.current,
      elements: elements(graph),
      style: stylesheet(),
      layout: { name: "preset" },
      minZoom: 0.1,
      maxZoom: 3,
      wheelSensitivity: 0.3,
      boxSelectionEnabled: false,
      selectionType: "single",
      textureOnViewport: graph.nodes.length > 150,
      hideEdgesOnViewport: graph.nodes.length > 150,
      pixelRatio: graph.nodes.length > 150 ? 1 : "auto",
    });
    cyRef.current = cy;
    if (__TEST_HOOKS__) window.__novelCy = cy;
    cy.on("tap", "node, edge.relationship", (e) => callbacks.current.onSelect(e.target.id()));
    cy.on("tap", (e) => {
      if (e.target === cy) callbacks.current.onSelect(null);
    });
    // Labels follow the zoom: a large graph zoomed out shows them on hover and selection only.
    let quiet = false;
    const quietLabels = () => {
      const next = labelsHidden(graph.nodes.length, cy.zoom());
      if (next === quiet) return;
      quiet = next;
      if (quiet) cy.elements().addClass("quiet");
      else cy.elements().removeClass("quiet");
    };
    // The node under the pointer and the selected one keep a readable name at any zoom: their
    // label grows as the graph shrinks (a bypass on those one or two nodes only).
    let focused = cy.nodes(".hover, :selected");
    const focusLabels = () => {
      const now = cy.nodes(".hover, :selected");
      const size = focusFontSize(cy.zoom());
      cy.batch(() => {
        focused.difference(now).removeStyle("font-size");
        now.style("font-size", size);
      });
      focused = now;
    };
    cy.on("zoom", () => {
      quietLabels();
      focusLabels();
    });
    cy.on("select unselect", "node", focusLabels);
    cy.on("mouseover", "node", (e) => {
      e.target.addClass("hover");
      focusLabels();
    });
    cy.on("mouseout", "node", (e) => {
      e.target.removeClass("hover");
      focusLabels();
    });
    cy.on("dragfree", "node", () => {
      const positions: Positions = {};
      cy.nodes().forEach((n) => {
        const p = n.position();
        positions[n.id()] = { x: p.x, y: p.y };
      });
      callbacks.current.onDragged(positions);
    });
    const options = layoutFor(graph.nodes.length, callbacks.current.saved, graph.nodes.map((n) => n.id));
    layoutState.current = "running";
    layoutName.current = options.name;
    callbacks.current.onLayout("running", options.name, visibleCounts(cy));
    // A small graph's unlinked nodes go in a grid of their own once the rest is laid out.
    const lone = options.name === "cose" ? loneNodes(cy) : cy.collection();
    const linked = cy.elements().difference(lone);
    const layout = linked.nonempty() ? linked.layout(options) : cy.collection().layout({ name: "preset" });
    layout.one("layoutstop", () => {
      if (options.name === "fcose") unoverlap(cy);
      placeLoneNodes(cy, lone, { w: cy.width(), h: cy.height() });
      fit(cy);
      quietLabels();
      layoutState.current = "done";
      callbacks.current.onLayout("done", options.name, visibleCounts(cy));
    });
    layout.run();
    // The details panel opening or the window resizing changes the canvas: fit it again.
    let frame = 0;
    const resized = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        cy.resize();
        fit(cy);
      });
    });
    resized.observe(container.current);
    return () => {
      resized.disconnect();
      cancelAnimationFrame(frame);
      layout.stop();
      cy.destroy();
      cyRef.current = null;
      if (__TEST_HOOKS__ && window.__novelCy === cy) delete window.__novelCy;
    };
  }, [graph, layoutKey]);

  useEffect(() => {
    cyRef.current?.style(stylesheet());
  }, [theme]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.batch(() => {
      cy.elements().removeClass("hidden");
      for (const kind of hidden) cy.elements(`.${kind}`).addClass("hidden");
    });
    callbacks.current.onLayout(layoutState.current, layoutName.current, visibleCounts(cy));
  }, [hidden, graph, layoutKey]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.elements(":selected").unselect();
    if (selected) cy.getElementById(selected).select();
  }, [selected, graph, layoutKey]);

  return <div className="graph-canvas" ref={container} data-testid="graph-canvas" aria-label="Story graph" role="img" />;
}
