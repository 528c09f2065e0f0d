// The main journey in the real app: create a novel through the form, press Next scene, watch
// the prose stream in, find the scene in the reader, a new node in the graph and a row in the
// timeline, then export the manuscript to Markdown through the save dialog.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchApp, byTestId, click, textOf, waitForAttrs, waitForText } from "./support/app.mjs";
import { startServer, storyScript, providerConfig } from "./support/server.mjs";
import { answerSaveDialog, createNovelThroughForm } from "./support/journey.mjs";

test("a writer creates a novel, writes a scene, reads it, sees it in graph and timeline, exports it", async () => {
  const server = await startServer(storyScript());
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);

    await click(b, "nav-write");
    await click(b, "next-scene");
    // The prose streams: some of it shows while the writer is still writing.
    const early = await waitForText(b, "live-prose", (t) => t.trim().length > 0);
    const committed = await waitForText(b, "committed-scene", (t) => t.includes("Low Tide"), 60000);
    const full = await textOf(await byTestId(b, "live-prose"));
    assert.ok(early.length < full.length, `streamed text grew (${early.length} then ${full.length} chars)`);
    assert.match(committed, /Bram hides her/);

    await click(b, "nav-manuscript");
    const ticks = await waitForAttrs(b, "scene", "data-tick", (t) => t.length > 0);
    assert.deepEqual(ticks, ["1"]);
    assert.equal((await textOf(await byTestId(b, "scene-title"))).trim(), "Low Tide");

    await click(b, "nav-graph");
    // The plan's character.generate tool added Bram next to the protagonist.
    await waitForText(b, "graph-stats", (t) => /2 characters/.test(t));

    await click(b, "nav-timeline");
    const statuses = await waitForAttrs(b, "timeline-row", "data-status", (s) => s.length > 0);
    assert.deepEqual(statuses, ["committed"]);

    const exportPath = path.join(mkdtempSync(path.join(tmpdir(), "novel-e2e-export-")), "salt.md");
    await click(b, "export-menu");
    await click(b, "menu-export-markdown");
    // The real GTK save dialog: WebDriver cannot reach it, so type the path as a writer would.
    answerSaveDialog("Export the manuscript", exportPath);
    await waitForText(b, "toast", (t) => t.includes("salt.md"));
    const markdown = readFileSync(exportPath, "utf8");
    assert.match(markdown, /^# Salt and Iron/m);
    assert.match(markdown, /Low Tide/);
  } finally {
    await app.close();
    await server.stop();
  }
});
