// The reader links names to the codex: in each scene the first mention of a character or place
// (by name or alias) opens its codex page in the Bible; later mentions stay plain text; the
// prose stays text (markup in it still runs nothing); the editor shows no links.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openReader(scenario) {
  const app = await openApp(env, { novel: true, ...scenario });
  await app.page.getByTestId("nav-manuscript").click();
  await app.page.getByTestId("codex-link").first().waitFor();
  return app;
}

test("a name's first mention in a scene opens its codex page; later mentions are plain", async () => {
  const app = await openReader({ scenes: 2 });
  const { page } = app;
  const first = page.getByTestId("scene").first();
  const links = first.getByTestId("codex-link");
  // "Tamsin's" (an alias of Tamsin Vale) and Bram, once each; "the Vale girl" later is Tamsin again.
  assert.deepEqual(await links.allTextContents(), ["Tamsin", "Bram"]);
  assert.deepEqual(await links.evaluateAll((els) => els.map((e) => e.title)), ["Open Tamsin Vale in the codex", "Open Bram in the codex"]);
  assert.match(await first.getByTestId("scene-prose").textContent(), /“You’re the Vale girl,” he said/, "the text reads as before");
  assert.equal(await page.getByTestId("scene").nth(1).getByTestId("codex-link").first().textContent(), "Tamsin", "each scene links its own first mention");
  // Quiet: the name keeps the prose's colour and font.
  const [linkStyle, proseStyle] = await Promise.all([links.first(), first.getByTestId("scene-prose")].map((l) => l.evaluate((e) => [getComputedStyle(e).color, getComputedStyle(e).fontFamily].join(" "))));
  assert.equal(linkStyle, proseStyle);

  await links.nth(1).click();
  await page.getByTestId("codex-page").waitFor();
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "bible");
  assert.equal(await page.getByTestId("codex-page").getAttribute("data-id"), "C1");
  assert.equal(await page.getByTestId("codex-name").textContent(), "Bram");
  await app.assertClean(assert);
  await app.close();
});

test("linked prose is still text: markup runs nothing, and the editor has no links", async () => {
  const app = await openReader({ scenes: 1, hostile: true });
  const { page } = app;
  const prose = page.getByTestId("scene-prose");
  assert.equal(await prose.getByTestId("codex-link").first().textContent(), "Tamsin");
  assert.ok((await prose.textContent()).includes("<script>window.__pwned = “script”</script>"));
  assert.equal(await page.locator("img, [data-testid='scene-prose'] script").count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned ?? null), null, "nothing ran");

  await page.getByTestId("edit-scene").click();
  await page.getByTestId("scene-editor").waitFor();
  assert.equal(await page.getByTestId("codex-link").count(), 0, "no links while editing");
  await app.close();
});
