// Makes the README's Timeline and Loops board screenshots from the real app under Xvfb: an
// eight-scene novel written by the `novel` CLI against the test server (this folder's five
// scenes, then three more that open, advance and leave loops hanging) and a scene the writer
// added by hand after the fifth, opened in the app.
// Run: xvfb-run -a --server-args="-screen 0 1400x900x24" node tests/e2e/showcase/planning-screenshots.mjs
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { shoot } from "./shoot.mjs";
import { NOVEL, plans as folderPlans, extractions as folderExtractions, writeShowcaseNovel, openShowcaseNovel } from "./novel.mjs";
import { click, byTestId, waitForAttrs } from "../support/app.mjs";

const plans = folderPlans();
const extractions = folderExtractions();
const later = (intention) => ({ ...plans[4], scene_intention: intention });
// Scenes 6 to 8: a new question (Open), the brother's case moves on (Advancing), and the
// slate's author, last touched in scene 3, is left hanging (Stale by scene 8).
const more = [
  {
    title: "The Drowned Ledger",
    summary: ["Tamsin dives for the customs ledger.", "A page is missing, cut with a razor.", "Someone else was here first."],
    tension: 7,
    location: "L0",
    loops_opened: [{ description: "Who cut the page from the drowned ledger?", category: "mystery", importance: "critical" }],
  },
  {
    title: "A Visit to the Cells",
    summary: ["Tamsin bribes her way into the cells.", "Elias names the clerk who signed the warrant.", "The clerk has left the city."],
    tension: 6,
    location: "L0",
    loops_advanced: [{ id: "O0", note: "Elias names the clerk who signed his warrant." }],
  },
  {
    title: "Fog on the Canals",
    summary: ["Fog closes the canals.", "Bram and Tamsin wait out the watch in a boathouse.", "They talk of the life before."],
    tension: 4,
    location: "L0",
  },
];

const { server, config, dir, env } = await writeShowcaseNovel({
  scenes: 8,
  plans: [...plans, later("Tamsin dives for the ledger."), later("Tamsin visits her brother."), later("The fog holds them.")],
  extractions: [...extractions, ...more],
});
// A scene the writer adds by hand after scene 5: the Timeline lists it with the agent's.
const byHand = path.join(dir, "..", "by-hand.md");
writeFileSync(byHand, "Tamsin wrote her brother's name on the slate, then wiped it off before the ink of the rain could.\n\nShe kept the chalk.");
execFileSync(NOVEL, ["-C", dir, "scene", "add", "--title", "The Slate", byHand, "--after", "5"], { env, stdio: "inherit" });
const app = await openShowcaseNovel(config);
const b = app.browser;
try {
  await click(b, "nav-timeline");
  await waitForAttrs(b, "timeline-row", "data-tick", (ticks) => ticks.length === 9);
  // Scene 1 opened: its chapter, characters and plan under it.
  const expand = await b.$$('[data-testid="timeline-expand"]');
  await expand[0].click();
  await (await byTestId(b, "toast")).waitForExist({ reverse: true, timeout: 10000 }); // the "Opened" toast gone
  await sleep(300);
  shoot("timeline");
  await click(b, "nav-loops");
  await (await byTestId(b, "loops-stale")).waitForExist();
  await sleep(800);
  shoot("loops");
} finally {
  await app.close();
  await server.stop();
}
