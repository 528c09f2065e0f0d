// A provider failure in the real app: the tick fails with a message a writer understands, the
// story is unchanged, and Retry writes the scene once the provider answers again.
import { test } from "node:test";
import assert from "node:assert/strict";
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
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);
    await click(b, "nav-write");
    await click(b, "next-scene");
    const banner = await waitForText(b, "run-error", (t) => t.trim().length > 0, 60000);
    assert.match(banner, /500|server/i, banner);
    assert.match(banner, /unchanged|nothing was lost|not changed/i, banner);

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
