// Timeline: a compact line per scene of the book, whoever wrote it (number, title, POV, place,
// the agent / by hand / imported, findings) whose details open on demand (the plan's reason,
// findings, characters, chapter; tokens, calls, time and the lookups behind Details); a title opens the scene in the manuscript; filters by POV,
// character and chapter; a failed row shows its error with Retry (a new run, watched in Write)
// and Skip.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openTimeline(scenario) {
  const app = await openApp(env, { novel: true, ...scenario });
  await app.page.getByTestId("nav-timeline").click();
  await app.page.getByTestId("timeline-row").first().waitFor();
  return app;
}

test("each scene is one line; its plan, findings, tokens and time open on demand", async () => {
  const app = await openTimeline({ scenes: 2 });
  const { page } = app;
  const rows = page.getByTestId("timeline-row");
  assert.equal(await rows.count(), 2);
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => [e.dataset.tick, e.dataset.status])), [
    ["1", "committed"],
    ["2", "committed"],
  ]);
  const first = rows.first();
  assert.equal(await first.getByTestId("timeline-open").textContent(), "Low Tide");
  assert.equal(await first.getByTestId("timeline-pov").textContent(), "Tamsin Vale");
  assert.equal(await first.getByTestId("timeline-place").textContent(), "Rainmarket Docks");
  assert.equal(await first.getByTestId("timeline-finding-count").textContent(), "1 note");
  // One line: the row is no taller than a line of the list.
  const height = await first.evaluate((el) => el.getBoundingClientRect().height);
  assert.ok(height < 56, `a compact row (${height}px)`);
  assert.equal(await first.getByText("Tamsin needs an ally to hide from the watch.").count(), 0, "the plan waits behind More");

  await first.getByTestId("timeline-expand").click();
  const details = first.getByTestId("timeline-details");
  assert.ok(await details.getByText("Tamsin needs an ally to hide from the watch.").isVisible());
  assert.ok(await details.getByText(/The scene is a little short/).isVisible());
  assert.equal(await details.getByTestId("timeline-characters").textContent(), "With Bram, Tamsin Vale");
  assert.match(await details.textContent(), /Chapter 1 · The Quay/);
  // The engineer's numbers wait behind Details, inside.
  const usage = first.getByText("2,310 tokens · 3 model calls · 42 s · cost 0.0102");
  assert.equal(await usage.isVisible(), false, "tokens, calls and time start folded");
  await first.getByTestId("timeline-telemetry-toggle").click();
  assert.ok(await usage.isVisible());
  assert.deepEqual(await first.getByTestId("timeline-roles").locator("li").allTextContents(), [
    "planner qwen2.5-7b · 1 call · 750 tokens",
    "writer claude-sonnet · 1 call · 1,400 tokens · cost 0.0102",
    "extractor qwen2.5-7b · 1 call · 160 tokens",
  ]);
  const tools = first.locator("details.timeline-tools");
  assert.equal(await tools.evaluate((d) => d.open), false, "tools start folded");
  await tools.locator("summary").click();
  assert.ok(await first.getByText('{"id":"C1","name":"Bram"}').isVisible(), "expanded tools show their results");
  await first.getByTestId("timeline-expand").click();
  assert.equal(await first.getByTestId("timeline-details").count(), 0, "Less folds it again");
  await app.assertClean(assert);
  await app.close();
});

test("scenes written by hand and imported have their line, marked, and filter like the rest", async () => {
  const app = await openTimeline({ scenes: 4, writtenBy: { 2: "hand", 3: "import" } });
  const { page } = app;
  const rows = page.getByTestId("timeline-row");
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.dataset.tick)), ["1", "2", "3", "4"]);
  assert.deepEqual(await rows.getByTestId("timeline-by").allTextContents(), ["Agent", "By hand", "Imported", "Agent"]);
  const byHand = page.locator('[data-testid="timeline-row"][data-tick="2"]');
  assert.equal(await byHand.getByTestId("timeline-finding-count").textContent(), "not checked", "never read by the checks, not clean");
  await byHand.getByTestId("timeline-expand").click();
  const details = byHand.getByTestId("timeline-details");
  assert.equal(await details.getByTestId("timeline-written-by").textContent(), "Written by hand in the manuscript.");
  assert.match(await details.textContent(), /Chapter 1 · The Quay/);
  assert.equal(await details.getByTestId("timeline-telemetry-toggle").count(), 0, "no model numbers for a scene no model wrote");
  const imported = page.locator('[data-testid="timeline-row"][data-tick="3"]');
  await imported.getByTestId("timeline-expand").click();
  assert.equal(await imported.getByTestId("timeline-written-by").textContent(), "A scene of the imported manuscript.");
  assert.equal(await imported.getByText("adopted as written").count(), 0, "the import's stand-in plan is not shown as a reason");
  // The chapter filter keeps the writer's scene with its chapter; the POV filter leaves it out.
  await page.getByTestId("filter-chapter").selectOption({ label: "1 · The Quay" });
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.dataset.tick)), ["1", "2"]);
  await page.getByTestId("filter-pov").selectOption("Tamsin Vale");
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.dataset.tick)), ["1"]);
  await page.getByTestId("filter-clear").click();
  await byHand.getByTestId("timeline-open").click();
  await page.locator('[data-testid="scene"][data-tick="2"]').waitFor();
  await app.assertClean(assert);
  await app.close();
});

