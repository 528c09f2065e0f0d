// Word-count goals in Write: set a book goal and a daily goal, watch today's words grow with
// a committed scene, keep them per novel across a reload, start a new day from the book's
// length, and refuse a goal that is not a number.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

const words = async (page) => Number((/· ([\d,]+) words?/.exec(await page.getByTestId("novel-stats").textContent())?.[1] ?? "0").replace(/,/g, ""));
const fmt = (n) => n.toLocaleString("en-US");

test("a daily and a book goal show progress, grow with a new scene and are kept across a reload", async () => {
  const app = await openApp(env, { novel: true, scenes: 2, delayMs: 2 });
  const { page } = app;
  await page.getByTestId("goals-edit").click();
  await page.getByTestId("goal-book").fill("80,000");
  await page.getByTestId("goal-daily").fill("500");
  await page.getByTestId("goals-save").click();
  const before = await words(page);
  assert.equal(await page.getByTestId("goal-today-count").textContent(), "0 / 500 words");
  assert.equal(await page.getByTestId("goal-book-progress-count").textContent(), `${fmt(before)} / 80,000 words`);

  await page.getByTestId("next-scene").click();
  await page.getByTestId("committed-scene").waitFor();
  await page.waitForFunction((n) => !document.querySelector('[data-testid="novel-stats"]').textContent.startsWith(`${n} scenes`), 2);
  const after = await words(page);
  assert.ok(after > before);
  await page.getByTestId("goal-today-count").getByText(`${fmt(after - before)} / 500 words`).waitFor();
  assert.equal(await page.getByTestId("goal-book-progress-count").textContent(), `${fmt(after)} / 80,000 words`);

  // The mock novel starts afresh on reload; the goals are the app's, kept per novel folder.
  await page.reload();
  await page.getByTestId("goal-book-progress").waitFor();
  assert.match(await page.getByTestId("goal-book-progress-count").textContent(), / \/ 80,000 words$/);
  assert.match(await page.getByTestId("goal-today-count").textContent(), / \/ 500 words$/);
  await app.assertClean(assert);
  await app.close();
});

test("a new day counts from the book's length that day; a goal met is marked", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  const now = await words(page);
  const path = await page.getByTestId("novel-title").getAttribute("title");
  await page.evaluate(
    ([path, start]) => localStorage.setItem(`novel-agent.word-goals:${path}`, JSON.stringify({ book: 100, daily: 50, day: "2000-01-01", dayStart: start })),
    [path, 5],
  );
  await page.reload();
  await page.getByTestId("goal-today").waitFor();
  assert.equal(await page.getByTestId("goal-today-count").textContent(), "0 / 50 words", "yesterday's start is not today's");
  assert.equal(await page.getByTestId("goal-book-progress-count").textContent(), `${fmt(now)} / 100 words ✓`);
  assert.match(await page.getByTestId("goal-book-progress").getAttribute("class"), /goal-done/);
  await app.assertClean(assert);
  await app.close();
});

test("a goal that is not a number is refused; clearing both removes the bars", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  assert.equal(await page.getByTestId("goals-edit").textContent(), "Set a word goal");
  await page.getByTestId("goals-edit").click();
  await page.getByTestId("goal-daily").fill("lots");
  await page.getByTestId("goals-save").click();
  assert.match(await page.getByTestId("goals-error").textContent(), /whole number of words/);
  await page.getByTestId("goal-daily").fill("700");
  await page.getByTestId("goals-save").click();
  await page.getByTestId("goal-today").waitFor();
  assert.equal(await page.getByTestId("goal-book-progress").count(), 0, "no book goal, no book bar");
  await page.getByTestId("goals-edit").click();
  await page.getByTestId("goal-daily").fill("");
  await page.getByTestId("goals-save").click();
  await page.getByTestId("word-goals").waitFor();
  assert.equal(await page.getByTestId("goal-today").count(), 0);
  assert.equal(await page.getByTestId("goals-edit").textContent(), "Set a word goal");
  await app.assertClean(assert);
  await app.close();
});

test("a session goal counts from the book's length when the session began, and a reload continues it", async () => {
  const app = await openApp(env, { novel: true, scenes: 2, delayMs: 2 });
  const { page } = app;
  await page.getByTestId("goals-edit").click();
  await page.getByTestId("goal-session").fill("300");
  await page.getByTestId("goals-save").click();
  assert.equal(await page.getByTestId("goal-session-progress-count").textContent(), "0 / 300 words");
  const before = await words(page);
  await page.getByTestId("next-scene").click();
  await page.getByTestId("committed-scene").waitFor();
  await page.waitForFunction((n) => !document.querySelector('[data-testid="novel-stats"]').textContent.startsWith(`${n} scenes`), 2);
  const after = await words(page);
  await page.getByTestId("goal-session-progress-count").getByText(`${fmt(after - before)} / 300 words`, { exact: false }).waitFor();
  // The session's start is kept for the window: a reload (the mock novel starts afresh, with
  // the book's earlier length) continues the same session.
  const path = await page.getByTestId("novel-title").getAttribute("title");
  assert.equal(await page.evaluate((p) => sessionStorage.getItem(`novel-agent.session-start:${p}`), path), String(before));
  await page.reload();
  await page.getByTestId("goal-session-progress").waitFor();
  assert.equal(await page.getByTestId("goal-session-progress-count").textContent(), "0 / 300 words");
  assert.equal(await page.evaluate((p) => sessionStorage.getItem(`novel-agent.session-start:${p}`), path), String(before));
  await app.assertClean(assert);
  await app.close();
});
