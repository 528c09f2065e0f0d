// Audit view: the report card shows every criterion of the engine's report with its number and
// whether it holds; a failure's scene opens the manuscript at that scene; the range typed is
// the range asked of `audit_book` (a backwards one refused in words, the last report kept);
// the charts of open questions and voice draw, the scene the audit flags highlighted; a book
// with no scenes says there is nothing to audit yet.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openAudit(scenario = {}) {
  const app = await openApp(env, { novel: true, scenes: 20, ...scenario });
  // The novel is open before the view is chosen (else the view says no novel is open).
  await app.page.getByTestId("novel-title").filter({ hasText: "Salt and Iron" }).waitFor();
  await app.page.getByTestId("nav-audit").click();
  return app;
}

/** Whether a chart's canvas has anything drawn on it. */
const drawn = (page, testId) =>
  page.getByTestId(testId).locator("canvas").evaluate((c) => {
    const { data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
    let inked = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
    return inked;
  });

test("the report card shows each criterion with its number, what it counts and whether it holds", async () => {
  const app = await openAudit();
  const { page } = app;
  await page.getByTestId("audit-criterion").first().waitFor();
  const keys = await page.getByTestId("audit-criterion").evaluateAll((els) => els.map((e) => e.dataset.key));
  assert.deepEqual(keys, ["plan", "beats", "loops", "stalls", "entities", "contradictions", "pov", "voice", "tension", "repetition", "cost"]);
  const plan = page.locator('[data-testid="audit-criterion"][data-key="plan"]');
  assert.match(await plan.locator("h3").textContent(), /Scenes do what they set out to do/);
  assert.match(await plan.getByTestId("audit-score").textContent(), /^\d+$/);
  assert.match(await plan.getByTestId("audit-measure").textContent(), /of 20 judged scenes realized their plan/);
  assert.equal(await plan.getAttribute("data-state"), "attention");
  assert.match(await plan.getByTestId("audit-state").textContent(), /Needs attention · 1 place/);
  assert.match(await plan.getByTestId("audit-failure").textContent(), /Scene 5 · .*confront the harbour master/);
  const beats = page.locator('[data-testid="audit-criterion"][data-key="beats"]');
  assert.equal(await beats.getAttribute("data-state"), "pass");
  assert.equal(await beats.getByTestId("audit-state").textContent(), "Holds");
  assert.match(await page.getByTestId("audit-scope").textContent(), /Scenes 1–20 · 20 scenes/);
  assert.match(await page.getByTestId("audit-overall").textContent(), /^\d+$/);
  assert.match(await page.getByTestId("audit-notes").textContent(), /compared by their wording/);
  // The question set up before scene 1 reads "the start of the book", not a scene link.
  const quiet = page.locator('[data-testid="audit-criterion"][data-key="loops"]').getByTestId("audit-failure");
  assert.match(await quiet.textContent(), /^the start of the book \(see also scene 20\)/);
  await app.assertClean(assert);
  await app.close();
});

test("a failure's scene opens the manuscript at that scene", async () => {
  const app = await openAudit();
  const { page } = app;
  const link = page.locator('[data-testid="audit-criterion"][data-key="voice"]').getByTestId("audit-scene").first();
  assert.equal(await link.getAttribute("data-scene"), "12");
  await link.click();
  await page.locator('[data-testid="scene"][data-tick="12"]').waitFor();
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "manuscript");
  await app.close();
});

test("the range typed is the range audited; a backwards one is refused in words and the report stays", async () => {
  const app = await openAudit();
  const { page } = app;
  await page.getByTestId("audit-criterion").first().waitFor();
  assert.deepEqual((await app.calls("audit_book")).map((c) => c.args), [{ from: null, to: null }]);
  await page.getByTestId("audit-from").fill("3");
  await page.getByTestId("audit-to").fill("10");
  await page.getByTestId("audit-refresh").click();
  await page.getByTestId("audit-scope").filter({ hasText: "Scenes 3–10" }).waitFor();
  assert.deepEqual((await app.calls("audit_book")).at(-1).args, { from: 3, to: 10 });
  // Scene 12's drift is outside the range: the voice criterion holds here.
  assert.equal(await page.locator('[data-testid="audit-criterion"][data-key="voice"]').getAttribute("data-state"), "pass");
  // Refresh with the same range asks again.
  await page.getByTestId("audit-refresh").click();
  await page.waitForFunction(() => window.__calls.filter((c) => c.cmd === "audit_book").length === 3);
  await page.getByTestId("audit-from").fill("9");
  await page.getByTestId("audit-to").fill("4");
  await page.getByTestId("audit-refresh").click();
  assert.match(await page.getByTestId("audit-error").textContent(), /Could not audit: scene 9 comes after scene 4/);
  assert.match(await page.getByTestId("audit-scope").textContent(), /Scenes 3–10/, "the last report stays on screen");
  await page.getByTestId("audit-whole").click();
  await page.getByTestId("audit-scope").filter({ hasText: "Scenes 1–20" }).waitFor();
  assert.deepEqual((await app.calls("audit_book")).at(-1).args, { from: null, to: null });
  await app.close();
});

test("the charts of open questions and voice draw, the flagged scene highlighted", async () => {
  const app = await openAudit();
  const { page } = app;
  await page.getByTestId("audit-loops-chart").locator("canvas").waitFor();
  await page.getByTestId("audit-voice-chart").locator("canvas").waitFor();
  await page.waitForTimeout(100);
  assert.ok((await drawn(page, "audit-loops-chart")) > 500, "the loops chart has ink");
  assert.ok((await drawn(page, "audit-voice-chart")) > 500, "the voice chart has ink");
  const legend = await page.getByTestId("audit-loops-chart").locator(".u-legend").textContent();
  assert.match(legend, /Open after the scene.*Raised.*Answered/);
  const flagged = await page.getByTestId("audit-voice-table").locator('tr[data-flagged="yes"]').evaluateAll((rows) => rows.map((r) => r.dataset.scene));
  assert.deepEqual(flagged, ["12"], "exactly the scene the voice criterion names");
  assert.equal(await page.getByTestId("audit-chapters").locator("tr").count(), 5, "one row per chapter");
  await app.assertClean(assert);
  await app.close();
});

test("a failed audit says why and can be tried again; a book with no scenes has nothing to audit", async () => {
  const app = await openAudit({ errorsOnce: { audit_book: { kind: "storage", message: "The novel's files could not be read." } } });
  const { page } = app;
  assert.match(await page.getByTestId("load-error").textContent(), /could not be read/);
  await page.getByTestId("load-error").getByRole("button", { name: "Try again" }).click();
  await page.getByTestId("audit-criterion").first().waitFor();
  await app.close();
  const empty = await openAudit({ scenes: 0 });
  await empty.page.getByTestId("empty-state").filter({ hasText: "Nothing to audit yet" }).waitFor();
  assert.equal(await empty.page.getByTestId("audit-criterion").count(), 0);
  await empty.close();
});
