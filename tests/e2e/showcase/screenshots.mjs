// Makes the README's screenshots from the real app under Xvfb: a five-scene novel written by
// the `novel` CLI against the OpenAI-format test server (scripted with this folder's plans,
// extractions and prose), opened in the desktop app, which then writes a sixth scene live.
// Run: xvfb-run -a --server-args="-screen 0 1400x900x24" node tests/e2e/showcase/screenshots.mjs
import { setTimeout as sleep } from "node:timers/promises";
import { shoot } from "./shoot.mjs";
import { writeShowcaseNovel, openShowcaseNovel } from "./novel.mjs";
import { click, byTestId, waitForText } from "../support/app.mjs";

const { server, config } = await writeShowcaseNovel({ scenes: 4, chunkDelayMs: 40 });
const app = await openShowcaseNovel(config);
const b = app.browser;
try {
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
