// The app frame: navigation, header, theme (system, toggle, remembered), keyboard shortcuts
// and their help, and Export through the save dialog to a toast.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

test("with a novel open the app starts on Write and the header shows title, scenes and words", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  await page.getByTestId("next-scene").waitFor();
  assert.equal(await page.getByTestId("novel-title").textContent(), "Salt and Iron");
  assert.match(await page.getByTestId("novel-stats").textContent(), /^2 scenes · \d+ words$/);
  for (const id of ["library", "write", "manuscript", "graph", "timeline", "loops", "settings"]) {
    await page.getByTestId(`nav-${id}`).click();
    assert.equal(await page.locator("main.view").getAttribute("data-view"), id);
  }
  await app.assertClean(assert);
  await app.close();
});

test("without a novel the app starts in the Library and the novel views say what to do", async () => {
  const app = await openApp(env, {});
  const { page } = app;
  await page.getByTestId("new-novel").waitFor();
  assert.equal(await page.getByTestId("novel-title").textContent(), "Novel Agent");
  assert.ok(await page.getByTestId("export-menu").isDisabled());
  await page.getByTestId("nav-manuscript").click();
  assert.match(await page.getByTestId("empty-state").textContent(), /No novel is open/);
  await app.close();
});

test("the theme follows the system, toggles, and the choice survives a reload", async () => {
  const app = await openApp(env, { novel: true }, { colorScheme: "dark" });
  const { page } = app;
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(await theme(), "dark");
  const dark = await background();
  await page.getByTestId("theme-toggle").click();
  assert.equal(await theme(), "light");
  assert.notEqual(await background(), dark, "the palette changed");
  await page.reload();
  await page.getByTestId("novel-title").waitFor();
  assert.equal(await theme(), "light", "remembered in localStorage");
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("theme-system").click();
  assert.equal(await theme(), "dark", "back to the system's choice");
  await app.close();
});

test("keyboard shortcuts switch views, open the help, write a scene, stop a run and export", async () => {
  const app = await openApp(env, { novel: true, delayMs: 8, dialog: { save: "/tmp/exports/salt.md" } });
  const { page } = app;
  await page.getByTestId("next-scene").waitFor();
  await page.keyboard.press("Control+3");
  await page.getByTestId("scene").first().waitFor();
  await page.keyboard.press("Control+9");
  await page.getByTestId("provider-row").first().waitFor();
  await page.keyboard.press("Control+2");
  await page.getByTestId("next-scene").waitFor();

  await page.keyboard.press("?");
  await page.getByTestId("shortcuts-dialog").waitFor();
  assert.match(await page.getByTestId("shortcuts-dialog").textContent(), /Ctrl\+Enter.*Write the next scene/);
  await page.keyboard.press("Escape");
  await page.getByTestId("shortcuts-dialog").waitFor({ state: "detached" });
  assert.match(await page.getByTestId("next-scene").getAttribute("title"), /Ctrl\+Enter/, "shortcut in the tooltip");

  await page.keyboard.press("Control+Enter");
  await page.getByTestId("committed-scene").waitFor();
  assert.deepEqual((await app.calls("run_ticks")).map((c) => c.args.n), [1]);

  await page.getByTestId("run-count").fill("3");
  await page.getByTestId("run-n").click();
  await page.getByTestId("stage").waitFor();
  await page.keyboard.press("Escape");
  await page.getByTestId("run-end").waitFor();
  assert.match(await page.getByTestId("run-end").textContent(), /Stopped after 1 scene/);
  const stops = await app.calls("stop_run");
  assert.deepEqual(stops.map((c) => c.args), [{ cancel: false }]);

  // Ctrl+E opens the Export menu with its first format focused; Enter chooses it.
  await page.keyboard.press("Control+e");
  await page.waitForFunction(() => document.activeElement?.dataset.testid === "menu-export-markdown");
  await page.keyboard.press("Enter");
  const toast = page.getByTestId("toast");
  await toast.waitFor();
  assert.equal(await toast.textContent(), "Manuscript (branch “main”) exported to /tmp/exports/salt.md");
  // The page names no file, only the format: the shell asks in its own save dialog.
  assert.deepEqual((await app.calls("export_manuscript")).map((c) => c.args), [{ format: "markdown" }]);
  assert.equal((await app.calls("plugin:dialog|save")).length, 0);
  await app.assertClean(assert);
  await app.close();
});

