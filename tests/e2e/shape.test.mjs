// Shaping the book by hand in the real app: after three scenes by the agent, the writer adds a
// scene of their own between scenes 2 and 3, moves it one place down (Move down in the scene's
// menu: WebDriver cannot drive HTML5 drag and drop in WebKitGTK; the drag itself is tested in
// the UI suite), renames chapter 1, deletes scene 1 and undoes it from the toast. Then the
// manuscript, the Markdown export, the readable scene files and the memory's search index all
// agree on the order and the numbers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { attrsOf, byTestId, click, launchApp, textOf, typeInto, waitForText } from "./support/app.mjs";
import { startServer, storyScript, providerConfig } from "./support/server.mjs";
import { answerSaveDialog, createNovelThroughForm, nextScene } from "./support/journey.mjs";

const TITLE = "The Tide Table";
const PROSE = "Tamsin read the tide almanac twice, the way her father had taught her.";

/** The scene titles in the reader, in order. */
const readerTitles = (b) => b.execute(() => Array.from(document.querySelectorAll('[data-testid="scene-title"]')).map((e) => e.textContent));

async function waitForTitles(b, predicate, what) {
  let last = [];
  await b.waitUntil(
    async () => {
      last = await readerTitles(b);
      return predicate(last);
    },
    { timeout: 15000, timeoutMsg: `the manuscript never showed ${what}: last saw ${JSON.stringify(last)}` },
  );
  return last;
}

/** Opens scene `tick`'s menu and picks `item`. */
async function sceneMenu(b, tick, item) {
  const menu = await b.$(`[data-testid="scene"][data-tick="${tick}"] [data-testid="scene-menu"]`);
  await menu.scrollIntoView({ block: "center" });
  await menu.waitForClickable({ timeout: 15000 });
  await menu.click();
  await click(b, `menu-${item}`);
}

test("a scene added by hand between 2 and 3 is moved, a chapter renamed, a deletion undone, and the manuscript, export and memory agree", async () => {
  const server = await startServer(storyScript());
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
  const b = app.browser;
  try {
    const library = await createNovelThroughForm(b);
    for (let i = 0; i < 3; i++) await nextScene(b);
    await click(b, "nav-manuscript");
    const agent = await waitForTitles(b, (t) => t.length === 3, "three scenes");

    // Add a scene between 2 and 3, written in the prose editor.
    const here = await b.$('[data-testid="add-scene-here"][data-after="2"]');
    await here.scrollIntoView({ block: "center" });
    await here.waitForClickable({ timeout: 15000 });
    await here.click();
    await typeInto(b, "new-scene-title", TITLE);
    const editor = await b.$('[data-testid="new-scene"] .cm-content');
    await editor.click();
    await b.keys(PROSE);
    await click(b, "add-scene");
    await waitForTitles(b, (t) => t.join("|") === [agent[0], agent[1], TITLE, agent[2]].join("|"), "the new scene third");
    await waitForText(b, "toast", (t) => t.startsWith("Scene 3 added."));
    // The memory follows as after an edit: a re-read is offered (not taken here).
    await (await byTestId(b, "memory-proposal")).waitForDisplayed({ timeout: 15000 });
    await click(b, "proposal-skip");

    // Move it one place down.
    await sceneMenu(b, 3, "move-down");
    const moved = await waitForTitles(b, (t) => t[3] === TITLE, "the new scene fourth");
    assert.deepEqual(moved, [agent[0], agent[1], agent[2], TITLE]);

    // Rename chapter 1.
    const chapterMenu = await b.$('[data-testid="toc-chapter"][data-chapter="1"] [data-testid="chapter-menu"]');
    await chapterMenu.waitForClickable({ timeout: 15000 });
    await chapterMenu.click();
    await click(b, "menu-chapter-rename");
    await typeInto(b, "chapter-title-input", "The Salt Road");
    await click(b, "chapter-apply");
    await waitForText(b, "chapter-heading", (t) => t.includes("The Salt Road"));

    // Delete scene 1, then Undo from the toast.
    await sceneMenu(b, 1, "delete");
    await waitForTitles(b, (t) => t.length === 3 && t[0] === agent[1], "scene 1 gone");
    await waitForText(b, "toast", (t) => t.startsWith("Scene 1 deleted."));
    await click(b, "toast-action");
    const final = await waitForTitles(b, (t) => t.length === 4, "scene 1 back");
    assert.deepEqual(final, moved);
    assert.deepEqual(await attrsOf(b, "toc-item", "data-tick"), ["1", "2", "3", "4"]);

    // The export has the same scenes in the same order under the renamed chapter.
    const exportPath = path.join(mkdtempSync(path.join(tmpdir(), "novel-e2e-shape-")), "salt.md");
    await click(b, "export-menu");
    await click(b, "menu-export-markdown");
    answerSaveDialog("Export the manuscript", exportPath);
    await waitForText(b, "toast", (t) => t.includes("salt.md"));
    const markdown = readFileSync(exportPath, "utf8");
    assert.match(markdown, /^## Chapter 1: The Salt Road$/m);
    const exported = markdown
      .split("\n")
      .filter((l) => l.startsWith("### "))
      .map((l) => l.slice(4));
    assert.deepEqual(exported, final);
    assert.ok(markdown.indexOf(PROSE) > markdown.indexOf(`### ${agent[2]}`), "the new scene's prose is after scene 3's");

    // The readable files follow the numbers: scene_004.md is the writer's scene.
    const novelDir = path.join(library, readdirSync(library)[0]);
    const heads = [1, 2, 3, 4].map((n) => readFileSync(path.join(novelDir, "scenes", `scene_00${n}.md`), "utf8").split("\n")[0]);
    assert.deepEqual(heads, final.map((t) => `# ${t}`));
    assert.equal(readdirSync(path.join(novelDir, "scenes")).filter((f) => /^scene_\d+\.md$/.test(f)).length, 4);

    // The memory's search index finds the new scene's words at its new number.
    await b.keys(["Control", "Shift", "f"]);
    await (await byTestId(b, "book-search")).waitForDisplayed({ timeout: 10000 });
    // A word only the writer's scene has, by words (meaning would rank every scene).
    await click(b, "search-mode-words");
    await typeInto(b, "book-search-input", "almanac");
    await b.keys(["Enter"]);
    const hit = await byTestId(b, "search-hit");
    await hit.waitForDisplayed({ timeout: 20000 });
    assert.deepEqual(await attrsOf(b, "search-hit", "data-tick"), ["4"]);
    assert.match(await textOf(hit), /almanac/i);
  } finally {
    await app.close();
    await server.stop();
  }
});
