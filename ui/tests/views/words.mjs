// A guard over the whole UI's wording: every view (and the dialogs, panels and forms it opens)
// is walked, and what the writer can see — the text on screen, placeholders and tooltips — is
// checked for the engine's words (the codex pages and review mode's plan and changes too): "tick", section names such as `tool_results` and
// `previous_tail`, and raw ids of characters, places and the rest (C0, L1, R0, …) where a name
// belongs. Placeholders must not come from the sample novel either: they show in every novel.
// Folded details (an engineer's numbers and raw tool output) are not on screen and not read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

const ENGINE = [
  { word: "tick", re: /\btick(s|ed)?\b/i },
  { word: "tool_results", re: /tool_results/ },
  { word: "previous_tail", re: /previous_tail/ },
  // The mock's ids: characters, places, relationships, loops, scenes, lore, beats, events…
  // (and two-letter ones such as LP2), in notes as anywhere else.
  { word: "an id", re: /\b[CLROSWFBEP][A-Z]?\d+\b/ },
];
/** Words of the sample novel (examples/seed.toml), which the mock's novel shares. */
const SAMPLE = /Tamsin|Rainmarket|harbou?r|Salt and Iron|drowned|\bBram\b|ledger|the watch\b|flooded stair/i;

/** What the writer can read now: the rendered text, placeholders and tooltips. */
function readable(page) {
  return page.evaluate(() => {
    const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
    const attrs = (name) =>
      [...document.querySelectorAll(`[${name}]`)].filter(shown).map((el) => ({ text: el.getAttribute(name), where: `${name} of ${el.dataset.testid ?? el.tagName.toLowerCase()}` }));
    const lines = document.body.innerText.split("\n").map((text) => ({ text, where: "text" }));
    return { lines: [...lines, ...attrs("title")], placeholders: attrs("placeholder") };
  });
}

/** Walks `steps` (name → what to do), collecting every engine word and sample placeholder seen. */
async function walk(page, steps) {
  const found = new Set();
  for (const [name, act] of steps) {
    await act(page);
    await page.waitForTimeout(150);
    const { lines, placeholders } = await readable(page);
    for (const { text, where } of [...lines, ...placeholders])
      for (const { word, re } of ENGINE) if (re.test(text ?? "")) found.add(`${name}: ${word} in ${where}: “${text.trim().slice(0, 120)}”`);
    for (const { text, where } of placeholders) if (SAMPLE.test(text ?? "")) found.add(`${name}: the sample novel in ${where}: “${text}”`);
  }
  return [...found];
}

const nav = (id) => (p) => p.getByTestId(`nav-${id}`).click();
const click = (testId) => (p) => p.getByTestId(testId).first().click();
const escape = (p) => p.keyboard.press("Escape");

