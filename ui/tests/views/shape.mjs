// Shaping the book by hand in the manuscript: a scene added between two scenes and written in
// the prose editor (then offered for a re-read), moved with the scene menu (the keyboard's way)
// and by dragging in the contents, split, merged, renamed, deleted and brought back with Undo
// in the toast, and a chapter deleted from its menu; refusals are said in the form.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openReader(scenario) {
  const app = await openApp(env, { novel: true, ...scenario });
  await app.page.getByTestId("nav-manuscript").click();
  await app.page.getByTestId("scene").first().waitFor();
  return app;
}

const titles = (page) => page.getByTestId("scene-title").allTextContents();
const scene = (page, tick) => page.locator(`[data-testid="scene"][data-tick="${tick}"]`);
async function menu(page, tick, item) {
  await scene(page, tick).getByTestId("scene-menu").click();
  await page.getByTestId(`menu-${item}`).click();
}
async function waitTitles(page, expected) {
  await page.waitForFunction((want) => JSON.stringify([...document.querySelectorAll('[data-testid="scene-title"]')].map((e) => e.textContent)) === want, JSON.stringify(expected));
}

test("a scene written by hand goes in between scenes 2 and 3, is offered a re-read, and Undo takes it out", async () => {
  const app = await openReader({ scenes: 3 });
  const { page } = app;
  const before = await titles(page);
  assert.equal(await page.getByTestId("add-scene-here").count(), 4, "before the first scene and after each");
  await page.locator('[data-testid="add-scene-here"][data-after="2"]').click();
  const form = page.getByTestId("new-scene");
  assert.match(await form.textContent(), /New scene 3/);
  assert.equal(await form.getByTestId("ask-agent").count(), 0, "the agent writes only at the end");
  // Nothing empty is sent.
  await form.getByTestId("add-scene").click();
  assert.match(await form.getByTestId("new-scene-error").textContent(), /title/);
  await form.getByTestId("new-scene-title").fill("The Tide Table");
  await form.locator(".cm-content").fill("Tamsin read the tide table twice.\n\nThen she went down to the water.");
  await form.getByTestId("add-scene").click();
  await waitTitles(page, [before[0], before[1], "The Tide Table", before[2]]);
  assert.deepEqual((await app.calls("shape_book")).map((c) => c.args.change), [
    { change: "add", place: { kind: "before", at: 3 }, title: "The Tide Table", prose: "Tamsin read the tide table twice.\n\nThen she went down to the water." },
  ]);
  assert.match(await page.getByTestId("toast").textContent(), /^Scene 3 added\.Undo$/);
  // The memory follows as after an edit: a re-read of the new scene is offered.
  assert.match(await page.getByTestId("memory-proposal").textContent(), /scene 3/);
  await page.getByTestId("proposal-skip").click();
  assert.deepEqual(await page.getByTestId("toc-item").evaluateAll((els) => els.map((e) => e.dataset.tick)), ["1", "2", "3", "4"]);

  await page.getByTestId("toast-action").click();
  await waitTitles(page, before);
  assert.equal((await app.calls("undo_change")).length, 1);
  assert.match(await page.getByTestId("toast").textContent(), /Undone: scene 3 added/);

  // At the end of the book the agent may write the scene instead.
  await page.locator('[data-testid="add-scene-here"][data-after="3"]').click();
  await page.getByTestId("ask-agent").click();
  await page.getByTestId("next-scene").waitFor();
  await app.assertClean(assert);
  await app.close();
});

test("Move up and down in the scene menu reorder the book, and a scene dragged in the contents lands before another", async () => {
  const app = await openReader({ scenes: 3 });
  const { page } = app;
  const [a, b, c] = await titles(page);
  // Scene 1 opens the book: it cannot move up.
  await scene(page, 1).getByTestId("scene-menu").click();
  assert.equal(await page.getByTestId("menu-move-up").count(), 0);
  await page.getByTestId("menu-move-down").click();
  await waitTitles(page, [b, a, c]);
  assert.deepEqual((await app.calls("shape_book")).at(-1).args.change, { change: "move", scene: 1, place: { kind: "before", at: 3 } });
  assert.match(await page.getByTestId("toast").textContent(), /Scene 1 moved to 2/);
  await menu(page, 2, "move-up");
  await waitTitles(page, [a, b, c]);

  await page.locator('[data-testid="toc-item"][data-tick="3"]').dragTo(page.locator('[data-testid="toc-item"][data-tick="1"]'));
  await waitTitles(page, [c, a, b]);
  assert.deepEqual((await app.calls("shape_book")).at(-1).args.change, { change: "move", scene: 3, place: { kind: "before", at: 1 } });
  await app.assertClean(assert);
  await app.close();
});

