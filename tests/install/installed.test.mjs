// The app as a novelist installs it: the .deb installed with apt on a clean Debian root
// (scripts/install-test.sh), started from /usr/bin inside that root. It opens, a novel is
// created through the form, a scene is written by the local test server, and semantic search
// is on with the embedding model and ONNX Runtime the package ships.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
/* global document */
import { launchApp, byTestId, waitForText } from "../e2e/support/app.mjs";
import { startServer, storyScript, providerConfig } from "../e2e/support/server.mjs";
import { createNovelThroughForm, nextScene } from "../e2e/support/journey.mjs";

test("the installed package starts, writes a scene, and searches by meaning out of the box", async () => {
  assert.ok(process.env.NOVEL_AGENT_APP, "run through scripts/install-test.sh");
  const server = await startServer(storyScript());
  // The app's log (inside the root) then says where it loaded the embedding model from.
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl), NOVEL_LOG: "novel_embed=info,warn" });
  const b = app.browser;
  try {
    const parent = await createNovelThroughForm(b);
    // The header says "keyword search only" when the embedding model was not found.
    assert.equal(await (await byTestId(b, "search-notice")).isExisting(), false, "semantic search is on");
    const committed = await nextScene(b);
    assert.match(committed, /Bram hides her/);
    await waitForText(b, "novel-title", (t) => t.includes("Salt and Iron"));
    // The novel is a real folder on disk, written by the installed app.
    const [folder] = readdirSync(parent);
    assert.ok(existsSync(path.join(parent, folder, "novel.db")), `novel.db in ${folder}`);
    assert.ok(existsSync(path.join(parent, folder, "scenes/scene_001.md")), "scene 1 written");
    // Semantic search runs on the model and ONNX Runtime the package installed, not on copies
    // found elsewhere.
    const log = appLog();
    assert.match(log, /semantic search on/);
    assert.match(log, /runtime=\/usr\/lib\/Novel Agent\/models\/onnxruntime\/libonnxruntime\.so/);
  } catch (e) {
    console.error(`the page when it failed:\n${await b.execute(() => document.body.innerText).catch(() => "(gone)")}`);
    throw e;
  } finally {
    await app.close();
    await server.stop();
  }
});

/** The installed app's log files inside the root (the app's data folder of root, or of the
 *  user when the root was entered with sudo), joined. */
function appLog() {
  const root = process.env.NOVEL_INSTALL_ROOT ?? "";
  const homes = [...new Set(["/root", process.env.HOME ?? "/root"])];
  const dirs = homes.map((h) => path.join(root, h, ".local/share/app.novelagent.desktop/logs")).filter((d) => existsSync(d));
  assert.ok(dirs.length > 0, `no log folder of the installed app under ${root}`);
  return dirs.flatMap((d) => readdirSync(d).map((f) => readFileSync(path.join(d, f), "utf8"))).join("\n");
}
