// A weak model in the real app: every draft, revision included, comes wrapped in assistant
// chatter. No scene is kept; while the run tries fresh drafts the Write view says so; then the
// failure banner offers Keep anyway, which commits the draft as it is and says what it was kept
// with. (E2E_SHOTS=<dir> saves a screenshot of each state there, to look at by hand.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { launchApp, click, waitForText } from "./support/app.mjs";
import { startServer, storyScript, providerConfig, fixture } from "./support/server.mjs";
import { createNovelThroughForm } from "./support/journey.mjs";

function shot(name) {
  const dir = process.env.E2E_SHOTS;
  if (dir) execFileSync("import", ["-window", "root", "-crop", "1280x840+0+0", "+repage", path.join(dir, `${name}.png`)]);
}

test("a draft wrapped in chatter is never kept until the writer keeps it anyway", async () => {
  const chatter = `Sure! Here is the revised scene you asked for:\n\n${fixture("prose.txt").trim()}\n\nI hope this helps! Let me know if you would like any changes.`;
  const server = await startServer(storyScript({ writer: [{ type: "text", content: chatter, chunk_delay_ms: 10 }] }));
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);
    await click(b, "nav-write");
    await click(b, "next-scene");
    const notice = await waitForText(b, "retry-notice", (t) => t.includes("fresh draft"), 60000);
    assert.match(notice, /could not be kept/, notice);
    shot("retry-notice");
    const banner = await waitForText(b, "run-error", (t) => t.trim().length > 0, 120000);
    assert.match(banner, /commentary/i, banner);
    assert.match(banner, /unchanged|nothing was lost/i, banner);
    shot("keep-anyway");
    await click(b, "keep-draft");
    const committed = await waitForText(b, "committed-scene", (t) => /kept with/.test(t), 60000);
    assert.match(committed, /to fix/, committed);
    shot("kept-with-findings");
  } finally {
    await app.close();
    await server.stop();
  }
});
