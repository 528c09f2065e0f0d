// The book in the real app: after a scene is written, Ctrl+Shift+F searches it by meaning (the
// local embedding model, no shared words needed) and Enter jumps to the passage in the reader;
// the manuscript is exported as an EPUB through the native save dialog, and epubcheck accepts it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchApp, byTestId, click, textOf, typeInto, waitForText } from "./support/app.mjs";
import { startServer, storyScript, providerConfig } from "./support/server.mjs";
import { answerSaveDialog, createNovelThroughForm, nextScene } from "./support/journey.mjs";

test("the book is searched by meaning, a hit jumps to its passage, and it exports as a valid EPUB", async () => {
  const server = await startServer(storyScript());
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);
    await nextScene(b);
    const notice = await b.$('[data-testid="search-notice"]');
    assert.equal(
      await notice.isExisting(),
      false,
      `meaning search needs the local embedding model (scripts/setup.sh installs it): ${(await notice.isExisting()) ? await notice.getAttribute("title") : ""}`,
    );

    await b.keys(["Control", "Shift", "f"]);
    await (await byTestId(b, "book-search")).waitForDisplayed({ timeout: 10000 });
    await click(b, "search-mode-meaning");
    // Said another way than the prose does ("The cellar under the net loft floods at high tide.
    // Watch won't search it."): the embedding, not the words, has to find it.
    await typeInto(b, "book-search-input", "secret room under the loft, flooded by the sea, safe from the patrol");
    await b.keys(["Enter"]);
    const hit = await byTestId(b, "search-hit");
    await hit.waitForDisplayed({ timeout: 20000 });
    assert.equal(await hit.getAttribute("data-tick"), "1");
    await hit.click();

    // The reader shows the passage, highlighted and focused; the cellar is in it (a passage is
    // a few paragraphs: the line is at most three paragraphs below where the highlight starts).
    const current = await byTestId(b, "mark-current");
    await current.waitForDisplayed({ timeout: 10000 });
    assert.ok((await textOf(current)).trim().length > 0);
    assert.equal(await b.execute(() => document.activeElement?.dataset.testid ?? null), "mark-current");
    const [hitAt, cellarAt] = await b.execute(() => {
      const paragraphs = Array.from(document.querySelectorAll('[data-testid="scene-prose"] p'));
      const mark = document.querySelector('[data-testid="mark-current"]');
      return [
        paragraphs.findIndex((p) => p.contains(mark)),
        paragraphs.findIndex((p) => p.textContent.includes("cellar under the net loft floods")),
      ];
    });
    assert.ok(hitAt >= 0 && cellarAt >= hitAt && cellarAt - hitAt <= 3, `passage at paragraph ${hitAt}, the cellar at ${cellarAt}`);

    const epub = path.join(mkdtempSync(path.join(tmpdir(), "novel-e2e-epub-")), "salt.epub");
    await click(b, "export-menu");
    await click(b, "menu-export-epub");
    answerSaveDialog("Export the manuscript as EPUB", epub);
    await waitForText(b, "toast", (t) => t.includes("salt.epub"));
    const bytes = readFileSync(epub);
    assert.equal(bytes.subarray(0, 2).toString("latin1"), "PK", "a zip container");
    assert.equal(bytes.subarray(30, 58).toString("latin1"), "mimetypeapplication/epub+zip");
    // The EPUB checker the CI machine installs (scripts/setup.sh): no errors, no warnings.
    // Debian's epubcheck is an executable jar, run through java where binfmt_misc does not.
    const jar = realpathSync(execFileSync("which", ["epubcheck"], { encoding: "utf8" }).trim());
    const check = spawnSync("java", ["-jar", jar, epub], { encoding: "utf8" });
    const report = `${check.stdout}${check.stderr}`;
    assert.equal(check.status, 0, report);
    assert.match(report, /No errors or warnings detected/);
  } finally {
    await app.close();
    await server.stop();
  }
});
