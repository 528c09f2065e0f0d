// Manuscript: scenes in order with titles and meta, the contents by chapter and part (jumps), markup in
// prose is shown as text and runs nothing, Edit + Save (button and Ctrl+S), and 300 scenes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();
// The checks' headings as the engine exports them with the bindings (one wording, Rust's).
const CHECK_HEADINGS = JSON.parse(
  readFileSync(new URL("../../src/bindings.ts", import.meta.url), "utf8").match(/export const CHECK_HEADINGS = (\{.*?\}) as const;/)[1],
);

async function openReader(scenario) {
  const app = await openApp(env, { novel: true, ...scenario });
  await app.page.getByTestId("nav-manuscript").click();
  await app.page.getByTestId("scene").first().waitFor();
  return app;
}

test("the reader lists every scene in order with its title, POV, place and words", async () => {
  const app = await openReader({ scenes: 3 });
  const { page } = app;
  assert.deepEqual(await page.getByTestId("scene").evaluateAll((els) => els.map((e) => e.dataset.tick)), ["1", "2", "3"]);
  assert.deepEqual(await page.getByTestId("scene-title").allTextContents(), ["Low Tide", "The Salt Gate", "Bells Before the Storm"]);
  assert.match(await page.locator(".scene-meta").first().textContent(), /Tamsin Vale · Rainmarket Docks · \d+ words/);
  assert.equal(await page.getByTestId("scene-prose").first().locator("p").count(), 6, "one paragraph per blank-line block");
  const font = await page.getByTestId("scene-prose").first().evaluate((e) => getComputedStyle(e).fontFamily);
  assert.match(font, /serif/i, "the prose is set in a serif");
  assert.deepEqual(await page.getByTestId("toc-item").allTextContents(), ["1Low Tide", "2The Salt Gate", "3Bells Before the Storm"]);
  await app.assertClean(assert);
  await app.close();
});

test("prose with <script> and <img onerror> is shown as text and runs nothing", async () => {
  const app = await openReader({ scenes: 1, hostile: true });
  const { page } = app;
  const prose = await page.getByTestId("scene-prose").textContent();
  // The markup is text, only its quotes made typographic by the reader.
  assert.ok(prose.includes("<script>window.__pwned = “script”</script>"), prose);
  assert.ok(prose.includes("<img src=“x” onerror=“window.__pwned = ‘img’”>"), prose);
  assert.equal(await page.locator('[data-testid="scene-prose"] img, [data-testid="scene-prose"] script').count(), 0);
  assert.equal(await page.locator("img").count(), 0, "no image element anywhere");
  await page.waitForTimeout(50);
  assert.equal(await page.evaluate(() => window.__pwned ?? null), null, "nothing ran");
  await app.assertClean(assert);
  await app.close();
});

test("Edit then Save replaces a scene's prose; Ctrl+S saves and Escape cancels", async () => {
  const app = await openReader({ scenes: 2 });
  const { page } = app;
  const second = page.locator('[data-testid="scene"][data-tick="2"]');
  await second.getByTestId("edit-scene").click();
  const editor = second.getByTestId("scene-editor").locator(".cm-content");
  assert.match(await editor.textContent(), /^Rain had found its way/);
  await editor.fill("The tide went out.\n\nBram did not come back.");
  await second.getByTestId("save-scene").click();
  await second.getByTestId("scene-editor").waitFor({ state: "detached" });
  assert.deepEqual(await second.locator('[data-testid="scene-prose"] p').allTextContents(), ["The tide went out.", "Bram did not come back."]);
  assert.deepEqual((await app.calls("save_scene")).map((c) => c.args), [{ tick: 2, prose: "The tide went out.\n\nBram did not come back." }]);
  assert.match(await page.getByTestId("toast").textContent(), /Scene 2 saved/);
  // Each save offers to re-read the scene into memory; "Not now" leaves the memory as it was.
  await page.getByTestId("proposal-skip").click();

  const first = page.locator('[data-testid="scene"][data-tick="1"]');
  await first.getByTestId("edit-scene").click();
  await first.getByTestId("scene-editor").locator(".cm-content").fill("Shorter.");
  await first.getByTestId("scene-editor").locator(".cm-content").press("Control+s");
  await first.getByTestId("scene-editor").waitFor({ state: "detached" });
  assert.equal(await first.getByTestId("scene-prose").textContent(), "Shorter.");
  await page.getByTestId("proposal-skip").click();

  await first.getByTestId("edit-scene").click();
  await first.getByTestId("scene-editor").locator(".cm-content").fill("Not kept.");
  await first.getByTestId("scene-editor").locator(".cm-content").press("Escape");
  // Changed text is not thrown away on one key: Cancel asks first.
  await first.getByTestId("confirm-discard").click();
  await first.getByTestId("scene-editor").waitFor({ state: "detached" });
  assert.equal(await first.getByTestId("scene-prose").textContent(), "Shorter.");
  assert.equal((await app.calls("save_scene")).length, 2);
  assert.equal((await app.calls("propose_scene_memory")).length, 0);
  await app.assertClean(assert);
  await app.close();
});

