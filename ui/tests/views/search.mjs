// Searching the book: Ctrl+Shift+F opens the search from any view, hits list their chapter and
// scene with the matching words highlighted as text (hostile snippets run nothing), Enter or a
// click jumps to the passage in the reader (scrolled into view, highlighted, focused), Escape
// gives the focus back; and Ctrl+F finds in the manuscript with next and previous.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

const active = (page) => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName ?? null);
const marked = (locator) => locator.locator("mark").allTextContents();

/** Whether the element is inside the reader's visible box. */
const inView = (page, selector) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const box = document.querySelector('[data-testid="reader"]').getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return r.top >= box.top && r.bottom <= box.bottom;
  }, selector);

test("Ctrl+Shift+F from Write opens the book search; hits show chapter, scene and the match highlighted", async () => {
  const app = await openApp(env, { novel: true, scenes: 3 });
  const { page } = app;
  await page.getByTestId("next-scene").waitFor();
  await page.keyboard.press("Control+Shift+F");
  await page.getByTestId("book-search").waitFor();
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "manuscript");
  assert.equal(await active(page), "book-search-input", "the focus moves into the search");
  await page.getByTestId("book-search-input").fill("tide bells");
  await page.getByTestId("search-hit").first().waitFor();
  const hits = page.getByTestId("search-hit");
  assert.deepEqual(await hits.evaluateAll((els) => els.map((e) => e.dataset.tick)), ["1", "2", "3"]);
  assert.match(await hits.first().locator(".search-hit-where").textContent(), /^Chapter 1 · Scene 1 · Low Tide$/);
  assert.deepEqual(await marked(hits.first().getByTestId("search-snippet")), ["tide", "bells"]);
  assert.match(await hits.first().getByTestId("search-snippet").textContent(), /The tide bells were quiet\./);
  assert.deepEqual((await app.calls("search_book")).at(-1).args, { query: "tide bells", mode: "both", limit: 30 });

  // By meaning: the mode goes to the shell, and a hit by meaning says so.
  await page.getByTestId("search-mode-meaning").click();
  await page.waitForFunction(() => document.querySelector(".search-hit-meaning") !== null);
  assert.equal((await app.calls("search_book")).at(-1).args.mode, "meaning");
  assert.equal(await page.getByTestId("search-mode-meaning").getAttribute("aria-pressed"), "true");
  // What opened it (in Write) is gone: Escape leaves the focus in the reader.
  await page.keyboard.press("Escape");
  await page.getByTestId("book-search").waitFor({ state: "detached" });
  assert.equal(await active(page), "reader");
  await app.assertClean(assert);
  await app.close();
});

test("snippets are text: markup in a hit shows as written, highlighted, and runs nothing", async () => {
  const app = await openApp(env, { novel: true, scenes: 1, hostile: true });
  const { page } = app;
  await page.getByTestId("nav-manuscript").click();
  await page.getByTestId("open-book-search").click();
  await page.getByTestId("book-search-input").fill("slate");
  await page.getByTestId("search-hit").first().waitFor();
  const snippet = page.getByTestId("search-snippet").first();
  assert.ok((await snippet.textContent()).includes('<script>window.__pwned = "script"</script>'));
  assert.deepEqual(await marked(snippet), ["slate"]);
  assert.equal(await page.locator('[data-testid="book-search"] script, [data-testid="book-search"] img').count(), 0);
  await page.waitForTimeout(50);
  assert.equal(await page.evaluate(() => window.__pwned ?? null), null, "nothing ran");
  await app.close();
});

test("a click on a hit jumps to the passage: scrolled into view, highlighted and focused", async () => {
  const app = await openApp(env, { novel: true, scenes: 40 });
  const { page } = app;
  await page.getByTestId("nav-manuscript").click();
  await page.getByTestId("scene").first().waitFor();
  await page.keyboard.press("Control+Shift+F");
  await page.getByTestId("book-search-input").fill("gossip");
  await page.locator('[data-testid="search-hit"][data-tick="27"]').click();
  await page.getByTestId("book-search").waitFor({ state: "detached" });
  const scene = page.locator('[data-testid="scene"][data-tick="27"]');
  const current = scene.getByTestId("mark-current");
  await current.waitFor();
  assert.equal(await current.textContent(), "gossip");
  assert.equal(await page.locator('[data-testid="mark-current"]').count(), 1, "one passage highlighted");
  assert.equal(await active(page), "mark-current", "the focus lands on the passage");
  assert.ok(await inView(page, '[data-testid="mark-current"]'), "the passage is on screen");
  // The highlighted word sits in its paragraph, the rest of the prose unchanged.
  assert.match(await current.locator("xpath=..").textContent(), /^The dockhand was where the gossip had promised/);

  // Enter in the query box jumps to the first hit.
  await page.keyboard.press("Control+Shift+F");
  await page.getByTestId("book-search-input").fill("harbor watch");
  await page.getByTestId("search-hit").first().waitFor();
  await page.getByTestId("book-search-input").press("Enter");
  await page.locator('[data-testid="scene"][data-tick="1"] [data-testid="mark-current"]').waitFor();
  assert.equal(await page.getByTestId("mark-current").textContent(), "harbor");
  await app.assertClean(assert);
  await app.close();
});

