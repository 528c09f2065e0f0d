// Tauri freezes Object.prototype (`freezePrototype: true`). Cytoscape 3.34 copies a
// `toString` onto its Selector prototype with Object.assign, which then throws ("Cannot assign
// to read only property 'toString'") and takes the Graph view down. This build step rewrites
// that one copy into Object.defineProperty, and fails the build if the code it expects moved
// (e.g. after a Cytoscape upgrade), so the problem cannot come back silently. The fcose
// layout's `layout-base` assigns `Point.prototype.toString` the same way: rewritten likewise.
import type { Plugin } from "vite";

const ASSIGN = `[parse$1, matching].forEach(function (p) {
  return extend(selfn, p);
});`;

const DEFINE = `[parse$1, matching].forEach(function (p) {
  Object.keys(p).forEach(function (k) {
    Object.defineProperty(selfn, k, { value: p[k], writable: true, configurable: true, enumerable: true });
  });
});`;

const POINT_ASSIGN = `Point.prototype.toString = function () {
  return new Point().constructor.name + "[x=" + this.x + ",y=" + this.y + "]";
};`;

const POINT_DEFINE = `Object.defineProperty(Point.prototype, "toString", { writable: true, configurable: true, value: function () {
  return new Point().constructor.name + "[x=" + this.x + ",y=" + this.y + "]";
} });`;

export function cytoscapeFrozenPrototype(): Plugin {
  return {
    name: "cytoscape-frozen-prototype",
    enforce: "pre",
    transform(code, id) {
      if (/[\\/]layout-base[\\/]layout-base\.js$/.test(id)) {
        if (!code.includes(POINT_ASSIGN)) {
          this.error("cytoscape-frozen-prototype: layout-base's Point.prototype.toString was not found; check fcose under Object.freeze(Object.prototype)");
        }
        return { code: code.replace(POINT_ASSIGN, POINT_DEFINE), map: null };
      }
      if (!/[\\/]cytoscape[\\/]dist[\\/]cytoscape\.esm\.m?js$/.test(id)) return null;
      if (!code.includes(ASSIGN)) {
        this.error("cytoscape-frozen-prototype: the Selector prototype copy was not found; check Cytoscape under Object.freeze(Object.prototype)");
      }
      return { code: code.replace(ASSIGN, DEFINE), map: null };
    },
  };
}