test("Export offers every format and each goes to the shell with its own extension", async () => {
  const app = await openApp(env, { novel: true, dialog: { save: "/tmp/exports/salt" } });
  const { page } = app;
  await page.getByTestId("export-menu").click();
  const labels = await page.locator("[role=menuitem]").allTextContents();
  assert.deepEqual(labels, ["Markdown.md", "EPUB e-book.epub", "Word manuscript.docx"]);
  await page.getByTestId("menu-export-epub").click();
  await page.getByTestId("toast").waitFor();
  assert.match(await page.getByTestId("toast").textContent(), /exported to \/tmp\/exports\/salt\.epub$/);
  assert.equal(await page.locator("[role=menu]").count(), 0, "the menu closed on the choice");
  await page.getByTestId("export-menu").click();
  await page.getByTestId("menu-export-docx").click();
  await page.getByText("exported to /tmp/exports/salt.docx").waitFor();
  assert.deepEqual((await app.calls("export_manuscript")).map((c) => c.args.format), ["epub", "docx"]);
  await app.assertClean(assert);
  await app.close();
});

test("Export does nothing when the save dialog is dismissed, and explains a failure", async () => {
  const app = await openApp(env, {
    novel: true,
    dialog: { save: "/read-only/salt.md" },
    errors: { export_manuscript: { kind: "storage", message: "Could not write /read-only/salt.md: permission denied" } },
  });
  const { page } = app;
  await page.getByTestId("export-menu").click();
  await page.getByTestId("menu-export-markdown").click();
  await page.getByTestId("toast").waitFor();
  assert.match(await page.getByTestId("toast").textContent(), /Could not export: .*permission denied/);
  await app.close();

  const quiet = await openApp(env, { novel: true, dialog: { save: null } });
  await quiet.page.getByTestId("export-menu").click();
  await quiet.page.getByTestId("menu-export-docx").click();
  await quiet.page.waitForTimeout(100);
  assert.equal(await quiet.page.getByTestId("toast").count(), 0);
  assert.deepEqual((await quiet.calls("export_manuscript")).map((c) => c.args), [{ format: "docx" }], "asked once; the dialog was dismissed");
  await quiet.close();
});

test("an open menu is not covered by a tooltip: its button's title is lifted while it is open", async () => {
  // A native tooltip cannot be placed: shown under the pointer, it hid the menu's first items.
  const app = await openApp(env, { novel: true, scenes: 4 });
  const { page } = app;
  await page.getByTestId("nav-manuscript").click();
  await page.getByTestId("scene").first().waitFor();
  const menus = [page.getByTestId("export-menu"), page.locator('[data-testid="scene"][data-tick="1"]').getByTestId("scene-menu"), page.getByTestId("chapter-menu").first()];
  for (const button of menus) {
    const title = await button.getAttribute("title");
    assert.ok(title, "a closed menu's button explains itself");
    await button.hover();
    await button.click();
    const list = button.locator("xpath=..").getByRole("menu");
    await list.waitFor();
    assert.equal(await button.getAttribute("title"), null, `no tooltip over the open menu (${title})`);
    assert.equal(await button.getAttribute("aria-label"), title, "screen readers still hear what it is");
    // Nor is any item (or what holds it) titled: hovering the items shows no tooltip either.
    const titled = await list.evaluate((ul) => [...ul.querySelectorAll("[role=menuitem]")].filter((i) => i.closest("[title]")).length);
    assert.equal(titled, 0);
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "detached" });
    assert.equal(await button.getAttribute("title"), title, "closed again, the tooltip is back");
  }
  await app.assertClean(assert);
  await app.close();
});
