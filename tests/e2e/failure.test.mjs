// A provider failure in the real app: the tick fails with a message a writer understands and
// the hint for its kind, the story is unchanged, the failure is in the app's log file, and Retry
// writes the scene once the provider answers again. A stream cut mid-scene leaves its prose on
// screen, there again after a restart (which reopens the book), kept as a draft to finish.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchApp, click, waitForAttrs, waitForText } from "./support/app.mjs";
import { startServer, storyScript, providerConfig, fixture } from "./support/server.mjs";
import { createNovelThroughForm } from "./support/journey.mjs";

test("a provider failure shows a clear message and Retry works", async () => {
  const server = await startServer(
    storyScript({
      writer: [
        { type: "status", code: 500, body: { error: { message: "the model crashed" } } },
        { type: "text", content: fixture("prose.txt") },
      ],
    }),
  );
  // The app's log directory is under XDG_DATA_HOME: a fresh one, to read this run's log.
  const data = mkdtempSync(path.join(tmpdir(), "novel-e2e-data-"));
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl), XDG_DATA_HOME: data });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);
    await click(b, "nav-write");
    await click(b, "next-scene");
    const banner = await waitForText(b, "run-error", (t) => t.trim().length > 0, 60000);
    assert.match(banner, /500|server/i, banner);
    assert.match(banner, /unchanged|nothing was lost|not changed/i, banner);
    assert.match(banner, /\(while writing\)/, banner);
    assert.match(banner, /The AI server reported an error/, "the hint for llm.server");
    const logs = path.join(data, "app.novelagent.desktop/logs");
    const log = readdirSync(logs).map((f) => readFileSync(path.join(logs, f), "utf8")).join("");
    assert.match(log, /WARN .*a tick failed .*kind="llm.server"/, log);
    assert.ok(!log.includes("\u001b["), "no colour codes in the log");

    await click(b, "nav-write");
    await click(b, "retry-tick");
    await waitForText(b, "committed-scene", (t) => t.includes("Low Tide"), 60000);

    await click(b, "nav-timeline");
    // The failure, then the one commit that retried it: the failed attempt committed nothing.
    const statuses = await waitForAttrs(b, "timeline-row", "data-status", (s) => s.length === 2);
    assert.deepEqual(statuses, ["failed_resolved", "committed"]);
  } finally {
    await app.close();
    await server.stop();
  }
});

test("a scene cut off mid-stream keeps its prose on screen, after a restart too, and is kept as a draft to finish", async () => {
  const prose = fixture("prose.txt");
  // The writer's answer stops after 600 characters; the retry is refused the same way.
  const cut = { type: "cut_stream", content: prose, after_chars: 600 };
  const server = await startServer(storyScript({ writer: [cut, cut] }));
  const config = providerConfig(server.baseUrl);
  // One data folder for both launches: the web view's storage (the last novel and view) is there.
  const data = mkdtempSync(path.join(tmpdir(), "novel-e2e-data-"));
  const env = { NOVEL_AGENT_CONFIG_DIR: config, XDG_DATA_HOME: data };
  const start = prose.trim().slice(0, 40);
  let app = await launchApp(env);
  try {
    await createNovelThroughForm(app.browser);
    await click(app.browser, "nav-write");
    await click(app.browser, "next-scene");
    await waitForText(app.browser, "run-error", (t) => /could not be written/.test(t), 60000);
    const shown = await waitForText(app.browser, "failed-draft-prose", (t) => t.length > 100, 10000);
    assert.ok(shown.startsWith(start), shown);
  } finally {
    await app.close();
  }
  app = await launchApp(env);
  const b = app.browser;
  try {
    // The app reopens the book at Write, and the draft is there again, from its error file.
    const again = await waitForText(b, "failed-draft-prose", (t) => t.length > 100, 30000);
    assert.ok(again.startsWith(start), again);
    // Kept with no model call (the script has no writer reply left), opened in the editor.
    await click(b, "keep-as-draft");
    await waitForText(b, "scene-editor", (t) => t.includes(start.slice(0, 20)), 30000);
    await click(b, "nav-timeline");
    const statuses = await waitForAttrs(b, "timeline-row", "data-status", (s) => s.includes("committed"));
    assert.deepEqual(statuses, ["failed_resolved", "committed"]);
  } finally {
    await app.close();
    await server.stop();
  }
});
