// Makes the README's screenshots of the Manuscript's shaping controls and of the Codex from the
// real app under Xvfb: this folder's five-scene novel written by the `novel` CLI against the
// test server, opened in the app; a scene's menu open over the reader (names in the prose link
// to the codex), then Tamsin Vale's codex page in the Bible.
// Run: npm run --silent app:build && cargo build -p novel-cli &&
//      xvfb-run -a --server-args="-screen 0 1400x900x24" node tests/e2e/showcase/codex-screenshots.mjs
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
const texts = (values) => values.map((v) => ({ type: "text", content: JSON.stringify(v) }));

const server = await startServer({
  rules: [
    { when_contains: EXTRACTION, replies: texts(JSON.parse(read("extractions.json"))) },
    { when_contains: PLAN, replies: texts(JSON.parse(read("plans.json"))) },
    { replies: [{ type: "text", content: read("prose.txt") }] },
  ],
});
const config = providerConfig(server.baseUrl);
const dir = path.join(mkdtempSync(path.join(tmpdir(), "novel-showcase-")), "salt-and-iron");
const env = { ...process.env, NOVEL_AGENT_CONFIG_DIR: config };
execFileSync(NOVEL, ["new", dir, "--seed", path.join(HERE, "seed.toml")], { env, stdio: "inherit" });
execFileSync(NOVEL, ["-C", dir, "run", "--n", "5"], { env, stdio: "inherit" });
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
  await (await byTestId(b, "toast")).waitForExist({ reverse: true, timeout: 10000 }); // the "Opened" toast gone
  await click(b, "nav-manuscript");
  const second = await b.$('[data-testid="scene"][data-tick="2"]');
  await second.waitForExist();
  // Scene 2 at the top, with "Add a scene here" above it in view.
  await b.execute(() => {
    const scene = document.querySelector('[data-testid="scene"][data-tick="2"]');
    scene.scrollIntoView({ block: "start" });
    let box = scene.parentElement;
    while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement;
    box?.scrollBy(0, -110);
  });
  await (await second.$('[data-testid="scene-menu"]')).click();
  await sleep(500);
  shoot("manuscript-shape");
  await b.keys(["Escape"]);
  await click(b, "nav-bible");
  await click(b, "bible-tab-lore");
  const tamsin = await b.$('[data-testid="codex-item"][data-id="C0"]');
  await tamsin.waitForExist();
  await tamsin.click();
  await (await byTestId(b, "codex-page")).waitForExist();
  await sleep(800);
  shoot("codex");
} finally {
  await app.close();
  await server.stop();
}
