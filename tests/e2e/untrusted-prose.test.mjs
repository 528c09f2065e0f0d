// Model output is untrusted: prose containing <script> and <img onerror> must render as text
// in the real app (while streaming and in the reader) and run nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { launchApp, byTestId, click, textOf, waitForText } from "./support/app.mjs";
import { startServer, storyScript, providerConfig, fixture } from "./support/server.mjs";
import { createNovelThroughForm } from "./support/journey.mjs";

const HOSTILE =
  'Tamsin read the slate twice. <script>window.__pwned = "script"</script>\n\n' +
  '<img src="x" onerror="window.__pwned = \'img\'"> The ink was still wet.\n\n';

test("prose with <script> and <img onerror> shows as text and runs nothing", async () => {
  const server = await startServer(
    storyScript({ writer: [{ type: "text", content: HOSTILE + fixture("prose.txt") }] }),
  );
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig(server.baseUrl) });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);
    await click(b, "nav-write");
    await click(b, "next-scene");
    await waitForText(b, "committed-scene", (t) => t.trim().length > 0, 60000);
    const live = await textOf(await byTestId(b, "live-prose"));
    assert.ok(live.includes('<script>window.__pwned = "script"</script>'), live.slice(0, 200));

    await click(b, "nav-manuscript");
    const prose = await waitForText(b, "scene-prose", (t) => t.includes("<img"));
    // The reader sets quotes typographically, the markup's too: it is text, not HTML.
    assert.ok(prose.includes(`<img src=“x” onerror=“window.__pwned = ‘img’”>`), prose.slice(0, 300));
    assert.equal((await b.$$('[data-testid="scene-prose"] img')).length, 0, "no <img> element exists");
    assert.equal((await b.$$('[data-testid="scene-prose"] script')).length, 0, "no <script> element exists");
    assert.equal(await b.execute(() => window.__pwned ?? null), null, "nothing ran");
  } finally {
    await app.close();
    await server.stop();
  }
});
