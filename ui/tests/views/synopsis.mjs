// The story so far (Bible → Story so far): the book's synopsis with arcs as headings, each
// chapter's title with its scenes linked to the manuscript, and its paragraph; an empty book
// says what will be there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openStory(scenario) {
  const app = await openApp(env, { novel: true, ...scenario });
  await app.page.getByTestId("nav-bible").click();
  await app.page.getByTestId("bible-tab-story").click();
  return app;
}

test("the story so far tells each chapter under its arc, and a chapter's scenes open the manuscript there", async () => {
  const app = await openStory({ scenes: 8 });
  const { page } = app;
  await page.getByTestId("synopsis").waitFor();
  const arcs = page.getByTestId("synopsis-arc");
  assert.equal(await arcs.count(), 2, "three chapters of three scenes, two chapters an arc");
  assert.equal(await arcs.first().getByRole("heading", { level: 2 }).textContent(), "Chapters 1–2");
  const chapters = page.getByTestId("synopsis-chapter");
  assert.equal(await chapters.count(), 3);
  const second = chapters.nth(1);
  assert.match(await second.getByRole("heading", { level: 3 }).textContent(), /^Chapter 2: .+Scenes 4–6$/);
  assert.equal(await chapters.nth(2).getByTestId("synopsis-open").textContent(), "Scenes 7–8");
  // The paragraph is set in the manuscript's reading type.
  const paragraph = second.locator(".prose.reading p");
  assert.ok((await paragraph.textContent()).length > 20);
  assert.notEqual(await paragraph.evaluate((p) => getComputedStyle(p).fontFamily), await page.evaluate(() => getComputedStyle(document.body).fontFamily));
  await second.getByTestId("synopsis-open").click();
  await page.locator('main.view[data-view="manuscript"]').waitFor();
  await page.locator('[data-testid="scene"][data-tick="4"]').waitFor();
  await page.waitForFunction(() => {
    const r = document.getElementById("scene-4")?.getBoundingClientRect();
    return r && r.top >= -2 && r.top < window.innerHeight / 2;
  });
  await app.assertClean(assert);
  await app.close();
});

test("before the first scene the story so far says what it will hold", async () => {
  const app = await openStory({ scenes: 0 });
  assert.match(await app.page.getByTestId("synopsis-empty").textContent(), /once the first scene is written/);
  await app.assertClean(assert);
  await app.close();
});
