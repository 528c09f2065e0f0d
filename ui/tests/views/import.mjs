// Library → Import: the shell's own file dialog picks the manuscript first (cancelled: nothing
// happens); the preview shows its parts, chapters and scenes with the seeds the text suggests
// filled in, and nothing is imported before the writer confirms, with the split they adjusted;
// the seeds are checked before anything is sent; scenes come in with a progress bar; Stop keeps
// what is in and Resume finishes it; an import that failed half-way is offered for resuming
// from the Library.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp, recordUntil } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

const SEEDS = {
  premise: "A pilot guides ships past a drowned city.",
  protagonist_name: "Wren Harrow",
  location_name: "Rainmarket",
  goal: "Get home",
  parent_dir: "/home/writer/Novels",
};

async function openImport(scenario) {
  const app = await openApp(env, { importFile: "/home/writer/Drafts/salt-road.txt", ...scenario });
  await app.page.getByTestId("import-manuscript").click();
  await app.page.getByTestId("import-form").waitFor();
  return app;
}

/** Chooses the manuscript and waits for its preview. */
async function choose(page) {
  await page.getByTestId("import-choose").click();
  await page.getByTestId("import-preview").waitFor();
}

test("the preview shows the parts, chapters and proposals; nothing is imported before Import, then the confirmed split is", async () => {
  const app = await openImport({ importScenes: 4 });
  const { page } = app;
  await choose(page);
  assert.equal(await page.getByTestId("import-chapter").count(), 5, "the opening pages and 4 chapters");
  assert.deepEqual(await page.getByTestId("import-part").allTextContents(), ["Part One — The Old Buccaneer", "Part Two — The Sea-cook"]);
  assert.equal(await page.getByTestId("import-chapter-title").nth(1).inputValue(), "The Old Sea-dog at the Admiral Benbow");
  assert.match(await page.getByTestId("import-scene").nth(1).textContent(), /words SQUIRE TRELAWNEY, Dr\. Livesey/);
  assert.match(await page.getByTestId("import-summary").textContent(), /Treasure Island by Robert Louis Stevenson: 2 parts, 4 chapters, 4 scenes/);
  // The seeds the text suggests are filled in; the title is the book's.
  assert.equal(await page.getByTestId("field-protagonist_name").inputValue(), "Jim");
  assert.equal(await page.getByTestId("field-location_name").inputValue(), "Bristol");
  assert.match(await page.getByTestId("field-premise").inputValue(), /^SQUIRE TRELAWNEY/);
  assert.equal(await page.getByTestId("field-title").inputValue(), "Treasure Island");
  // The writer adjusts: chapter 2 joins chapter 1, chapter 3 is renamed, the opening pages come in.
  await page.getByTestId("import-chapter").nth(2).getByTestId("import-starts").uncheck();
  await page.getByTestId("import-chapter-title").nth(3).fill("The Spot");
  await page.getByTestId("import-chapter").nth(0).getByTestId("import-include").check();
  assert.match(await page.getByTestId("import-summary").textContent(), /4 chapters, 5 scenes/);
  assert.equal((await app.calls("preview_import")).length, 1);
  assert.equal((await app.calls("import_manuscript")).length, 0, "nothing is imported before Import");
  await fill(page, { goal: "Find the treasure", parent_dir: "/home/writer/Novels" });
  await page.getByTestId("import-start").click();
  await page.getByTestId("toast").getByText("Imported “Treasure Island”").waitFor();
  const [call] = await app.calls("import_manuscript");
  assert.deepEqual(
    call.args.shape.chapters.map((c) => [c.title, c.starts_chapter, c.included]),
    [
      ["Opening pages", true, true],
      ["The Old Sea-dog at the Admiral Benbow", true, true],
      ["Black Dog Appears and Disappears", false, true],
      ["The Spot", true, true],
      ["I Go to Bristol", true, true],
    ],
  );
  assert.equal(call.args.form.protagonist_name, "Jim");
  assert.match(await page.getByTestId("novel-stats").textContent(), /^5 scenes/);
  await app.assertClean(assert);
  await app.close();
});

async function fill(page, values) {
  for (const [name, value] of Object.entries(values)) await page.getByTestId(`field-${name}`).fill(value);
}

