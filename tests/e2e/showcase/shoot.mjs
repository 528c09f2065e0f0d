// Saving a README screenshot from the Xvfb screen the showcase scripts run the app on.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../support/server.mjs";

const OUT = path.join(ROOT, "docs/screenshots");

/** The whole X screen, cropped to the app window (no window manager: it sits at 0,0), written
 *  to docs/screenshots/<name>.png. */
export function shoot(name) {
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.png`);
  execFileSync("import", ["-window", "root", "-crop", "1280x840+0+0", "+repage", file]);
  console.log(`wrote ${path.relative(ROOT, file)}`);
}