test("an empty edit is refused, and a save error is shown in the editor", async () => {
  const app = await openReader({ scenes: 1, errors: { save_scene: { kind: "busy", message: "A scene is being written. Wait for it to finish, or press Stop." } } });
  const { page } = app;
  await page.getByTestId("edit-scene").click();
  await page.getByTestId("scene-editor").locator(".cm-content").fill("   ");
  await page.getByTestId("save-scene").click();
  assert.match(await page.locator(".scene-editing .field-error").textContent(), /cannot be empty/);
  assert.equal((await app.calls("save_scene")).length, 0);
  await page.getByTestId("scene-editor").locator(".cm-content").fill("New words.");
  await page.getByTestId("save-scene").click();
  await page.getByText("A scene is being written").waitFor();
  assert.ok(await page.getByTestId("scene-editor").isVisible(), "the edit is kept");
  await app.close();
});

test("300 scenes render, skip off-screen layout, and the contents jump to the last", async () => {
  const app = await openReader({ scenes: 300 });
  const { page } = app;
  assert.equal(await page.getByTestId("scene").count(), 300);
  assert.equal(await page.getByTestId("toc-item").count(), 300);
  assert.equal(await page.getByTestId("scene").first().evaluate((e) => getComputedStyle(e).contentVisibility), "auto");
  await page.locator('[data-testid="toc-item"][data-tick="300"]').click();
  const last = page.locator('[data-testid="scene"][data-tick="300"]');
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid="scene"][data-tick="300"]');
    const reader = document.querySelector('[data-testid="reader"]');
    const r = el.getBoundingClientRect();
    const box = reader.getBoundingClientRect();
    return r.top >= box.top - 1 && r.top < box.top + 200;
  });
  assert.ok(await last.getByTestId("scene-title").isVisible());
  await app.close();
});

test("the reader refreshes itself as a run commits scenes (novel-changed events)", async () => {
  const app = await openApp(env, { novel: true, scenes: 1, delayMs: 6 });
  const { page } = app;
  await page.getByTestId("run-count").fill("2");
  await page.getByTestId("run-n").click();
  await page.getByTestId("nav-manuscript").click();
  await page.getByTestId("scene").first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene"]').length === 3, null, { timeout: 10000 });
  assert.deepEqual(await page.getByTestId("toc-item").evaluateAll((els) => els.map((e) => e.dataset.tick)), ["1", "2", "3"]);
  assert.ok((await app.calls("manuscript")).length >= 2, "reloaded without leaving the view");
  await app.close();
});

