// Timeline: a row per tick with status, scene, POV, place, rationale and findings, with
// tokens, calls, time and the tools (expandable) folded behind Details; a failed row shows its error with Retry (a new run, watched in
// Write) and Skip.
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

test("each tick is a row with its plan, tools, findings, tokens and time", async () => {
  const app = await openTimeline({ scenes: 2 });
  const { page } = app;
  const rows = page.getByTestId("timeline-row");
  assert.equal(await rows.count(), 2);
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => [e.dataset.tick, e.dataset.status])), [
    ["1", "committed"],
    ["2", "committed"],
  ]);
  const first = rows.first();
  const text = await first.textContent();
  assert.match(text, /Low Tide/);
  assert.match(text, /Committed/);
  assert.match(await first.locator(".timeline-meta").textContent(), /^POV Tamsin Vale · Rainmarket Docks$/);
  assert.ok(await first.getByText("Tamsin needs an ally to hide from the watch.").isVisible());
  assert.ok(await first.getByText(/The scene is a little short/).isVisible(), "findings are shown unfolded");
  // The engineer's numbers wait behind Details.
  const usage = first.getByText("2,310 tokens · 3 model calls · 42 s · cost 0.0102");
  assert.equal(await usage.isVisible(), false, "tokens, calls and time start folded");
  assert.equal(await first.getByText(/tools run/).isVisible(), false);
  await first.getByTestId("timeline-telemetry-toggle").click();
  assert.ok(await usage.isVisible());
  // Which model did what: each role in the order the tick calls it, with its calls, tokens, cost.
  assert.deepEqual(await first.getByTestId("timeline-roles").locator("li").allTextContents(), [
    "planner qwen2.5-7b · 1 call · 750 tokens",
    "writer claude-sonnet · 1 call · 1,400 tokens · cost 0.0102",
    "extractor qwen2.5-7b · 1 call · 160 tokens",
  ]);
  const tools = first.locator("details.timeline-tools");
  assert.equal(await tools.evaluate((d) => d.open), false, "tools start folded");
  assert.ok(!(await first.getByText('{"id":"C1","name":"Bram"}').isVisible()));
  await tools.locator("summary").click();
  assert.ok(await first.getByText('{"id":"C1","name":"Bram"}').isVisible(), "expanded tools show their results");
  await app.assertClean(assert);
  await app.close();
});

test("a failed tick shows its error; Retry starts a run in Write", async () => {
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
