// The writer in control, in the real app against the test server: Regenerate writes the
// latest scene again and keeps the old one as a version; Rewind (after the shell's native
// question) removes the later scenes, and the branches panel switches back to the branch that
// kept them; review mode shows the memory changes, and a change left unticked is not applied.
import { test } from "node:test";
import assert from "node:assert/strict";
import { launchApp, attrsOf, click, textOf, waitForAttrs, waitForText } from "./support/app.mjs";
import { fixture, startServer, storyScript, providerConfig } from "./support/server.mjs";
import { answerMessageDialog, createNovelThroughForm, nextScene } from "./support/journey.mjs";

const OPENING = "Rain had found its way under Tamsin's collar again.";
const AGAIN_OPENING = "The bells rang twice before Tamsin reached the quay, and she knew at once that Bram had gone.";

/** Clicks the `item` of scene `tick`'s menu in the reader. */
async function sceneMenu(b, tick, item) {
  const scene = await b.$(`[data-testid="scene"][data-tick="${tick}"]`);
  await scene.waitForExist({ timeout: 15000 });
  const more = await scene.$('[data-testid="scene-menu"]');
  await more.scrollIntoView({ block: "center" });
  await more.waitForClickable({ timeout: 15000 });
  await more.click();
  await click(b, `menu-${item}`);
}

test("Regenerate shows a new scene and keeps the old one as a version; Rewind removes later scenes and a branch brings them back", async () => {
  const text = fixture("prose.txt");
  assert.ok(text.startsWith(OPENING));
  const prose = { type: "text", content: text, chunk_delay_ms: 5 };
  const again = { type: "text", content: text.replace(OPENING, AGAIN_OPENING), chunk_delay_ms: 5 };
  const server = await startServer(storyScript({ writer: [prose, prose, again] }));
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);
    await nextScene(b);
    await nextScene(b);
    await waitForText(b, "novel-stats", (t) => t.startsWith("2 scenes"));

    // Regenerate with the keyboard shortcut: scene 2 again, the earlier text kept.
    await b.keys(["Control", "Shift", "Enter"]);
    await waitForText(b, "regenerated", (t) => t.includes("Scene 2 was written again"), 60000);
    assert.match(await waitForText(b, "novel-stats", (t) => t.length > 0), /^2 scenes/, "no new scene");
    await click(b, "open-versions");
    // The old scene, then what was written again (its first draft too, when it was revised).
    const origins = await waitForAttrs(b, "version-row", "data-origin", (o) => o.includes("regeneration"));
    assert.equal(origins[0], "revision", JSON.stringify(origins));
    assert.equal(origins[origins.length - 1], "regeneration", JSON.stringify(origins));
    const current = await attrsOf(b, "version-row", "data-current");
    assert.deepEqual(current, origins.map((_, i) => String(i === origins.length - 1)), "the new text is the one shown");
    // The old text beside the new: the changed opening struck out on one side, marked on the other.
    await waitForText(b, "diff-new", (t) => t.includes("Bram had gone"));
    const marked = (side, kind) =>
      b.execute(
        (s, k) => Array.from(document.querySelectorAll(`[data-testid="diff-${s}"] [data-testid="diff-${k}"]`), (e) => e.textContent).join(" "),
        side,
        kind,
      );
    const removed = await marked("old", "removed");
    const added = await marked("new", "added");
    assert.match(removed, /Rain/);
    assert.match(removed, /collar/);
    assert.doesNotMatch(removed, /bells|Bram/);
    assert.match(added, /bells/);
    assert.match(added, /Bram had gone/);
    assert.doesNotMatch(added, /Rain|collar/);
    const prose2 = await textOf(await b.$('[data-testid="scene"][data-tick="2"] [data-testid="scene-prose"]'));
    assert.match(prose2, /The bells rang twice/);

    // Rewind to scene 1: the shell asks natively. A "no" changes nothing; then a "yes".
    await sceneMenu(b, 1, "rewind");
    answerMessageDialog("Rewind to scene 1?", "Escape");
    await b.pause(1000);
    assert.deepEqual(await attrsOf(b, "scene", "data-tick"), ["1", "2"], "declined: both scenes stay");
    assert.match(await textOf(await b.$('[data-testid="novel-stats"]')), /^2 scenes/);
    await sceneMenu(b, 1, "rewind");
    answerMessageDialog("Rewind to scene 1?", "Return");
    const toast = await waitForText(b, "toast", (t) => t.includes("Back at scene 1"));
    const kept = toast.match(/branch “([^”]+)”/)?.[1];
    assert.ok(kept, toast);
    assert.deepEqual(await waitForAttrs(b, "scene", "data-tick", (t) => t.length === 1), ["1"]);
    await waitForText(b, "novel-stats", (t) => t.startsWith("1 scene"));

    // The branch that kept scene 2 brings it back, as it was.
    await click(b, "branch-button");
    const row = await b.$(`[data-testid="branch-row"][data-branch="${kept}"]`);
    await row.waitForExist({ timeout: 15000 });
    assert.match(await textOf(await row.$('[data-testid="branch-end"]')), /Up to scene 2/);
    const sw = await row.$('[data-testid="branch-switch"]');
    await sw.waitForClickable({ timeout: 15000 });
    await sw.click();
    await waitForText(b, "current-branch", (t) => t.trim() === kept);
    await b.keys(["Escape"]);
    assert.deepEqual(await waitForAttrs(b, "scene", "data-tick", (t) => t.length === 2), ["1", "2"]);
    const back = await textOf(await b.$('[data-testid="scene"][data-tick="2"] [data-testid="scene-prose"]'));
    assert.match(back, /The bells rang twice/, "the branch holds scene 2 as it was");
  } finally {
    await app.close();
    await server.stop();
  }
});

test("review mode shows the plan and the memory changes; an unticked change is not applied", async () => {
  const server = await startServer(storyScript());
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);
    await click(b, "nav-settings");
    await click(b, "generation-review_before_commit");
    await click(b, "generation-save");
    await waitForText(b, "toast", (t) => t.includes("Generation settings saved"));

    await click(b, "nav-write");
    await click(b, "next-scene");
    const intention = await b.$('[data-testid="plan-intention"]');
    await intention.waitForExist({ timeout: 60000 });
    assert.ok((await intention.getValue()).trim().length > 0, "the plan says what should happen");
    await click(b, "plan-accept");
    await waitForText(b, "review-title", (t) => t.includes("Low Tide"), 60000);
    const categories = await waitForAttrs(b, "review-change", "data-category", (c) => c.length > 0);
    assert.ok(categories.includes("loop_opened"), JSON.stringify(categories));
    assert.ok(categories.includes("relationship"), JSON.stringify(categories));
    const loop = await b.$('[data-testid="review-change"][data-category="loop_opened"]');
    assert.match(await textOf(loop), /Who put Tamsin's name on the watch's slate\?/);
    await (await loop.$("input")).click();
    assert.equal(await (await loop.$("input")).isSelected(), false);
    await click(b, "review-accept");
    await waitForText(b, "committed-scene", (t) => t.includes("Low Tide"), 60000);

    // The loop the writer unticked was never opened; the scene itself was saved.
    await click(b, "nav-loops");
    await waitForText(b, "loops-open", (t) => t.length > 0);
    const board = await textOf(await b.$(".loops-board"));
    assert.ok(!board.includes("Who put Tamsin's name"), board);
    await click(b, "nav-manuscript");
    assert.deepEqual(await waitForAttrs(b, "scene", "data-tick", (t) => t.length === 1), ["1"]);
  } finally {
    await app.close();
    await server.stop();
  }
});
