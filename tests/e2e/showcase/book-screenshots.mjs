// Makes the README's screenshots of the manuscript from the real app under Xvfb: a novel
// created through the form and written by the test server (the end-to-end story fixtures);
// the scene open in the editor with an italic phrase, then the book searched with Ctrl+Shift+F,
// then a scene's Check panel after two sentences added by hand (one to fix, one a note).
// Run: xvfb-run -a --server-args="-screen 0 1400x900x24" node tests/e2e/showcase/book-screenshots.mjs
import { setTimeout as sleep } from "node:timers/promises";
import { shoot } from "./shoot.mjs";
import { launchApp, click, byTestId, typeInto, waitForText } from "../support/app.mjs";
import { startServer, storyScript, providerConfig } from "../support/server.mjs";
import { createNovelThroughForm, nextScene } from "../support/journey.mjs";

const server = await startServer(storyScript());
const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
const b = app.browser;
try {
  await createNovelThroughForm(b);
  await nextScene(b);
  await click(b, "nav-manuscript");
  await click(b, "edit-scene");
  const editor = await b.$(".cm-content");
  await editor.waitForDisplayed();
  await editor.click();
  await b.keys(["Control", "Home"]);
  // A paragraph of its own: "\uE007" is WebDriver's Enter key.
  await b.keys([..."*Not again.*", "\uE007", "\uE007"]);
  await sleep(600);
  shoot("editor");
  await click(b, "cancel-edit");
  await click(b, "confirm-discard");
  await sleep(300);

  await b.keys(["Control", "Shift", "f"]);
  await (await byTestId(b, "book-search")).waitForDisplayed();
  await typeInto(b, "book-search-input", "net loft tide");
  await b.keys(["Enter"]);
  await (await byTestId(b, "search-hit")).waitForDisplayed({ timeout: 20000 });
  await sleep(400);
  shoot("search");
  await b.keys(["Escape"]);

  // Two sentences added by hand before the Check: a break to fix and an uncertain case, so the
  // panel shows what the revision would act on apart from the notes it leaves alone.
  await click(b, "edit-scene");
  const content = await b.$(".cm-content");
  await content.waitForDisplayed();
  await content.click();
  await b.keys(["Control", "End"]);
  await b.keys(["\uE007", "\uE007"]);
  // No double letters: WebKit's driver drops the second of two typed in a row.
  await b.keys("Bram didn't notice the watch captain behind him. The tide drags at the piers below her.");
  await sleep(400);
  await click(b, "save-scene");
  await click(b, "proposal-skip");
  await waitForText(b, "scene", (t) => t.includes("piers below her"), 20000);
  await sleep(300);

  await click(b, "check-scene");
  await (await byTestId(b, "scene-findings")).waitForDisplayed({ timeout: 20000 });
  // The panel at the top of the view, once the "saved" toast has gone.
  await (await byTestId(b, "checks-panel")).scrollIntoView();
  await (await byTestId(b, "toast")).waitForDisplayed({ reverse: true, timeout: 15000 });
  await sleep(300);
  shoot("check");
} finally {
  await app.close();
  await server.stop();
}
