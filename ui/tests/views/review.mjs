// Review in the writer's words: the plan's memory actions as plain sentences with names (the
// raw call only behind Details), and the scene's memory changes field by field as before →
// after, a relationship naming both people, what the tools did in words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

test("the plan's memory actions read as sentences with names; the raw call is only under Details", async () => {
  const app = await openApp(env, { novel: true, scenes: 2, review: true });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  const plan = page.getByTestId("plan-review");
  await plan.waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="plan-tool-sentence"]')[1]?.textContent.includes("Tamsin Vale"));
  assert.deepEqual(await plan.getByTestId("plan-tool-sentence").allTextContents(), [
    "Looks up: the ledger's missing page",
    "Changes Tamsin Vale: emotional state → resolved",
    "Changes how Tamsin Vale and Bram stand: status → strained",
  ]);
  const shown = await plan.evaluate((el) => el.innerText);
  assert.doesNotMatch(shown, /memory\.search|character\.update|\{|\bC\d\b/, shown);
  const details = plan.locator("details.tool-raw").first();
  await details.locator("summary").click();
  assert.match(await details.innerText(), /memory\.search \{\s+"query": "the ledger's missing page"/);
  await page.getByTestId("plan-accept").click();
  await page.getByTestId("scene-review").waitFor();
  await app.assertClean(assert);
  await app.close();
});

test("the scene's memory changes show before → after with names; the tools say what they did", async () => {
  const app = await openApp(env, { novel: true, scenes: 2, review: true });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("plan-accept").click();
  const review = page.getByTestId("scene-review");
  await review.waitFor();
  const relationship = review.locator('[data-testid="review-change"][data-index="1"]');
  assert.match(await relationship.textContent(), /^Relationship · Tamsin Vale and Bram/);
  assert.deepEqual(await relationship.getByTestId("change-line").allTextContents(), ["Kind: ally", "Where it stands: strangers → wary"]);
  assert.equal(await relationship.locator("del").textContent(), "strangers");
  assert.equal(await relationship.locator("ins").last().textContent(), "wary");
  assert.match(await review.getByTestId("review-tools").textContent(), /Looked up the story's memory/);
  assert.doesNotMatch(await review.evaluate((el) => el.innerText), /memory\.search|\bC\d\b/);
  await app.assertClean(assert);
  await app.close();
});
