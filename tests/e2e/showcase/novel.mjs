// The showcase's novel, shared by the screenshot scripts: "Salt and Iron" written by the real
// `novel` CLI against the test server (scripted with this folder's plans, extractions and
// prose), then opened in the real app from the Library's recent list.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchApp, click, waitForText } from "../support/app.mjs";
import { ROOT, EXTRACTION, PLAN, startServer, providerConfig } from "../support/server.mjs";

const HERE = import.meta.dirname;
export const NOVEL = path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "debug/novel");

/** A file of this folder, as text. */
export const read = (f) => readFileSync(path.join(HERE, f), "utf8");
/** This folder's scripted plans and extractions. */
export const plans = () => JSON.parse(read("plans.json"));
export const extractions = () => JSON.parse(read("extractions.json"));
const texts = (values) => values.map((v) => ({ type: "text", content: JSON.stringify(v) }));

/** Writes the novel's first `scenes` scenes with `novel run` and lists it as recently opened.
 *  `plans`/`extractions` replace the folder's own; `chunkDelayMs` slows the streamed prose (for
 *  the app's live scene after). Resolves to { server, config, dir, env }. */
export async function writeShowcaseNovel({ scenes, plans: p = plans(), extractions: e = extractions(), chunkDelayMs }) {
  const prose = { type: "text", content: read("prose.txt"), ...(chunkDelayMs ? { chunk_delay_ms: chunkDelayMs } : {}) };
  const server = await startServer({
    rules: [
      { when_contains: EXTRACTION, replies: texts(e) },
      { when_contains: PLAN, replies: texts(p) },
      { replies: [prose] },
    ],
  });
  const config = providerConfig(server.baseUrl);
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "novel-showcase-")), "salt-and-iron");
  const env = { ...process.env, NOVEL_AGENT_CONFIG_DIR: config };
  execFileSync(NOVEL, ["new", dir, "--seed", path.join(HERE, "seed.toml")], { env, stdio: "inherit" });
  execFileSync(NOVEL, ["-C", dir, "run", "--n", String(scenes)], { env, stdio: "inherit" });
  writeFileSync(
    path.join(config, "recent.json"),
    JSON.stringify([{ path: dir, title: "Salt and Iron", opened_at: new Date().toISOString(), missing: false }]),
  );
  return { server, config, dir, env };
}

/** The app launched on `config`, the novel opened from the Library. */
export async function openShowcaseNovel(config) {
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: config });
  await click(app.browser, "nav-library");
  await click(app.browser, "recent-item");
  await waitForText(app.browser, "novel-title", (t) => t.includes("Salt and Iron"));
  return app;
}
