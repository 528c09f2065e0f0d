// Makes the README's screenshots from the real app under Xvfb: a five-scene novel written by
// the `novel` CLI against the OpenAI-format test server (scripted with this folder's plans,
// extractions and prose), opened in the desktop app, which then writes a sixth scene live.
// Run: xvfb-run -a --server-args="-screen 0 1400x900x24" node tests/e2e/showcase/screenshots.mjs
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { shoot } from "./shoot.mjs";
import { launchApp, click, byTestId, waitForText } from "../support/app.mjs";
import { ROOT, EXTRACTION, PLAN, startServer, providerConfig } from "../support/server.mjs";

const HERE = import.meta.dirname;
const NOVEL = path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "debug/novel");
const read = (f) => readFileSync(path.join(HERE, f), "utf8");
const texts = (f) => JSON.parse(read(f)).map((v) => ({ type: "text", content: JSON.stringify(v) }));


const server = await startServer({
  rules: [
    { when_contains: EXTRACTION, replies: texts("extractions.json") },
    { when_contains: PLAN, replies: texts("plans.json") },
    { replies: [{ type: "text", content: read("prose.txt"), chunk_delay_ms: 40 }] },
  ],
});
const config = providerConfig(server.baseUrl);
const dir = path.join(mkdtempSync(path.join(tmpdir(), "novel-showcase-")), "salt-and-iron");
const env = { ...process.env, NOVEL_AGENT_CONFIG_DIR: config };
execFileSync(NOVEL, ["new", dir, "--seed", path.join(HERE, "seed.toml")], { env, stdio: "inherit" });
execFileSync(NOVEL, ["-C", dir, "run", "--n", "4"], { env, stdio: "inherit" });
writeFileSync(
  path.join(config, "recent.json"),
  JSON.stringify([{ path: dir, title: "Salt and Iron", opened_at: new Date().toISOString(), missing: false }]),
);

const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: config });
const b = app.browser;
try {
  await click(b, "nav-library");
  await click(b, "recent-item");
  await waitForText(b, "novel-title", (t) => t.includes("Salt and Iron"));
  await click(b, "nav-write");
  await (await byTestId(b, "steering-note")).setValue("Let the storm and the watch arrive together.");
  await click(b, "next-scene");
  await waitForText(b, "live-prose", (t) => t.length > 700, 60000);
  shoot("write");
  await waitForText(b, "committed-scene", (t) => t.trim().length > 0, 90000);
  await click(b, "nav-graph");
  await waitForText(b, "graph-stats", (t) => /5 characters/.test(t));
  await sleep(1500); // let the layout settle for the picture
  shoot("graph");
  await click(b, "nav-timeline");
  await sleep(800);
  shoot("timeline");
  await click(b, "nav-manuscript");
  await sleep(800);
  shoot("manuscript");
} finally {
  await app.close();
  await server.stop();
}
