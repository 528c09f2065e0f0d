// Split here: in the scene editor, the scene is cut at the cursor — inside a paragraph the
// paragraph is split, unsaved edits go with it, the place is sent in characters (an emoji is
// one), and with no text on one side of the cursor there is nothing to split.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

test("Split here cuts the edited scene at the cursor, mid-paragraph", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  await page.getByTestId("nav-manuscript").click();
  const first = page.locator('[data-testid="scene"][data-tick="1"]');
  await first.getByTestId("edit-scene").click();
  const content = first.getByTestId("scene-editor").locator(".cm-content");
  await content.waitFor();
  const split = first.getByTestId("split-here");
  await content.fill("🌧 Rain on the quay. The watch came later.\n\nBram waited.");
  assert.equal(await split.isDisabled(), true, "the cursor at the end: nothing after it");
  await page.keyboard.press("Control+Home");
  assert.equal(await split.isDisabled(), true, "the cursor at the start: nothing before it");
  for (let i = 0; i < "🌧 Rain on the quay. ".length - 1; i++) await page.keyboard.press("ArrowRight");
  assert.equal(await split.isDisabled(), false);

  await split.click();
  await first.getByTestId("scene-editor").waitFor({ state: "detached" });
  const [call] = await app.calls("shape_book");
  assert.deepEqual(call.args.change, { change: "split_at", scene: 1, prose: "🌧 Rain on the quay. The watch came later.\n\nBram waited.", at: 20 });
  assert.equal(await first.getByTestId("scene-prose").textContent(), "🌧 Rain on the quay.");
  const second = page.locator('[data-testid="scene"][data-tick="2"]');
  assert.equal(await second.getByTestId("scene-title").textContent(), "Low Tide (continued)");
  assert.deepEqual(await second.getByTestId("scene-prose").locator("p").allTextContents(), ["The watch came later.", "Bram waited."]);
  assert.equal(await page.getByTestId("scene").count(), 3);
  await app.assertClean(assert);
  await app.close();
});
