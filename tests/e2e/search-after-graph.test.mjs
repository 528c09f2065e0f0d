// The book search after a visit to the Graph, in the real app: each view brings its own
// stylesheet when it is first opened, and the Graph's once styled every `.search-results` as
// its dropdown (absolute, below the search box), so the book search's hits and its "nothing
// matches" went out of sight while Enter still jumped to the first hit. The hits and the empty
// result stay inside the dialog before and after the Graph has been opened.
import { test } from "node:test";
import assert from "node:assert/strict";
import { launchApp, byTestId, click, typeInto } from "./support/app.mjs";
import { startServer, storyScript, providerConfig } from "./support/server.mjs";
import { createNovelThroughForm, nextScene } from "./support/journey.mjs";

/** Where the element `id` is drawn against the search dialog: on screen and inside it or not. */
function placeIn(browser, id) {
  return browser.execute((testId) => {
    const dialog = document.querySelector('[data-testid="book-search"]').getBoundingClientRect();
    const el = document.querySelector(`[data-testid="${testId}"]`);
    if (!el) return { found: false };
    const r = el.getBoundingClientRect();
    // What is drawn at the element's centre: itself (or its content), not something over it or nothing.
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
    return {
      found: true,
      inside: r.height > 0 && r.top >= dialog.top && r.bottom <= dialog.bottom && r.left >= dialog.left && r.right <= dialog.right,
      onTop: top !== null && el.contains(top),
    };
  }, id);
}

async function search(browser, query) {
  await browser.keys(["Control", "Shift", "f"]);
  await (await byTestId(browser, "book-search")).waitForDisplayed({ timeout: 10000 });
  // By words: no local embedding model is needed for this.
  await click(browser, "search-mode-words");
  await typeInto(browser, "book-search-input", query);
}

async function close(browser) {
  await browser.keys(["Escape"]);
  await (await byTestId(browser, "book-search")).waitForExist({ timeout: 10000, reverse: true });
}

async function expectShown(browser, id, when) {
  await (await byTestId(browser, id)).waitForExist({ timeout: 20000 });
  const place = await placeIn(browser, id);
  assert.deepEqual(place, { found: true, inside: true, onTop: true }, `${when}: ${id} is drawn inside the dialog`);
}

test("the book search shows its hits and its empty result inside the dialog, before and after a visit to the Graph", async () => {
  const server = await startServer(storyScript());
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);
    await nextScene(b);

    await search(b, "tide bells");
    await expectShown(b, "search-hit", "on a fresh start");
    await close(b);

    await click(b, "nav-graph");
    await (await b.$('[data-testid="graph-stats"][data-layout="done"]')).waitForExist({ timeout: 30000 });

    await search(b, "tide bells");
    await expectShown(b, "search-hit", "after the Graph");
    await typeInto(b, "book-search-input", "zzqx");
    await expectShown(b, "book-search-empty", "after the Graph, nothing matching");
    // And Enter still jumps to the first hit.
    await typeInto(b, "book-search-input", "tide bells");
    await expectShown(b, "search-hit", "after the Graph, searched again");
    await b.keys(["Enter"]);
    await (await byTestId(b, "mark-current")).waitForDisplayed({ timeout: 10000 });
  } finally {
    await app.close();
    await server.stop();
  }
});