test("split at a paragraph, merge with the next, rename, and delete with Undo in the toast", async () => {
  const app = await openReader({ scenes: 2 });
  const { page } = app;
  const [a, b] = await titles(page);
  await menu(page, 1, "split");
  const split = page.getByTestId("scene-split-form");
  assert.equal(await split.locator("option").count(), 5, "six paragraphs: five places to split");
  await split.getByTestId("scene-split-at").selectOption("2");
  await split.getByTestId("shape-submit").click();
  await waitTitles(page, [a, `${a} (continued)`, b]);
  assert.equal(await scene(page, 1).locator('[data-testid="scene-prose"] p').count(), 2);
  assert.match(await page.getByTestId("memory-proposal").textContent(), /scene 1/);
  await page.getByTestId("proposal-skip").click();

  await menu(page, 1, "merge");
  await waitTitles(page, [a, b]);
  assert.equal(await scene(page, 1).locator('[data-testid="scene-prose"] p').count(), 6);
  await page.getByTestId("proposal-skip").click();
  // The last scene has no next one to merge with.
  await scene(page, 2).getByTestId("scene-menu").click();
  assert.equal(await page.getByTestId("menu-merge").count(), 0);
  await page.keyboard.press("Escape");

  await menu(page, 2, "rename");
  await page.getByTestId("scene-rename-input").fill("  ");
  await page.getByTestId("shape-submit").click();
  assert.match(await page.getByTestId("shape-error").textContent(), /needs a title/);
  await page.getByTestId("scene-rename-input").fill("Low Water");
  await page.getByTestId("shape-submit").click();
  await waitTitles(page, [a, "Low Water"]);

  await menu(page, 1, "delete");
  await waitTitles(page, ["Low Water"]);
  assert.match(await page.getByTestId("toast").textContent(), /Scene 1 deleted/);
  await page.getByTestId("toast-action").click();
  await waitTitles(page, [a, "Low Water"]);
  await app.assertClean(assert);
  await app.close();
});

test("a chapter is deleted with its scenes from its menu, and comes back with Undo", async () => {
  const app = await openReader({ scenes: 6 });
  const { page } = app;
  const before = await titles(page);
  const second = page.locator('[data-testid="toc-chapter"][data-chapter="2"]');
  await second.getByTestId("chapter-menu").click();
  await page.getByTestId("menu-chapter-delete").click();
  await waitTitles(page, before.slice(0, 3));
  assert.match(await page.getByTestId("toast").textContent(), /Chapter 2 deleted/);
  await page.getByTestId("toast-action").click();
  await waitTitles(page, before);
  await app.assertClean(assert);
  await app.close();
});

test("the agent writes a scene from a note between scenes 2 and 3; a failure is said in the form and changes nothing", async () => {
  const failed = { kind: "provider", message: "The agent could not write the scene; the book is unchanged. The server did not answer." };
  const app = await openReader({ scenes: 3, errorsOnce: { write_scene_at: failed } });
  const { page } = app;
  const before = await titles(page);
  await page.locator('[data-testid="add-scene-here"][data-after="2"]').click();
  assert.equal(await page.getByTestId("new-scene").count(), 1, "writing it yourself comes first");
  await page.getByTestId("agent-writes-it").click();
  const form = page.getByTestId("agent-scene");
  assert.match(await form.textContent(), /What happens in scene 3/);
  // Nothing empty is sent.
  await form.getByTestId("agent-scene-write").click();
  assert.match(await form.getByTestId("agent-scene-error").textContent(), /what happens/);
  const note = "Tamsin finds the tide table in the lamp room. She hides it from Bram.";
  await form.getByTestId("agent-scene-note").fill(note);
  await form.getByTestId("agent-scene-write").click();
  assert.match(await form.getByTestId("agent-scene-error").textContent(), /the book is unchanged/);
  assert.deepEqual(await titles(page), before);

  await form.getByTestId("agent-scene-write").click();
  await form.getByTestId("agent-scene-progress").waitFor();
  assert.match(await form.getByTestId("agent-scene-progress").textContent(), /The agent is writing scene 3 from your note/);
  if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT });
  await waitTitles(page, [before[0], before[1], "Tamsin finds the tide table in the lamp room", before[2]]);
  assert.deepEqual(
    (await app.calls("write_scene_at")).map((c) => c.args),
    [1, 2].map(() => ({ place: { kind: "before", at: 3 }, note })),
  );
  assert.match(await page.getByTestId("toast").textContent(), /^Scene 3 written from your note\.Undo$/);
  // Its memory follows as for a scene written by hand: a re-read is offered.
  assert.match(await page.getByTestId("memory-proposal").textContent(), /scene 3/);
  await page.getByTestId("proposal-skip").click();
  await page.getByTestId("toast-action").click();
  await waitTitles(page, before);
  await app.close();
});
