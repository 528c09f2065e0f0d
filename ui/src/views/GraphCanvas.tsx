// The Cytoscape canvas: builds the graph when the data changes, restyles on theme change,
// hides filtered kinds, and reports taps on nodes and relationship edges.
import { useEffect, useRef } from "react";
import cytoscape from "cytoscape";
import { elements, layoutFor, stylesheet } from "../lib/graph";
import type { GraphKind } from "../lib/graph";
import type { Theme } from "../lib/theme";
import type { Graph } from "../lib/types";

interface Props {
  graph: Graph;
  hidden: GraphKind[];
  theme: Theme;
  selected: string | null;
  onSelect: (id: string | null) => void;
  onLayout: (state: "running" | "done", visible: { nodes: number; edges: number }) => void;
}

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

export function GraphCanvas({ graph, hidden, theme, selected, onSelect, onLayout }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const cyRef = useRef<cytoscape.Core | null>(null);
  const layoutState = useRef<"running" | "done">("running");
  const callbacks = useRef({ onSelect, onLayout });
  useEffect(() => {
    callbacks.current = { onSelect, onLayout };
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
    layoutState.current = "running";
    callbacks.current.onLayout("running", visibleCounts(cy));
    const layout = cy.layout(layoutFor(graph.nodes.length));
    layout.one("layoutstop", () => {
      fit(cy);
      layoutState.current = "done";
      callbacks.current.onLayout("done", visibleCounts(cy));
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
  }, [graph]);

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
    callbacks.current.onLayout(layoutState.current, visibleCounts(cy));
  }, [hidden, graph]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.elements(":selected").unselect();
    if (selected) cy.getElementById(selected).select();
  }, [selected, graph]);

  return <div className="graph-canvas" ref={container} data-testid="graph-canvas" aria-label="Story graph" role="img" />;
}
