// The scene editor (CodeMirror): the draft autosaves and comes back after switching views and
// after a reload, with a notice and Discard; Ctrl+Z undoes; find/replace replaces in the text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openEditor(app) {
  await app.page.getByTestId("nav-manuscript").click();
  const first = app.page.locator('[data-testid="scene"][data-tick="1"]');
  await first.getByTestId("edit-scene").click();
  const content = first.getByTestId("scene-editor").locator(".cm-content");
  await content.waitFor();
  return { first, content };
}

test("a draft survives switching views and a reload, with a notice, and Discard drops it", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  let { first, content } = await openEditor(app);
  assert.equal(await content.getAttribute("spellcheck"), "true", "the browser checks spelling");
  assert.equal(await first.getByTestId("draft-notice").count(), 0, "no draft yet");
  await content.fill("A draft not yet saved.");
  assert.equal(await first.getByTestId("editor-words").textContent(), "5 words");
  await page.getByTestId("nav-write").click();
  await page.getByTestId("nav-manuscript").click();
  ({ first, content } = await openEditor(app));
  assert.equal(await content.textContent(), "A draft not yet saved.");
  assert.match(await first.getByTestId("draft-notice").textContent(), /Unsaved draft restored/);

  await content.press("End");
  await content.pressSequentially(" More.");
  await page.waitForTimeout(600);
  await page.reload();
  await page.getByTestId("novel-title").waitFor();
  ({ first, content } = await openEditor(app));
  assert.equal(await content.textContent(), "A draft not yet saved. More.");
  await first.getByTestId("discard-draft").click();
  assert.match(await content.textContent(), /^Rain had found its way/, "back to the scene's own prose");
  assert.equal(await first.getByTestId("draft-notice").count(), 0);
  await page.getByTestId("nav-write").click();
  ({ first, content } = await openEditor(app));
  assert.equal(await first.getByTestId("draft-notice").count(), 0, "a discarded draft does not come back");
  await app.assertClean(assert);
  await app.close();
});

test("Save clears the draft: Edit afterwards shows the saved prose and no notice", async () => {
  const app = await openApp(env, { novel: true, scenes: 1 });
  let { first, content } = await openEditor(app);
  await content.fill("Saved words.");
  await app.page.waitForTimeout(600);
  await first.getByTestId("save-scene").click();
  await first.getByTestId("scene-editor").waitFor({ state: "detached" });
  await app.page.getByTestId("proposal-skip").click();
  ({ first, content } = await openEditor(app));
  assert.equal(await content.textContent(), "Saved words.");
  assert.equal(await first.getByTestId("draft-notice").count(), 0);
  await app.close();
});

test("Ctrl+Z undoes typing, and find/replace replaces every match in the editor", async () => {
  const app = await openApp(env, { novel: true, scenes: 1 });
  const { first, content } = await openEditor(app);
  await content.fill("Bram ran. Bram fell.");
  // Typing after a pause is a new step in the history (CodeMirror groups edits within 500 ms).
  await app.page.waitForTimeout(700);
  await content.press("End");
  await content.pressSequentially(" Gone.");
  assert.equal(await content.textContent(), "Bram ran. Bram fell. Gone.");
  await content.press("Control+z");
  assert.equal(await content.textContent(), "Bram ran. Bram fell.");

  await content.press("Control+f");
  const panel = first.locator(".cm-search");
  await panel.locator('input[name="search"]').fill("Bram");
  await panel.locator('input[name="replace"]').fill("Silas");
  await panel.locator('button[name="replaceAll"]').click();
  assert.equal(await content.textContent(), "Silas ran. Silas fell.");
  // Escape in the panel closes the panel, not the editor.
  await panel.locator('input[name="search"]').press("Escape");
  await panel.waitFor({ state: "detached" });
  assert.ok(await first.getByTestId("scene-editor").isVisible(), "still editing");
  await first.getByTestId("save-scene").click();
  assert.deepEqual((await app.calls("save_scene")).map((c) => c.args), [{ tick: 1, prose: "Silas ran. Silas fell." }]);
  await app.close();
});

test("the reader shows *italics* as <em>, **bold** as <strong>, curly quotes and dashes, and markup as text", async () => {
  const app = await openApp(env, { novel: true, scenes: 1 });
  const { first, content } = await openEditor(app);
  await content.fill(`"Stay," she said -- and *left*. It's **over**... <b onclick="x">no</b> _gone_`);
  await first.getByTestId("save-scene").click();
  await first.getByTestId("scene-editor").waitFor({ state: "detached" });
  await app.page.getByTestId("proposal-skip").click();
  const prose = first.getByTestId("scene-prose");
  assert.equal(await prose.textContent(), `“Stay,” she said – and left. It’s over… <b onclick=“x”>no</b> gone`);
  assert.deepEqual(await prose.locator("em").allTextContents(), ["left", "gone"]);
  assert.deepEqual(await prose.locator("strong").allTextContents(), ["over"]);
  assert.equal(await prose.locator("b").count(), 0, "raw HTML is never an element");
  // The editor keeps the Markdown as typed, and shows the emphasis styled.
  await first.getByTestId("edit-scene").click();
  const em = first.locator(".cm-content span").filter({ hasText: /^\*left\*$|^left$/ }).first();
  assert.equal(await em.evaluate((e) => getComputedStyle(e).fontStyle), "italic");
  await app.assertClean(assert);
  await app.close();
});

test("a restored draft taken from older prose says the scene has changed since", async () => {
  const app = await openApp(env, { novel: true, scenes: 1 });
  const { page } = app;
  let { first, content } = await openEditor(app);
  await content.fill("Draft words.");
  await page.getByTestId("nav-write").click();
  // The scene's prose moved on after the draft was taken (as a rewrite elsewhere would do).
  const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes(":draft:")));
  assert.equal(keys.length, 1, "one draft stored");
  await page.evaluate((k) => localStorage.setItem(k, JSON.stringify({ ...JSON.parse(localStorage.getItem(k)), base: "Older prose." })), keys[0]);
  ({ first, content } = await openEditor(app));
  assert.equal(await content.textContent(), "Draft words.");
  assert.match(await first.getByTestId("draft-notice").textContent(), /Unsaved draft restored\. The scene has changed since this draft was taken\./);
  await app.close();
});