test("Escape closes the search and gives the focus back; Tab stays inside; no run is stopped", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  await page.getByTestId("nav-manuscript").click();
  await page.getByTestId("open-book-search").focus();
  await page.keyboard.press("Enter");
  await page.getByTestId("book-search").waitFor();
  assert.equal(await active(page), "book-search-input");
  for (let i = 0; i < 6; i++) await page.keyboard.press("Tab");
  assert.ok(await page.evaluate(() => document.querySelector('[data-testid="book-search"]').contains(document.activeElement)), "the focus stays in the dialog");
  await page.keyboard.press("Escape");
  await page.getByTestId("book-search").waitFor({ state: "detached" });
  assert.equal(await active(page), "open-book-search", "the focus is back on what opened it");
  assert.equal((await app.calls("stop_run")).length, 0, "Escape closed the search, nothing else");
  await app.close();
});

test("without the local model the search offers words only", async () => {
  const app = await openApp(env, { novel: true, scenes: 1, keywordSearchOnly: true });
  const { page } = app;
  // The shortcut needs the novel loaded (the header's title shows before it is).
  await page.getByTestId("next-scene").waitFor();
  await page.keyboard.press("Control+Shift+F");
  await page.getByTestId("book-search").waitFor();
  assert.ok(await page.getByTestId("search-mode-meaning").isDisabled());
  assert.equal(await page.getByTestId("search-mode-words").getAttribute("aria-pressed"), "true");
  await page.getByTestId("book-search-input").fill("Bram");
  await page.getByTestId("search-hit").first().waitFor();
  assert.equal((await app.calls("search_book")).at(-1).args.mode, "words");
  await app.close();
});

test("Ctrl+F finds in the manuscript: every match marked, Enter and Shift+Enter step, Escape closes", async () => {
  const app = await openApp(env, { novel: true, scenes: 3 });
  const { page } = app;
  await page.getByTestId("nav-manuscript").click();
  await page.getByTestId("scene").first().waitFor();
  await page.getByTestId("open-find").focus();
  await page.keyboard.press("Control+f");
  await page.getByTestId("find-bar").waitFor();
  assert.equal(await active(page), "find-input");
  await page.getByTestId("find-input").fill("bram");
  // "Bram" once in each scene's prose (and not in "Brambles": there is none), case aside.
  await page.waitForFunction(() => document.querySelector('[data-testid="find-count"]').textContent === "1 of 3");
  assert.deepEqual(await page.locator('.reader [data-testid="scene-prose"] mark').allTextContents(), ["Bram", "Bram", "Bram"]);
  const currentTick = () => page.evaluate(() => document.querySelector('[data-testid="mark-current"]').closest('[data-testid="scene"]').dataset.tick);
  assert.equal(await currentTick(), "1");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector('[data-testid="find-count"]').textContent === "2 of 3");
  assert.equal(await currentTick(), "2");
  assert.ok(await inView(page, '[data-testid="mark-current"]'));
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.press("Shift+Enter");
  await page.waitForFunction(() => document.querySelector('[data-testid="find-count"]').textContent === "3 of 3");
  assert.equal(await currentTick(), "3", "previous from the first wraps to the last");
  // Escape from the bar's buttons closes it too, and never stops a run.
  await page.getByTestId("find-next").focus();
  await page.keyboard.press("Escape");
  await page.getByTestId("find-bar").waitFor({ state: "detached" });
  assert.equal((await app.calls("stop_run")).length, 0);
  await page.getByTestId("open-find").click();
  await page.getByTestId("find-input").fill("no such words");
  assert.equal(await page.getByTestId("find-count").textContent(), "No matches");
  await page.keyboard.press("Escape");
  await page.getByTestId("find-bar").waitFor({ state: "detached" });
  assert.equal(await page.locator('.reader [data-testid="scene-prose"] mark').count(), 0);
  assert.equal(await active(page), "open-find", "the focus is back where it was");
  await app.assertClean(assert);
  await app.close();
});

test("after a visit to the Graph the book search still shows its hits and its empty result, inside the dialog", async () => {
  // The Graph's stylesheet, loaded with the view, once styled every `.search-results` as its
  // own dropdown (absolute, below its box): the dialog's results went out of sight.
  const app = await openApp(env, { novel: true, scenes: 3 });
  const { page } = app;
  await page.getByTestId("nav-graph").click();
  await page.locator('[data-testid="graph-stats"][data-layout="done"]').waitFor({ timeout: 20000 });
  await page.getByTestId("nav-manuscript").click();
  await page.getByTestId("open-book-search").click();
  await page.getByTestId("book-search-input").fill("tide bells");
  const hit = page.getByTestId("search-hit").first();
  await hit.waitFor();
  const inside = (testId) =>
    page.evaluate((id) => {
      const box = document.querySelector('[data-testid="book-search"]').getBoundingClientRect();
      const r = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
      return r.height > 0 && r.top >= box.top && r.bottom <= box.bottom && r.left >= box.left && r.right <= box.right;
    }, testId);
  assert.ok(await hit.isVisible());
  assert.ok(await inside("search-hit"), "the first hit is drawn inside the dialog");
  assert.equal(
    await hit.evaluate((e) => getComputedStyle(e).borderTopStyle),
    "solid",
    "a hit keeps its own look, not the graph dropdown's buttons",
  );
  await page.getByTestId("book-search-input").fill("zzqx");
  await page.getByTestId("book-search-empty").waitFor();
  assert.ok(await inside("book-search-empty"), "“nothing matches” is shown inside the dialog");
  await app.assertClean(assert);
  await app.close();
});
