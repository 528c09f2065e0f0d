// Makes the README's screenshots of the history actions from the real app under Xvfb: a
// novel created through the form and written by the test server (the story fixtures the
// end-to-end tests use, whose prose passes the checks first time); its latest scene written again with a few sentences changed, shown
// in the versions panel's side-by-side diff; then review mode waiting on the next scene.
// Run: xvfb-run -a --server-args="-screen 0 1400x900x24" node tests/e2e/showcase/history-screenshots.mjs
import { setTimeout as sleep } from "node:timers/promises";
import { shoot } from "./shoot.mjs";
import { launchApp, click, byTestId, waitForText } from "../support/app.mjs";
import { fixture, startServer, storyScript, providerConfig } from "../support/server.mjs";
import { createNovelThroughForm } from "../support/journey.mjs";



const prose = fixture("prose.txt");
// The same scene written again: a few sentences go another way.
const changes = [
  ["six lit, two drowned, one swinging loose on its hook.", "five lit, three drowned, and one guttering on its hook."],
  ["The harbor watch never hurried. They didn't need to.", "The harbor watch never ran. Running was for people with somewhere to be."],
  ["Bram was broad as a mooring post and about as talkative.", "Bram was built like a mooring post and said about as much."],
];
let again = prose;
for (const [from, to] of changes) {
  if (!again.includes(from)) throw new Error(`the fixture prose no longer says: ${from}`);
  again = again.replace(from, to);
}
const server = await startServer(
  storyScript({ writer: [{ type: "text", content: prose }, { type: "text", content: prose }, { type: "text", content: again }] }),
);
const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
const b = app.browser;
try {
  await createNovelThroughForm(b);
  await click(b, "nav-write");
  for (const n of [1, 2]) {
    await click(b, "next-scene");
    await waitForText(b, "novel-stats", (t) => t.startsWith(`${n} scene`), 90000);
    await (await byTestId(b, "next-scene")).waitForClickable({ timeout: 30000 });
  }
  await click(b, "regenerate-scene");
  await waitForText(b, "regenerated", (t) => t.length > 0, 90000);
  await click(b, "open-versions");
  await waitForText(b, "diff-summary", (t) => /added/.test(t));
  const panel = await byTestId(b, "versions-panel");
  await b.execute((el) => el.scrollIntoView({ block: "start" }), panel);
  await sleep(800);
  shoot("versions");

  await click(b, "nav-settings");
  await click(b, "generation-review_before_commit");
  await click(b, "generation-save");
  await waitForText(b, "toast", (t) => t.includes("Generation settings saved"));
  await click(b, "nav-write");
  await click(b, "next-scene");
  await click(b, "plan-accept");
  await waitForText(b, "review-title", (t) => t.length > 0, 90000);
  // One change unticked, as a writer who disagrees with it would.
  await (await b.$('[data-testid="review-change"][data-category="relationship"] input')).click();
  await b.waitUntil(async () => !(await (await byTestId(b, "toast")).isExisting()), { timeout: 15000 });
  await b.execute(() => document.querySelector('[data-testid="scene-review"]')?.scrollIntoView({ block: "start" }));
  await sleep(800);
  shoot("review");
} finally {
  await app.close();
  await server.stop();
}
