// Loops board: four columns that say where each loop stands (open, advancing, stale after the
// engine's number of scenes, resolved or let go), most important first; "opened in scene N"
// counted from 1 (a loop the premise set up is "before scene 1"); the scenes a loop was
// touched in open the manuscript there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openLoops(scenario = {}) {
  const app = await openApp(env, { novel: true, ...scenario });
  await app.page.getByTestId("nav-loops").click();
  await app.page.getByTestId("loop-card").first().waitFor();
  return app;
}

test("the board's columns are open, advancing, stale and resolved, each saying what it means", async () => {
  const app = await openLoops({ abandonedLoop: true });
  const { page } = app;
  const headings = await page.locator(".loops-column h2").allTextContents();
  assert.deepEqual(headings, ["Open 1", "Advancing 1", "Stale 1", "Resolved 2"]);
  // The stale threshold is the engine's (LOOP_STALE_AFTER), said where it applies.
  assert.equal(await page.getByTestId("loops-stale-meaning").textContent(), "Untouched for 5 scenes or more");
  assert.equal(await page.getByTestId("loops-advancing-meaning").textContent(), "Moved on within the last 5 scenes");
  for (const [column, description] of [
    ["open", "Who put Tamsin's name on the watch's slate?"],
    ["advancing", "What does the harbor master owe Bram?"],
    ["stale", "The smell of smoke from the net loft."],
  ]) {
    const card = page.getByTestId(`loops-${column}`).getByTestId("loop-card");
    assert.equal(await card.getAttribute("data-column"), column);
    assert.match(await card.textContent(), new RegExp(description.replace(/[?.]/g, "\\$&")));
  }
  const stale = page.getByTestId("loops-stale").getByTestId("loop-card");
  assert.equal(await stale.getByTestId("loop-meta").textContent(), "Set up before scene 1 · untouched for 6 scenes", "never “scene 0”");
  const advancing = page.getByTestId("loops-advancing").getByTestId("loop-card");
  assert.match(await advancing.textContent(), /Opened in scene 1.*Scene 2\s*Tamsin learns her brother is wanted too\./);
  const resolved = page.getByTestId("loops-resolved").getByTestId("loop-card");
  assert.deepEqual(await resolved.evaluateAll((els) => els.map((e) => e.dataset.status)), ["resolved", "abandoned"]);
  assert.match(await resolved.first().textContent(), /closed in scene 2/);
  assert.match(await resolved.nth(1).textContent(), /let go/);
  await app.assertClean(assert);
  await app.close();
});

test("a loop's scenes open the manuscript at that scene", async () => {
  const app = await openLoops();
  const { page } = app;
  const links = page.getByTestId("loops-advancing").getByTestId("loop-scene");
  assert.deepEqual(await links.allTextContents(), ["1", "2"]);
  await links.nth(1).click();
  await page.locator('[data-testid="scene"][data-tick="2"]').waitFor();
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "manuscript");
  await app.close();
});
