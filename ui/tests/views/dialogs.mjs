// Modal dialogs keep the keyboard: Tab and Shift+Tab cycle inside the open dialog, Escape
// closes only the topmost one, and focus goes back to the control that opened it (the
// shortcuts help, the branches panel, the new-branch dialog inside it, a confirmation, the
// replace-name dialog).
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

const focused = (page) => page.evaluate(() => document.activeElement?.dataset.testid ?? document.activeElement?.id ?? document.activeElement?.tagName);
const inside = (page, testId) => page.evaluate((id) => document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement) ?? false, testId);

/** Presses `key` `times` times and checks after each press that focus is still in `testId`. */
async function staysIn(page, testId, key, times) {
  const seen = new Set();
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(key);
    assert.ok(await inside(page, testId), `${key} #${i + 1} left ${testId}`);
    seen.add(await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80)));
  }
  return seen.size;
}

test("the shortcuts help keeps focus, closes on Escape and gives focus back", async () => {
  const app = await openApp(env, { novel: true });
  const { page } = app;
  await page.getByTestId("shortcuts-help").click();
  await page.getByTestId("shortcuts-dialog").waitFor();
  await staysIn(page, "shortcuts-dialog", "Tab", 3);
  await staysIn(page, "shortcuts-dialog", "Shift+Tab", 3);
  await page.keyboard.press("Escape");
  await page.getByTestId("shortcuts-dialog").waitFor({ state: "detached" });
  assert.equal(await focused(page), "shortcuts-help");
  await app.assertClean(assert);
  await app.close();
});

test("a dialog opened inside the branches panel owns Tab and Escape; each gives focus back", async () => {
  const app = await openApp(env, { novel: true });
  const { page } = app;
  await page.getByTestId("branch-button").click();
  await page.getByTestId("branches-panel").waitFor();
  const panelStops = await staysIn(page, "branches-panel", "Tab", 8);
  assert.ok(panelStops >= 2, "Tab moves between the panel's controls");

  await page.getByTestId("branches-new").click();
  await page.getByTestId("new-branch-dialog").waitFor();
  assert.equal(await focused(page), "new-branch-name", "the name field is focused first");
  const stops = await staysIn(page, "new-branch-dialog", "Tab", 6);
  assert.ok(stops >= 3, `Tab cycles through the dialog's controls (${stops})`);
  await page.getByTestId("new-branch-name").focus();
  await page.keyboard.press("Shift+Tab");
  assert.ok(await inside(page, "new-branch-dialog"), "Shift+Tab from the first control wraps to the last");
  await page.keyboard.press("Escape");
  await page.getByTestId("new-branch-dialog").waitFor({ state: "detached" });
  assert.equal(await page.getByTestId("branches-panel").count(), 1, "Escape closed only the top dialog");
  assert.equal(await focused(page), "branches-new");

  // A new branch, so that main can be deleted: the confirmation traps and restores too.
  await page.getByTestId("branches-new").click();
  await page.getByTestId("new-branch-name").fill("what if");
  await page.keyboard.press("Enter");
  await page.getByTestId("new-branch-dialog").waitFor({ state: "detached" });
  if ((await page.getByTestId("branches-panel").count()) === 0) await page.getByTestId("branch-button").click();
  const del = page.locator('[data-branch="main"] [data-testid="branch-delete"]');
  await del.click();
  await page.getByTestId("confirm-dialog").waitFor();
  assert.equal(await focused(page), "confirm-no", "Cancel is focused first");
  await staysIn(page, "confirm-dialog", "Tab", 4);
  await page.keyboard.press("Escape");
  await page.getByTestId("confirm-dialog").waitFor({ state: "detached" });
  assert.equal(await focused(page), "branch-delete");
  assert.equal(await page.getByTestId("branches-panel").count(), 1);
  await page.keyboard.press("Escape");
  await page.getByTestId("branches-panel").waitFor({ state: "detached" });
  assert.equal(await focused(page), "branch-button");
  assert.equal((await app.calls("delete_branch")).length, 0);
  await app.assertClean(assert);
  await app.close();
});

test("the replace-name dialog keeps focus and gives it back on Escape", async () => {
  const app = await openApp(env, { novel: true });
  const { page } = app;
  await page.getByTestId("replace-name").click();
  await page.getByTestId("replace-name-dialog").waitFor();
  assert.ok(await inside(page, "replace-name-dialog"), "focus moves into the dialog");
  await staysIn(page, "replace-name-dialog", "Tab", 6);
  await page.keyboard.press("Escape");
  await page.getByTestId("replace-name-dialog").waitFor({ state: "detached" });
  assert.equal(await focused(page), "replace-name");
  await app.assertClean(assert);
  await app.close();
});
