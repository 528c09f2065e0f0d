// The codex: a character's page (fields in a writer's order, relationships by name, mentions
// across the book linked to their scenes, history in plain sentences), lore added and edited
// from the codex, and the Graph's panel opening a page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openCodex(scenario = {}) {
  const app = await openApp(env, { novel: true, scenes: 3, ...scenario });
  await app.page.getByTestId("nav-bible").click();
  await app.page.getByTestId("bible-tab-lore").click();
  return app;
}

test("a character's codex page shows mentions linked to their scenes and history in sentences", async () => {
  const app = await openCodex();
  const { page } = app;
  assert.equal(await page.getByTestId("bible-tab-lore").textContent(), "Codex");
  await page.locator('[data-testid="codex-item"][data-id="C0"]').click();
  const codex = page.getByTestId("codex-page");
  await codex.getByTestId("codex-mention").first().waitFor();
  assert.equal(await codex.getByTestId("codex-name").textContent(), "Tamsin Vale");
  assert.equal((await app.calls("codex_entry"))[0].args.id, "C0");
  // Fields in a writer's order, ids as names.
  const labels = await codex.locator('[data-testid="codex-field"] dt').allTextContents();
  assert.deepEqual(labels.slice(0, 6), ["Role", "Also known as", "Description", "Personality", "Wants", "Needs"]);
  assert.match(await codex.locator('[data-field="last_location"] dd').textContent(), /^Rainmarket Docks$/);
  // Relationships by name, each way.
  const rel = codex.getByTestId("codex-relationship");
  assert.equal(await rel.count(), 1);
  assert.match(await rel.textContent(), /^Bram — ally, uneasy/);
  assert.match(await rel.textContent(), /Tamsin sees Bram as “useful, for now”\.Bram sees Tamsin as “trouble”\./);
  // Mentions: one entry per scene naming her, the name marked in each snippet.
  const mentions = codex.getByTestId("codex-mention");
  assert.deepEqual(await mentions.evaluateAll((m) => m.map((x) => x.dataset.tick)), ["1", "2", "3"]);
  assert.match(await codex.getByTestId("codex-mention-count").textContent(), /Named in 3 scenes/);
  assert.match(await mentions.first().textContent(), /^Scene 1 · Low Tide/);
  assert.ok((await mentions.first().locator("mark").allTextContents()).includes("Tamsin"));
  // History as sentences, a refused contradiction marked, the writer's own change marked.
  const lines = codex.getByTestId("codex-history-line");
  const texts = await lines.allTextContents();
  assert.ok(texts.includes("Moved from Salt Gate to Rainmarket Docks in scene 2."), texts.join("\n"));
  assert.ok(texts.includes("Became wary in scene 1 (was hopeful)."), texts.join("\n"));
  assert.equal(await codex.locator('[data-testid="codex-history-line"][data-flagged="true"]').count(), 1);
  assert.match(await lines.nth(3).textContent(), /yours$/);
  assert.doesNotMatch(await codex.textContent(), /\b[CLR]\d+\b|last_location|\{"/);
  // A relationship opens the other person's page.
  await rel.getByTestId("codex-relationship-open").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="codex-name"]')?.textContent === "Bram");
  // Back to Tamsin, then a mention opens the manuscript at its scene, with no panel open.
  await page.getByTestId("codex-back").click();
  await page.locator('[data-testid="codex-item"][data-id="C0"]').click();
  await page.locator('[data-testid="codex-mention"][data-tick="2"] button').click();
  await page.locator('main.view[data-view="manuscript"]').waitFor();
  const scene = page.locator('[data-testid="scene"][data-tick="2"]');
  await scene.waitFor();
  await page.waitForFunction(() => {
    const r = document.getElementById("scene-2")?.getBoundingClientRect();
    return r && r.top >= -2 && r.top < window.innerHeight / 2;
  });
  assert.equal(await page.getByTestId("checks-summary").count(), 0, "no panel opens with it");
  await app.assertClean(assert);
  await app.close();
});

test("lore is added and edited from the codex, and its page shows the change", async () => {
  const app = await openCodex();
  const { page } = app;
  await page.getByTestId("lore-add").click();
  await page.getByTestId("lore-fact").fill("The tide bells ring only for the drowned.");
  await page.getByTestId("lore-category").fill("custom");
  await page.getByTestId("lore-keywords").fill("bells, tide");
  await page.getByTestId("lore-save").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="lore-row"]').length === 2);
  const [added] = (await app.calls("add_record")).map((c) => c.args.record);
  assert.equal(added.record, "lore");
  assert.deepEqual(added.keywords, ["bells", "tide"]);
  // Its page: the fact, its category and tags, and where the book names it.
  await page.getByTestId("lore-row").last().getByTestId("lore-open").click();
  const codex = page.getByTestId("codex-page");
  await codex.getByTestId("codex-name").waitFor();
  assert.equal(await codex.getByTestId("codex-name").textContent(), "The tide bells ring only for the drowned.");
  assert.deepEqual(await codex.getByTestId("codex-tags").locator(".badge").allTextContents(), ["custom", "bells", "tide"]);
  assert.match(await codex.getByTestId("codex-mention-count").textContent(), /Named in 3 scenes/);
  // Edited on its page.
  await codex.getByTestId("codex-edit").click();
  await codex.getByTestId("lore-fact").fill("The tide bells ring for the drowned and the hanged.");
  await codex.getByTestId("lore-save").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="codex-name"]')?.textContent.includes("and the hanged"));
  const [edit] = await app.calls("edit_lore");
  assert.equal(edit.args.changes.fact, "The tide bells ring for the drowned and the hanged.");
  assert.match(await codex.locator('[data-field="fact"] dd').textContent(), /and the hanged/);
  await app.assertClean(assert);
  await app.close();
});

test("the Graph's panel opens a character's codex page, once", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  await page.getByTestId("nav-graph").click();
  await page.locator('[data-testid="graph-stats"][data-layout="done"]').waitFor({ timeout: 20000 });
  await page.evaluate(() => void window.__novelCy.getElementById("C0").emit("tap"));
  await page.getByTestId("open-codex").click();
  await page.locator('main.view[data-view="bible"]').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="codex-name"]')?.textContent === "Tamsin Vale");
  assert.equal(await page.getByTestId("bible-tab-lore").getAttribute("aria-selected"), "true");
  // The Bible opened again later starts where it always does.
  await page.getByTestId("nav-write").click();
  await page.getByTestId("nav-bible").click();
  await page.getByTestId("bible-panel-guidance").waitFor();
  await app.assertClean(assert);
  await app.close();
});