test("the contents group scenes by chapter under their part, and a chapter opens with its heading", async () => {
  const app = await openReader({ scenes: 7 });
  const { page } = app;
  await page.getByTestId("toc-chapter").first().waitFor();
  const chapters = await page.getByTestId("toc-chapter").evaluateAll((els) =>
    els.map((c) => ({
      title: c.querySelector('[data-testid="toc-chapter-title"]').textContent,
      scenes: Array.from(c.querySelectorAll('[data-testid="toc-item"]')).map((s) => s.dataset.tick),
    })),
  );
  assert.deepEqual(chapters, [
    { title: "1The Quay", scenes: ["1", "2", "3"] },
    { title: "2Under the Salt Gate", scenes: ["4", "5", "6"] },
    { title: "3Storm Bells", scenes: ["7"] },
  ]);
  assert.deepEqual(await page.getByTestId("toc-part").allTextContents(), ["Part One: Low Water"]);
  assert.equal(await page.getByTestId("toc-item").count(), 7, "every scene listed once");
  // A proposed title looks like one.
  assert.equal(await page.locator('.toc [data-chapter="2"] .toc-chapter-title .toc-title').evaluate((e) => getComputedStyle(e).fontStyle), "italic");

  // In the reader each chapter opens with its heading, right before its first scene.
  const order = await page.locator('[data-testid="reader"] > [data-testid="chapter-heading"], [data-testid="reader"] > [data-testid="scene"]').evaluateAll((els) =>
    els.map((e) => (e.dataset.testid === "chapter-heading" ? `chapter ${e.dataset.chapter}` : e.dataset.tick)),
  );
  assert.deepEqual(order, ["chapter 1", "1", "2", "3", "chapter 2", "4", "5", "6", "chapter 3", "7"]);

  // A chapter jumps to its first scene.
  await page.locator('[data-chapter="3"] [data-testid="toc-chapter-title"]').click();
  await page.waitForFunction(() => {
    const r = document.querySelector('[data-testid="scene"][data-tick="7"]').getBoundingClientRect();
    const box = document.querySelector('[data-testid="reader"]').getBoundingClientRect();
    return r.top >= box.top - 1 && r.top < box.top + 200;
  });
  await app.assertClean(assert);
  await app.close();
});

test("Check runs every check on a scene as it stands, and again after the writer's edit", async () => {
  const app = await openReader({ scenes: 2 });
  const { page } = app;
  const first = page.locator('[data-testid="scene"][data-tick="1"]');
  await first.getByTestId("check-scene").click();
  const panel = first.getByTestId("checks-panel");
  await panel.getByTestId("scene-findings").waitFor();
  assert.equal(await panel.getByTestId("scene-findings").textContent(), "The checks found nothing to fix.");
  assert.equal(await panel.getByTestId("checks-summary").count(), 0);
  assert.equal(await first.getByTestId("check-scene").getAttribute("aria-expanded"), "true");

  await first.getByTestId("edit-scene").click();
  await first.getByTestId("scene-editor").locator(".cm-content").fill("The bell rang twice. Silas Crane was dead, and the harbour knew it. Tamsin walks to the door.");
  await first.getByTestId("save-scene").click();
  await page.getByTestId("proposal-skip").click();
  // The open panel checks the edited prose: the planted break is listed with its check's name,
  // and the uncertain case apart from it, as a note the revision leaves alone.
  await panel.locator('.finding[data-severity="violation"]').waitFor();
  assert.match(await panel.getByTestId("checks-summary").textContent(), /^1 problem the agent would revise, 1 other note/);
  const fix = panel.locator('[data-group="violation"]');
  assert.equal(await fix.locator(".findings-group-title").textContent(), "To fix");
  assert.match(await fix.locator(".finding-check").textContent(), /Knows what happened off-page/);
  assert.match(await fix.locator(".finding-excerpt").textContent(), /Silas Crane was dead/);
  const notes = panel.locator('[data-group="note"]');
  assert.match(await notes.locator(".findings-group-title").textContent(), /^Notes/);
  assert.equal(await notes.locator(".finding").count(), 1);
  assert.match(await notes.locator(".finding-check").textContent(), /Tense/);
  // The headings are the bindings' own words.
  assert.equal(await fix.locator(".finding-check").textContent(), CHECK_HEADINGS.off_page);
  assert.equal(await notes.locator(".finding-check").textContent(), CHECK_HEADINGS.tense_drift);
  assert.equal(await fix.locator('.finding[data-severity="note"]').count(), 0, "notes are not listed with what to fix");

  // Without the uncertain sentence the summary counts the problem alone ("0 other notes" was
  // said before).
  await first.getByTestId("edit-scene").click();
  await first.getByTestId("scene-editor").locator(".cm-content").fill("The bell rang twice. Silas Crane was dead, and the harbour knew it.");
  await first.getByTestId("save-scene").click();
  await page.getByTestId("proposal-skip").click();
  await panel.locator('[data-group="note"]').waitFor({ state: "detached" });
  assert.equal(await panel.getByTestId("checks-summary").textContent(), "1 problem the agent would revise.");
  assert.equal(await panel.locator(".findings-group-title").count(), 0, "one group needs no heading");
  assert.ok((await app.calls("check_scene")).every((c) => c.args.tick === 1));
  assert.ok((await app.calls("check_scene")).length >= 2, "checked again after the edit");

  await panel.getByRole("button", { name: "Close the checks" }).click();
  await panel.waitFor({ state: "detached" });
  await app.assertClean(assert);
  await app.close();
});

