// Library → Import: the seeds are checked before anything is sent; the shell's own file dialog
// picks the manuscript (cancelled: nothing happens); scenes come in with a progress bar; Stop
// keeps what is in and Resume finishes it; an import that failed half-way is offered for
// resuming from the Library.
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
  const app = await openApp(env, { importFile: "/home/writer/Drafts/salt-road.md", ...scenario });
  await app.page.getByTestId("import-manuscript").click();
  await app.page.getByTestId("import-form").waitFor();
  return app;
}

async function fill(page, values) {
  for (const [name, value] of Object.entries(values)) await page.getByTestId(`field-${name}`).fill(value);
}

test("missing seeds are shown beside their fields and nothing is sent; the title may stay blank", async () => {
  const app = await openImport();
  const { page } = app;
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
  await fill(page, SEEDS);
  await page.getByTestId("import-start").click();
  await page.waitForFunction(() => window.__calls.some((c) => c.cmd === "import_manuscript"));
  await page.getByTestId("import-form").waitFor();
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
  await fill(page, SEEDS);
  const counts = recordUntil(page, "import-count", "import-stopped");
  await page.getByTestId("import-start").click();
  await page.getByTestId("import-running").waitFor();
  assert.match(await page.locator("#import-title").textContent(), /Importing salt-road\.md/);
  await page.getByTestId("import-count").getByText("2 of 6 scenes in").waitFor();
  assert.equal(await page.getByTestId("import-progress").getAttribute("max"), "6");
  assert.equal(await page.getByTestId("import-progress").getAttribute("value"), "2");
  assert.equal(await page.getByTestId("novel-title").textContent(), "The Salt Road", "the new novel is open while it imports");
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
  await page.getByTestId("toast").getByText("Imported “The Salt Road”").waitFor();
  assert.equal((await resumed)[0], "2 of 6 scenes in", "the resumed import goes on from the scenes kept");
  assert.equal((await app.calls("resume_import")).length, 1);
  assert.match(await page.getByTestId("novel-stats").textContent(), /^6 scenes/, "every scene once");
  await app.assertClean(assert);
  await app.close();
});

test("an import that failed half-way is offered for resuming from the Library", async () => {
  const app = await openImport({ importScenes: 4, importFailAt: 3 });
  const { page } = app;
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
