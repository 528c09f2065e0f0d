// Tauri freezes Object.prototype (`freezePrototype: true`). Cytoscape 3.34 copies a
// `toString` onto its Selector prototype with Object.assign, which then throws ("Cannot assign
// to read only property 'toString'") and takes the Graph view down. This build step rewrites
// that one copy into Object.defineProperty, and fails the build if the code it expects moved
// (e.g. after a Cytoscape upgrade), so the problem cannot come back silently.
import type { Plugin } from "vite";

const ASSIGN = `[parse$1, matching].forEach(function (p) {
  return extend(selfn, p);
});`;

const DEFINE = `[parse$1, matching].forEach(function (p) {
  Object.keys(p).forEach(function (k) {
    Object.defineProperty(selfn, k, { value: p[k], writable: true, configurable: true, enumerable: true });
  });
});`;

export function cytoscapeFrozenPrototype(): Plugin {
  return {
    name: "cytoscape-frozen-prototype",
    enforce: "pre",
    transform(code, id) {
      if (!/[\\/]cytoscape[\\/]dist[\\/]cytoscape\.esm\.m?js$/.test(id)) return null;
      if (!code.includes(ASSIGN)) {
        this.error("cytoscape-frozen-prototype: the Selector prototype copy was not found; check Cytoscape under Object.freeze(Object.prototype)");
      }
      return { code: code.replace(ASSIGN, DEFINE), map: null };
    },
  };
}