test("a scene's title opens it in the manuscript", async () => {
  const app = await openTimeline({ scenes: 3 });
  const { page } = app;
  await page.locator('[data-testid="timeline-row"][data-tick="2"]').getByTestId("timeline-open").click();
  await page.locator('[data-testid="scene"][data-tick="2"]').waitFor();
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "manuscript");
  await page.waitForFunction(() => {
    const el = document.getElementById("scene-2");
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.top < window.innerHeight && r.bottom > 0;
  });
  await app.close();
});

test("filters show only the scenes of a POV, with a character, or in a chapter", async () => {
  const app = await openTimeline({ scenes: 5 });
  const { page } = app;
  const ticks = () => page.getByTestId("timeline-row").evaluateAll((els) => els.map((e) => Number(e.dataset.tick)));
  assert.deepEqual(await ticks(), [1, 2, 3, 4, 5]);
  assert.deepEqual(await page.getByTestId("filter-character").locator("option").allTextContents(), ["Anyone", "Bram", "Old Hesk", "Tamsin Vale"]);
  await page.getByTestId("filter-character").selectOption("Old Hesk");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="timeline-row"]').length === 2);
  assert.deepEqual(await ticks(), [2, 4]);
  assert.equal(await page.getByTestId("timeline-filtered").textContent(), "2 scenes of 5 shown");
  await page.getByTestId("filter-chapter").selectOption({ label: "2 · Salt Gate" });
  assert.deepEqual(await ticks(), [4]);
  await page.getByTestId("filter-pov").selectOption("Tamsin Vale");
  assert.deepEqual(await ticks(), [4]);
  await page.getByTestId("filter-clear").click();
  assert.deepEqual(await ticks(), [1, 2, 3, 4, 5]);
  await app.assertClean(assert);
  await app.close();
});

test("a failed scene shows its error; Retry starts a run in Write", async () => {
  const app = await openTimeline({ scenes: 2, pendingFailure: true, delayMs: 5 });
  const { page } = app;
  const failed = page.locator('[data-testid="timeline-row"][data-status="failed"]');
  assert.match(await failed.textContent(), /This scene could not be written: The provider answered with HTTP 500/);
  await failed.getByTestId("retry-tick").click();
  await page.getByTestId("committed-scene").waitFor();
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "write");
  assert.equal((await app.calls("run_ticks")).length, 1);
  await page.getByTestId("nav-timeline").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="timeline-row"]').length === 4);
  assert.deepEqual(await page.getByTestId("timeline-row").evaluateAll((els) => els.map((e) => e.dataset.status)), [
    "committed",
    "committed",
    "failed_resolved",
    "committed",
  ]);
  await app.close();
});

test("Skip on a failed row gives up on it", async () => {
  const app = await openTimeline({ scenes: 2, pendingFailure: true });
  const { page } = app;
  await page.locator('[data-testid="timeline-row"][data-status="failed"]').getByTestId("skip-tick").click();
  await page.locator('[data-testid="timeline-row"][data-status="failed_resolved"]').waitFor();
  assert.deepEqual((await app.calls("skip_failed_tick")).map((c) => c.args), [{ tick: 3 }]);
  assert.equal(await page.getByTestId("retry-tick").count(), 0);
  await app.close();
});

test("an empty timeline says how to begin", async () => {
  const app = await openApp(env, { novel: true, scenes: 0 });
  await app.page.getByTestId("nav-timeline").click();
  await app.page.getByTestId("empty-state").waitFor();
  assert.match(await app.page.getByTestId("empty-state").textContent(), /No scenes yet — press Next scene/);
  await app.close();
});