test("no view shows the engine's words (tick, section names, raw ids) or the sample novel's placeholders", async () => {
  const app = await openApp(env, { novel: true, scenes: 4 });
  const { page } = app;
  const found = await walk(page, [
    ["Write", (p) => p.getByTestId("next-scene").waitFor()],
    ["Write, a scene written", async (p) => {
      await p.getByTestId("next-scene").click();
      await p.getByTestId("committed-scene").waitFor();
    }],
    ["Manuscript", async (p) => {
      await nav("manuscript")(p);
      await p.getByTestId("scene").first().waitFor();
    }],
    ["Manuscript, scene menu", (p) => p.locator('[data-testid="scene"][data-tick="1"]').getByTestId("scene-menu").click()],
    ["Manuscript, chapter menu", async (p) => {
      await escape(p);
      await p.getByTestId("chapter-menu").first().click();
    }],
    ["Manuscript, a part heading", async (p) => {
      const part = p.getByTestId("menu-chapter-part");
      if ((await part.count()) === 0) {
        await escape(p);
        await p.getByTestId("chapter-menu").nth(1).click();
      }
      await p.getByTestId("menu-chapter-part").click();
      await p.getByTestId("chapter-form").waitFor();
    }],
    ["Manuscript, versions", async (p) => {
      await escape(p);
      await p.locator('[data-testid="scene"][data-tick="1"]').getByTestId("scene-versions").click();
    }],
    ["Manuscript, checks", (p) => p.locator('[data-testid="scene"][data-tick="2"]').getByTestId("check-scene").click()],
    ["Manuscript, book search", async (p) => {
      await p.getByTestId("open-book-search").click();
      await p.getByTestId("book-search-input").fill("tide");
      await p.getByTestId("search-hit").first().waitFor();
    }],
    ["Graph", async (p) => {
      await escape(p);
      await nav("graph")(p);
      await p.locator('[data-testid="graph-stats"][data-layout="done"]').waitFor({ timeout: 20000 });
    }],
    ["Graph, a character's details", async (p) => {
      await p.evaluate(() => void window.__novelCy.getElementById("C0").emit("tap"));
      await p.getByTestId("entity-history").waitFor();
    }],
    ["Graph, a place's details", async (p) => {
      await p.evaluate(() => void window.__novelCy.getElementById("L0").emit("tap"));
      await p.getByTestId("entity-panel").getByRole("heading", { name: "Rainmarket Docks" }).waitFor();
    }],
    ["Graph, a relationship's details", async (p) => {
      await p.evaluate(() => void window.__novelCy.getElementById("R0").emit("tap"));
      await p.getByTestId("entity-panel").getByRole("heading", { name: /Tamsin Vale — Bram/ }).waitFor();
    }],
    ["Graph, list", click("graph-mode-list")],
    ["Timeline", nav("timeline")],
    ["Loops", nav("loops")],
    ["Loops, a new loop", click("new-loop")],
    ["Bible, guidance", async (p) => {
      await p.getByTestId("nav-bible").click();
      await p.getByTestId("bible-tab-guidance").click();
    }],
    ["Bible, the codex", click("bible-tab-lore")],
    ["Bible, a character's codex page", async (p) => {
      await p.locator('[data-testid="codex-item"][data-id="C0"]').click();
      await p.getByTestId("codex-mention").first().waitFor();
    }],
    ["Bible, a place's codex page", async (p) => {
      await p.getByTestId("codex-back").click();
      await p.locator('[data-testid="codex-item"][data-id="L0"]').click();
      await p.getByTestId("codex-history").waitFor();
    }],
    ["Bible, a lore entry's codex page", async (p) => {
      await p.getByTestId("codex-back").click();
      await p.getByTestId("lore-open").first().click();
      await p.getByTestId("codex-fields").waitFor();
    }],
    ["Bible, editing a character on its codex page", async (p) => {
      await p.getByTestId("codex-back").click();
      await p.locator('[data-testid="codex-item"][data-id="C0"]').click();
      await p.getByTestId("codex-edit").click();
      await p.getByTestId("record-form").waitFor();
    }],
    ["Bible, back to the codex", (p) => p.getByTestId("codex-back").click()],
    ["Bible, a new lore fact", click("lore-add")],
    ["Bible, next prompt", async (p) => {
      await p.getByTestId("bible-tab-preview").click();
      await p.getByTestId("prompt-preview").waitFor();
    }],
    ["Bible, charts", async (p) => {
      await p.getByTestId("bible-tab-charts").click();
      await p.getByTestId("emotion-chart").waitFor();
    }],
    ["Bible, story so far", async (p) => {
      await p.getByTestId("bible-tab-story").click();
      await p.getByTestId("synopsis-chapter").first().waitFor();
    }],
    ["Audit", async (p) => {
      await nav("audit")(p);
      await p.getByTestId("audit-voice-chart").locator("canvas").waitFor();
    }],
    ["Settings", async (p) => {
      await nav("settings")(p);
      await p.getByTestId("role-models").waitFor();
    }],
    ["Settings, a new provider", click("provider-add")],
    ["Branches", async (p) => {
      await p.getByTestId("branch-button").click();
      await p.getByTestId("branches-panel").waitFor();
    }],
    ["Replace a name", async (p) => {
      await escape(p);
      await p.getByTestId("replace-name").click();
      await p.getByTestId("replace-old").fill("Bram");
    }],
    ["Shortcuts", async (p) => {
      await escape(p);
      await p.getByTestId("shortcuts-help").click();
    }],
    ["Library", async (p) => {
      await escape(p);
      await nav("library")(p);
    }],
    ["Library, a new novel", click("new-novel")],
  ]);
  assert.deepEqual(found, [], `engine words or sample placeholders on screen:\n${found.join("\n")}`);
  await app.assertClean(assert);
  await app.close();
});

test("nor do review mode, a failed scene or the import form", async () => {
  const review = await openApp(env, { novel: true, scenes: 2, review: true });
  const found = await walk(review.page, [
    ["Review, the plan", async (p) => {
      await p.getByTestId("next-scene").click();
      await p.getByTestId("plan-review").waitFor();
    }],
    ["Review, the scene", async (p) => {
      await p.getByTestId("plan-accept").click();
      await p.getByTestId("scene-review").waitFor();
    }],
  ]);
  await review.close();
  const failed = await openApp(env, { novel: true, scenes: 2, pendingFailure: true });
  found.push(...(await walk(failed.page, [["Write, a failed scene", (p) => p.getByTestId("run-error").waitFor()], ["Timeline, a failed scene", nav("timeline")]])));
  await failed.close();
  const fresh = await openApp(env, { importFile: "/home/writer/Drafts/salt-road.md" });
  found.push(
    ...(await walk(fresh.page, [
      ["Library, no novel", (p) => p.getByTestId("new-novel").waitFor()],
      ["Import", async (p) => {
        await p.getByTestId("import-manuscript").click();
        await p.getByTestId("import-form").waitFor();
      }],
    ])),
  );
  await fresh.close();
  assert.deepEqual(found, [], `engine words or sample placeholders on screen:\n${found.join("\n")}`);
});