test("missing seeds are shown beside their fields and nothing is sent; the title may stay blank", async () => {
  const app = await openImport();
  const { page } = app;
  await choose(page);
  await fill(page, { title: "", premise: "", protagonist_name: "", location_name: "" });
  await page.getByTestId("import-start").click();
  for (const name of ["premise", "protagonist_name", "location_name", "goal", "parent_dir"]) {
    assert.ok((await page.getByTestId(`error-${name}`).textContent()).length > 5, `error-${name}`);
  }
  assert.equal(await page.getByTestId("error-title").count(), 0, "the manuscript's title is used");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "field-premise");
  assert.equal((await app.calls("import_manuscript")).length, 0);
  await app.assertClean(assert);
  await app.close();
});

test("a cancelled file dialog changes nothing", async () => {
  const app = await openImport({ importFile: null });
  const { page } = app;
  await page.getByTestId("import-choose").click();
  await page.waitForFunction(() => window.__calls.some((c) => c.cmd === "preview_import"));
  await page.getByTestId("import-form").waitFor();
  assert.equal(await page.getByTestId("import-preview").count(), 0);
  assert.equal((await app.calls("import_manuscript")).length, 0);
  assert.equal(await page.getByTestId("import-error").count(), 0);
  assert.equal(await page.getByTestId("novel-title").textContent(), "Novel Agent", "no novel opened");
  await app.assertClean(assert);
  await app.close();
});

test("scenes come in with progress; Stop keeps them and Resume finishes the import", async () => {
  // The mock holds the import once 2 scenes are in, until Stop: the progress the test reads and
  // the moment it stops at are the same on every run, however fast or slow the page is.
  const app = await openImport({ importScenes: 6, importPauseAfter: 2, delayMs: 80 });
  const { page } = app;
  await choose(page);
  await fill(page, { ...SEEDS, title: "" });
  const counts = recordUntil(page, "import-count", "import-stopped");
  await page.getByTestId("import-start").click();
  await page.getByTestId("import-running").waitFor();
  assert.match(await page.locator("#import-title").textContent(), /Importing salt-road\.txt/);
  await page.getByTestId("import-count").getByText("2 of 6 scenes in").waitFor();
  assert.equal(await page.getByTestId("import-progress").getAttribute("max"), "6");
  assert.equal(await page.getByTestId("import-progress").getAttribute("value"), "2");
  assert.equal(await page.getByTestId("novel-title").textContent(), "Treasure Island", "the new novel is open while it imports");
  await page.getByTestId("import-stop").click();
  await page.getByTestId("import-stopped").waitFor();
  assert.deepEqual(await counts, ["0 of 6 scenes in", "1 of 6 scenes in", "2 of 6 scenes in"], "each scene counted as it came in");
  const message = await page.getByTestId("import-stopped-message").textContent();
  assert.match(message, /You stopped the import after 2 of 6 scenes\. Resume the import to carry on from scene 3\./);
  assert.deepEqual((await app.calls("stop_run")).map((c) => c.args), [{ cancel: true }]);
  const [call] = await app.calls("import_manuscript");
  assert.equal(call.args.parentDir, "/home/writer/Novels");
  assert.equal(call.args.form.title, "", "a blank title is left to the manuscript");
  assert.equal(call.args.form.protagonist_name, "Wren Harrow");

  assert.equal(await page.getByTestId("toast").count(), 0);
  const resumed = recordUntil(page, "import-count", "toast");
  await page.getByTestId("import-resume").click();
  await page.getByTestId("toast").getByText("Imported “Treasure Island”").waitFor();
  assert.equal((await resumed)[0], "2 of 6 scenes in", "the resumed import goes on from the scenes kept");
  assert.equal((await app.calls("resume_import")).length, 1);
  assert.match(await page.getByTestId("novel-stats").textContent(), /^6 scenes/, "every scene once");
  await app.assertClean(assert);
  await app.close();
});

test("an import that failed half-way is offered for resuming from the Library", async () => {
  const app = await openImport({ importScenes: 4, importFailAt: 3 });
  const { page } = app;
  await choose(page);
  await fill(page, { ...SEEDS, title: "Low Water" });
  await page.getByTestId("import-start").click();
  await page.getByTestId("import-stopped").waitFor();
  assert.match(await page.getByTestId("import-stopped-message").textContent(), /HTTP 500 after 2 of 4 scenes/);
  await page.getByText("Later").click();
  await page.getByTestId("import-unfinished").getByText("stopped after 2 of 4 scenes").waitFor();
  assert.equal(await page.getByTestId("novel-title").textContent(), "Low Water");
  await page.getByTestId("import-open-resume").click();
  await page.getByTestId("import-resume").click();
  await page.getByTestId("toast").getByText("Imported “Low Water”").waitFor();
  assert.match(await page.getByTestId("novel-stats").textContent(), /^4 scenes/);
  await app.assertClean(assert);
  await app.close();
});