test("a chapter is renamed, split before a scene, merged back and given a part heading from the contents", async () => {
  const app = await openReader({ scenes: 7 });
  const { page } = app;
  const chapterTitles = () => page.getByTestId("toc-chapter-title").allTextContents();
  await page.getByTestId("toc-chapter").first().waitFor();
  const second = () => page.locator('[data-testid="toc-chapter"][data-chapter="2"]');

  // Rename: an empty title is refused with the engine's reason, then a title is kept.
  await second().getByTestId("chapter-menu").click();
  await page.getByTestId("menu-chapter-rename").click();
  await second().getByTestId("chapter-title-input").fill("  ");
  await second().getByTestId("chapter-apply").click();
  assert.match(await second().getByTestId("chapter-error").textContent(), /needs a title/);
  await second().getByTestId("chapter-title-input").fill("The Salt Gate");
  await second().getByTestId("chapter-apply").click();
  await page.waitForFunction(() => document.querySelector('[data-chapter="2"] [data-testid="toc-chapter-title"]').textContent === "2The Salt Gate");

  // Split chapter 2 before scene 5: a new chapter 3 from scene 5 on.
  await second().getByTestId("chapter-menu").click();
  await page.getByTestId("menu-chapter-split").click();
  await second().getByTestId("chapter-split-at").selectOption("5");
  await second().getByTestId("chapter-apply").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="toc-chapter"]').length === 4);
  const scenesOf = (n) => page.locator(`[data-testid="toc-chapter"][data-chapter="${n}"] [data-testid="toc-item"]`).evaluateAll((els) => els.map((e) => e.dataset.tick));
  assert.deepEqual(await scenesOf(2), ["4"]);
  assert.deepEqual(await scenesOf(3), ["5", "6"]);

  // Merge it back; the merged chapter keeps the writer's title.
  await second().getByTestId("chapter-menu").click();
  await page.getByTestId("menu-chapter-merge").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="toc-chapter"]').length === 3);
  assert.deepEqual(await scenesOf(2), ["4", "5", "6"]);
  assert.deepEqual(await chapterTitles(), ["1The Quay", "2The Salt Gate", "3Storm Bells"]);

  // A part heading opens at chapter 3.
  const third = page.locator('[data-testid="toc-chapter"][data-chapter="3"]');
  await third.getByTestId("chapter-menu").click();
  await page.getByTestId("menu-chapter-part").click();
  await third.getByTestId("chapter-title-input").fill("Part Two: High Water");
  await third.getByTestId("chapter-apply").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="toc-part"]').length === 2);
  assert.deepEqual(await page.getByTestId("toc-part").allTextContents(), ["Part One: Low Water", "Part Two: High Water"]);
  assert.deepEqual(
    (await app.calls("change_chapter")).map((c) => c.args.change),
    [
      { change: "rename", chapter: 2, title: "  " },
      { change: "rename", chapter: 2, title: "The Salt Gate" },
      { change: "split", chapter: 2, at_tick: 5 },
      { change: "merge", chapter: 2 },
      { change: "part", chapter: 3, title: "Part Two: High Water" },
    ],
  );
  await app.assertClean(assert);
  await app.close();
});
