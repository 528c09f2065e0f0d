// Compile-time constants defined by the Vite configs (true only in the test harness build).
declare const __TEST_HOOKS__: boolean;

// The fcose layout ships no types; it is a plain Cytoscape extension.
declare module "cytoscape-fcose" {
  const fcose: import("cytoscape").Ext;
  export default fcose;
}
