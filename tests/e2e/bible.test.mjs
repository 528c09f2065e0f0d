// The story bible in the real app: a lore entry the writer adds is in the next scene's
// context, as the app's own preview of the next prompt shows (built by the engine, no model
// called).
import { test } from "node:test";
import assert from "node:assert/strict";
import { launchApp, click, typeInto, waitForText } from "./support/app.mjs";
import { providerConfig } from "./support/server.mjs";
import { createNovelThroughForm } from "./support/journey.mjs";

const FACT = "The tide bells of Rainmarket ring only for the drowned.";

test("a writer adds lore and sees it in the next prompt's context", async () => {
  // No model is called: the provider points nowhere.
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig("http://127.0.0.1:9/v1") });
  const b = app.browser;
  try {
    await createNovelThroughForm(b);
    await click(b, "nav-bible");
    await click(b, "bible-tab-preview");
    const before = await waitForText(b, "preview-user", (t) => t.length > 0);
    assert.ok(!before.includes(FACT));

    await click(b, "bible-tab-lore");
    await click(b, "lore-add");
    await typeInto(b, "lore-fact", FACT);
    await typeInto(b, "lore-category", "custom");
    await typeInto(b, "lore-keywords", "tide bells, bells");
    await click(b, "lore-always");
    await click(b, "lore-save");
    await waitForText(b, "lore-row", (t) => t.includes(FACT));

    await click(b, "bible-tab-preview");
    const prompt = await waitForText(b, "preview-user", (t) => t.includes(FACT));
    assert.ok(prompt.includes(FACT));
    const lore = await b.$('[data-testid="preview-section"][data-name="lore"]');
    const row = (await lore.getProperty("textContent")) ?? "";
    // The section reads "Lore" (the writer's word for the engine's `lore`), then its tokens.
    const tokens = Number(/^Lore\D*(\d+)/.exec(row)?.[1] ?? 0);
    assert.ok(tokens > 5, `the lore section has tokens (${row})`);

    // The charts' library loads even where the system locale is C (as under xvfb-run).
    await click(b, "bible-tab-charts");
    await waitForText(b, "bible-panel-charts", (t) => t.includes("No scenes yet"));
  } finally {
    await app.close();
  }
});
