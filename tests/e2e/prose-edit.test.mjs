// A prose edit reaches the story's memory in the real app: the writer edits a written scene,
// asks for it to be re-read, and accepts the proposal; the scene's new title and the memory
// change come from the extractor's answer (the test server's next scripted extraction).
import { test } from "node:test";
import assert from "node:assert/strict";
import { launchApp, click, byTestId, textOf, waitForText } from "./support/app.mjs";
import { startServer, storyScript, providerConfig } from "./support/server.mjs";
import { createNovelThroughForm } from "./support/journey.mjs";

const EDITED = "Tamsin found Bram on the quay at dusk. He lifted a storm lantern and said nothing.";

test("a writer edits a scene, re-reads it and accepts the proposed memory change", async () => {
  const server = await startServer(storyScript());
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);
    await click(b, "nav-write");
    await click(b, "next-scene");
    await waitForText(b, "committed-scene", (t) => t.includes("Low Tide"), 60000);

    await click(b, "nav-manuscript");
    // Scene 1's controls, looked up afresh each time: the article re-renders as it changes.
    const inScene = (id) => b.$(`[data-testid="scene"][data-tick="1"] [data-testid="${id}"]`);
    await (await inScene("edit-scene")).waitForClickable({ timeout: 15000 });
    await (await inScene("edit-scene")).click();
    await (await inScene("scene-editor")).waitForDisplayed({ timeout: 15000 });
    // The editor is CodeMirror: type into its content as a writer would (select all, then type).
    const content = await (await inScene("scene-editor")).$(".cm-content");
    await content.click();
    await b.keys(["Control", "a"]);
    await b.keys(["Delete"]);
    await b.keys(EDITED);
    assert.equal(await content.getText(), EDITED);
    await (await inScene("save-scene")).click();

    // Nothing is re-read until the writer asks; then the proposal lists the changes.
    await (await byTestId(b, "memory-proposal")).waitForDisplayed({ timeout: 15000 });
    await click(b, "proposal-reread");
    const title = await waitForText(b, "proposal-title", (t) => t.trim().length > 0, 60000);
    assert.equal(title.trim(), "The Salt Gate");
    const changes = await b.$$('[data-testid="proposal-change"]');
    assert.ok(changes.length >= 1, "at least one memory change is proposed");
    await click(b, "proposal-accept");
    await (await byTestId(b, "memory-proposal")).waitForDisplayed({ reverse: true, timeout: 15000 });
    await waitForText(b, "toast", (t) => /Memory updated from scene 1/.test(t));

    // The scene now carries the re-read title, and its edited prose stays.
    await waitForText(b, "scene-title", (t) => t.includes("The Salt Gate"));
    const scene = await b.$('[data-testid="scene"][data-tick="1"]');
    assert.match(await textOf(scene), /storm lantern/);
  } finally {
    await app.close();
    await server.stop();
  }
});
