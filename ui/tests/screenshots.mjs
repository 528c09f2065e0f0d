// Not a test: screenshots of every view (light and dark) through the mocked harness, for a
// look at the UI without the desktop app. Usage: node ui/tests/screenshots.mjs [out-dir]
import { mkdirSync } from "node:fs";
import path from "node:path";
import { openApp, setup } from "./support/harness.mjs";

const out = path.resolve(process.argv[2] ?? "ui-screenshots");
mkdirSync(out, { recursive: true });
const env = await setup();
const shot = async (name, scenario, act, opts) => {
  const app = await openApp(env, scenario, opts);
  await act(app.page);
  await app.page.waitForTimeout(300);
  await app.page.screenshot({ path: path.join(out, `${name}.png`) });
  if (app.problems.length) console.log(name, app.problems);
};
const nav = (id) => async (p) => { await p.getByTestId(`nav-${id}`).click(); };
await shot("library", { recent: [{ path: "/home/writer/Novels/salt-and-iron", title: "Salt and Iron", opened_at: "2025-11-20T10:00:00Z", missing: false }, { path: "/mnt/usb/old-draft", title: "Old Draft", opened_at: "2025-10-01T10:00:00Z", missing: true }] }, async (p) => { await p.getByTestId("new-novel").click(); await p.getByTestId("create-novel").click(); });
await shot("write-running", { novel: true, delayMs: 60 }, async (p) => { await p.getByTestId("steering-note").fill("Bring the watch closer."); await p.getByTestId("next-scene").click(); await p.waitForTimeout(1500); });
await shot("write-done", { novel: true }, async (p) => { await p.getByTestId("next-scene").click(); await p.getByTestId("committed-scene").waitFor(); });
await shot("write-failed", { novel: true, pendingFailure: true }, async () => {});
await shot("manuscript", { novel: true, scenes: 3 }, nav("manuscript"));
await shot("graph", { novel: true }, async (p) => { await p.getByTestId("nav-graph").click(); await p.waitForTimeout(500); const at = await p.evaluate(() => window.__novelCy.getElementById("C0").renderedPosition()); const box = await p.getByTestId("graph-canvas").boundingBox(); await p.mouse.click(box.x + at.x, box.y + at.y); await p.getByTestId("entity-panel").getByRole("heading", { name: "Tamsin Vale" }).waitFor(); });
await shot("graph-300", { novel: true, graphSize: 300 }, nav("graph"));
await shot("timeline", { novel: true, pendingFailure: true }, async (p) => { await p.getByTestId("nav-timeline").click(); await p.locator("details summary").first().click(); });
await shot("loops", { novel: true }, nav("loops"));
await shot("settings", { novel: true }, async (p) => { await p.getByTestId("nav-settings").click(); await p.getByTestId("provider-test").first().click(); await p.waitForTimeout(200); });
await shot("write-dark", { novel: true }, async (p) => { await p.getByTestId("next-scene").click(); await p.getByTestId("committed-scene").waitFor(); }, { colorScheme: "dark" });
await shot("manuscript-dark", { novel: true, scenes: 3 }, nav("manuscript"), { colorScheme: "dark" });
await shot("graph-dark", { novel: true }, nav("graph"), { colorScheme: "dark" });
await shot("help", { novel: true }, async (p) => { await p.keyboard.press("?"); });
await env.close();
console.log(`screenshots in ${out}`);
