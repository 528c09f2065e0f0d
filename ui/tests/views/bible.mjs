// Story bible: record edits on the entity panel (a character's arc, life, aliases and
// relationships; a place's connections), loop actions and new loops, lore, guidance, the next
// prompt's preview, the memory proposal after a scene edit, and the charts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openBible(scenario = {}) {
  const app = await openApp(env, { novel: true, ...scenario });
  await app.page.getByTestId("nav-bible").click();
  return app;
}

test("a character is edited on its panel: only changed fields are sent, the writer's fields are marked", async () => {
  const app = await openApp(env, { novel: true });
  const { page } = app;
  await page.getByTestId("nav-graph").click();
  await page.getByTestId("graph-search").fill("tamsin");
  await page.getByTestId("graph-search-result").first().click();
  const panel = page.getByTestId("entity-panel");
  await panel.getByRole("heading", { name: "Tamsin Vale" }).waitFor();
  assert.match(await panel.locator(".record-field", { hasText: "Goals" }).textContent(), /yours/);
  await page.getByTestId("edit-entity").click();
  const form = page.getByTestId("record-form");
  assert.equal(await form.getByTestId("overridden-goals").count(), 1);
  assert.equal(await form.getByTestId("overridden-role").count(), 0);
  assert.equal(await form.getByTestId("record-name").inputValue(), "Tamsin Vale");
  assert.equal(await form.getByTestId("record-inventory").inputValue(), "brass key, oilskin coat");
  await form.getByTestId("record-emotional_state").fill("furious");
  await form.getByTestId("record-inventory").fill("brass key, Bram's knife");
  await form.getByTestId("record-save").click();
  await form.waitFor({ state: "detached" });
  const [call] = await app.calls("edit_record");
  assert.deepEqual(call.args, { id: "C0", update: { changes: { emotional_state: "furious", inventory: ["brass key", "Bram's knife"] }, append: {} } });
  assert.match(await page.getByTestId("toast").textContent(), /Saved/);
  // A refused edit keeps the form open with the engine's message.
  await page.getByTestId("edit-entity").click();
  await page.getByTestId("record-name").fill("");
  await page.getByTestId("record-save").click();
  assert.match(await page.getByTestId("record-error").textContent(), /name must not be empty/);
  await app.assertClean(assert);
  await app.close();
});

async function openPanel(scenario, search, heading) {
  const app = await openApp(env, { novel: true, scenes: 2, ...scenario });
  await app.page.getByTestId("nav-graph").click();
  await app.page.getByTestId("graph-search").fill(search);
  await app.page.getByTestId("graph-search-result").first().click();
  await app.page.getByTestId("entity-panel").getByRole("heading", { name: heading }).waitFor();
  return app;
}

test("a character's arc, life and aliases are edited on its panel: nested and whole-list changes are sent", async () => {
  const app = await openPanel({}, "tamsin", "Tamsin Vale");
  const { page } = app;
  await page.getByTestId("edit-entity").click();
  const form = page.getByTestId("record-form");
  assert.equal(await form.getByTestId("record-arc-want").inputValue(), "her brother free");
  assert.equal(await form.getByTestId("record-status").inputValue(), "alive");
  const aliases = form.getByTestId("record-aliases-item");
  assert.deepEqual(await aliases.allTextContents(), ["the Vale girl×", "Tam, of the Docks×"], "an alias with a comma stays whole");
  await form.getByTestId("record-aliases-remove").first().click();
  await form.getByTestId("record-aliases-new").fill("Red Tam");
  await form.getByTestId("record-aliases-new").press("Enter");
  await form.getByTestId("record-aliases-new").fill("red tam");
  await form.getByTestId("record-aliases-add").click();
  assert.equal(await aliases.count(), 2, "Enter adds without saving; a repeat is not added");
  await form.getByTestId("record-arc-phase").fill("the long night");
  await form.getByTestId("record-status").selectOption("dead");
  await form.getByTestId("record-save").click();
  await form.waitFor({ state: "detached" });
  const [call] = await app.calls("edit_record");
  assert.deepEqual(call.args, {
    id: "C0",
    update: { changes: { status: "dead", aliases: ["Tam, of the Docks", "Red Tam"], arc: { phase: "the long night" } }, append: {} },
  });
  assert.match(await page.getByTestId("toast").textContent(), /^Saved\.$/);
  await app.assertClean(assert);
  await app.close();
});

test("a character's relationships are edited and a new one added from its panel; bad values show the engine's reason", async () => {
  const app = await openPanel({}, "tamsin", "Tamsin Vale");
  const { page } = app;
  const rows = page.getByTestId("relationship");
  await rows.first().waitFor();
  assert.match(await rows.first().textContent(), /Bram.*ally \(uneasy\).*4\/10/);
  await rows.first().getByTestId("relationship-edit").click();
  const form = page.getByTestId("record-form");
  assert.equal(await form.getByTestId("record-kind").inputValue(), "ally");
  assert.equal(await form.getByLabel("How Tamsin Vale sees Bram").inputValue(), "useful, for now");
  assert.equal(await form.getByLabel("How Bram sees Tamsin Vale").inputValue(), "trouble");
  await form.getByTestId("record-intensity").fill("11");
  await form.getByTestId("record-save").click();
  assert.match(await form.getByTestId("record-error").textContent(), /intensity.*outside 1–10/);
  await form.getByTestId("record-intensity").fill("9");
  await form.getByTestId("record-kind").fill("rival");
  await form.getByLabel("How Bram sees Tamsin Vale").fill("a debt he means to collect");
  await form.getByTestId("record-save").click();
  await form.waitFor({ state: "detached" });
  const edits = (await app.calls("edit_record")).map((c) => c.args);
  assert.deepEqual(edits[1], { id: "R0", update: { changes: { kind: "rival", intensity: 9, perspective_b: "a debt he means to collect" }, append: {} } });

  await page.getByTestId("relationship-new").click();
  const add = page.getByTestId("relationship-form");
  const options = await add.getByTestId("relationship-other").locator("option").allTextContents();
  assert.deepEqual(options, ["Old Hesk"], "only characters she is not related to yet");
  await add.getByTestId("relationship-add").click();
  assert.match(await add.getByTestId("relationship-error").textContent(), /`kind` must not be empty/);
  await add.getByTestId("relationship-kind").fill("debtor");
  await add.getByTestId("relationship-intensity").fill("7");
  await add.getByLabel("How Tamsin Vale sees Old Hesk").fill("owes him a boat");
  await add.getByLabel("How Old Hesk sees Tamsin Vale").fill("a mark");
  await add.getByTestId("relationship-add").click();
  await add.waitFor({ state: "detached" });
  const added = (await app.calls("add_record")).map((c) => c.args.record);
  assert.equal(added.length, 2, "the refused one, then the added one");
  assert.deepEqual(added[1], {
    record: "relationship",
    character_a: "C0",
    character_b: "C2",
    kind: "debtor",
    status: null,
    intensity: 7,
    perspective_a: "owes him a boat",
    perspective_b: "a mark",
  });
  assert.match(await page.getByTestId("toast").textContent(), /Tamsin Vale and Old Hesk are related now/);
  await app.assertClean(assert);
  await app.close();
});

test("a place is connected to another and a connection removed after a confirmation", async () => {
  const app = await openPanel({ graphSize: 20 }, "Place 1", "Salt Gate");
  const { page } = app;
  const rows = page.getByTestId("connection");
  await rows.first().waitFor();
  assert.deepEqual(await rows.evaluateAll((r) => r.map((e) => e.dataset.other)), ["L0", "L2"]);
  await page.getByTestId("connection-new").click();
  const form = page.getByTestId("connection-form");
  assert.deepEqual(await form.getByTestId("connection-other").locator("option").allTextContents(), ["Place 3"]);
  await form.getByTestId("connection-description").fill("the night ferry");
  await form.getByTestId("connection-add").click();
  await form.waitFor({ state: "detached" });
  // Connected twice (another window got there first): the engine's reason is shown.
  await page.getByTestId("connection-new").click();
  await page.getByTestId("connection-add").click();
  assert.match(await page.getByTestId("connection-error").textContent(), /already connected/);
  await page.getByTestId("connection-form").getByRole("button", { name: "Cancel" }).click();

  const docks = page.locator('[data-testid="connection"][data-other="L0"]');
  await docks.getByTestId("connection-remove").click();
  assert.equal((await app.calls("change_connection")).length, 2, "nothing is removed before the confirmation");
  await docks.getByTestId("connection-remove-confirm").click();
  await page.waitForFunction(() => window.__calls.filter((c) => c.cmd === "change_connection").length === 3);
  assert.deepEqual(
    (await app.calls("change_connection")).map((c) => c.args.change),
    [
      { op: "connect", a: "L1", b: "L3", description: "the night ferry" },
      { op: "connect", a: "L1", b: "L3", description: "" },
      { op: "disconnect", a: "L1", b: "L0" },
    ],
  );
  await app.assertClean(assert);
  await app.close();
});

test("a loop is opened from the board; an empty one is refused with the engine's reason", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  await page.getByTestId("nav-loops").click();
  await page.getByTestId("new-loop").click();
  await page.getByTestId("new-loop-save").click();
  assert.match(await page.getByTestId("new-loop-error").textContent(), /`description` must not be empty/);
  await page.getByTestId("new-loop-description").fill("Who rings the tide bells at night?");
  await page.getByTestId("new-loop-importance").selectOption("critical");
  await page.getByTestId("new-loop-save").click();
  await page.getByTestId("new-loop-form").waitFor({ state: "detached" });
  await page.getByTestId("new-loop").click();
  await page.getByTestId("new-loop-description").fill("Bram's promise to the customs house");
  await page.getByTestId("new-loop-category").fill("promise");
  await page.getByTestId("new-loop-save").click();
  await page.getByTestId("new-loop-form").waitFor({ state: "detached" });
  const added = (await app.calls("add_record")).map((c) => c.args.record);
  assert.deepEqual(added.slice(1), [
    { record: "loop", description: "Who rings the tide bells at night?", category: "conflict", importance: "critical" },
    { record: "loop", description: "Bram's promise to the customs house", category: "promise", importance: "medium" },
  ]);
  assert.match(await page.getByTestId("toast").textContent(), /Loop O\d+ opened/);
  await app.assertClean(assert);
  await app.close();
});

test("loops are resolved with a note, reopened and edited from their cards", async () => {
  const app = await openApp(env, { novel: true });
  const { page } = app;
  await page.getByTestId("nav-loops").click();
  const open = page.getByTestId("loops-open").getByTestId("loop-card");
  await open.getByTestId("loop-resolve").click();
  await open.getByTestId("loop-note").fill("Tamsin learns who wrote her name");
  await open.getByTestId("loop-confirm").click();
  await open.getByTestId("loop-form").waitFor({ state: "detached" });
  const resolved = page.getByTestId("loops-resolved").getByTestId("loop-card");
  await resolved.getByTestId("loop-reopen").click();
  await resolved.getByTestId("loop-confirm").click();
  await open.getByTestId("loop-edit").click();
  await open.getByTestId("loop-importance").selectOption("critical");
  await open.getByTestId("loop-confirm").click();
  await open.getByTestId("loop-form").waitFor({ state: "detached" });
  const acts = (await app.calls("act_on_loop")).map((c) => [c.args.action, c.args.note]);
  assert.deepEqual(acts, [
    ["resolve", "Tamsin learns who wrote her name"],
    ["reopen", ""],
  ]);
  const [edit] = await app.calls("edit_loop");
  assert.equal(edit.args.changes.importance, "critical");
  assert.equal(edit.args.changes.description, "Who put Tamsin's name on the watch's slate?");
  await app.assertClean(assert);
  await app.close();
});

test("lore is added, edited and deleted after a confirmation, and the next prompt shows it", async () => {
  const app = await openBible();
  const { page } = app;
  await page.getByTestId("bible-tab-lore").click();
  await page.getByTestId("lore-row").first().waitFor();
  assert.equal(await page.getByTestId("lore-row").count(), 1);
  await page.getByTestId("lore-add").click();
  await page.getByTestId("lore-fact").fill("The tide bells ring only for the drowned.");
  await page.getByTestId("lore-category").fill("custom");
  await page.getByTestId("lore-keywords").fill("bells, tide bells, ");
  await page.getByTestId("lore-save").click();
  await page.getByTestId("lore-form").waitFor({ state: "detached" });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="lore-row"]').length === 2);
  const [add] = await app.calls("add_record");
  assert.deepEqual(add.args.record, {
    record: "lore",
    fact: "The tide bells ring only for the drowned.",
    category: "custom",
    importance: "medium",
    keywords: ["bells", "tide bells"],
    aliases: [],
    always_on: false,
  });

  await page.getByTestId("bible-tab-preview").click();
  const lore = page.locator('[data-testid="preview-section"][data-name="lore"]');
  await lore.waitFor();
  assert.match(await lore.textContent(), /^Lore\s*2[0-9]\s*600/);
  assert.match(await page.getByTestId("preview-user").textContent({ timeout: 2000 }), /tide bells ring only for the drowned/);
  assert.match(await page.locator('[data-name="recent"]').textContent(), /^Recent scenes\s*trimmed/);
  // Every section in the writer's words, none by the engine's name.
  const rows = await page.getByTestId("preview-section").locator("th").allTextContents();
  assert.ok(rows.includes("End of the last scene") && rows.includes("What the lookups found"), rows.join(" | "));
  assert.ok(!rows.some((r) => /_|previous_tail|tool_results/.test(r)), rows.join(" | "));
  assert.match(await page.getByTestId("preview-total").textContent(), /tokens in all/);

  await page.getByTestId("bible-tab-lore").click();
  const row = page.locator('[data-testid="lore-row"][data-id="F1"]');
  await row.getByTestId("lore-edit").click();
  await page.getByTestId("lore-always").check();
  await page.getByTestId("lore-save").click();
  await page.getByTestId("lore-form").waitFor({ state: "detached" });
  assert.equal((await app.calls("edit_lore"))[0].args.changes.always_on, true);
  await row.getByTestId("lore-delete").click();
  assert.equal((await app.calls("delete_lore")).length, 0, "nothing is deleted before the confirmation");
  await row.getByTestId("lore-delete-confirm").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="lore-row"]').length === 1);
  assert.deepEqual((await app.calls("delete_lore")).map((c) => c.args.id), ["F1"]);
  await app.assertClean(assert);
  await app.close();
});

test("a character and a place are added from the bible; an empty name is refused", async () => {
  const app = await openBible();
  const { page } = app;
  await page.getByTestId("bible-tab-lore").click();
  await page.getByTestId("add-character").click();
  await page.getByTestId("record-add").click();
  assert.match(await page.getByTestId("record-error").textContent(), /name must not be empty/);
  await page.getByTestId("record-name").fill("Wren Ashdown");
  await page.getByTestId("record-role").fill("harbor clerk");
  await page.getByTestId("record-facts").fill("sister: Tamsin's old friend\nnot a fact line");
  await page.getByTestId("record-add").click();
  await page.getByTestId("add-character-form").waitFor({ state: "detached" });
  await page.getByTestId("add-location").click();
  await page.getByTestId("record-name").fill("The Customs House");
  await page.getByTestId("record-tension_level").fill("4");
  await page.getByTestId("record-add").click();
  await page.getByTestId("add-location-form").waitFor({ state: "detached" });
  const added = (await app.calls("add_record")).map((c) => c.args.record);
  assert.equal(added.length, 3, "the refused one, then the two added");
  assert.equal(added[0].name, "");
  assert.equal(added[1].record, "character");
  assert.equal(added[1].role, "harbor clerk");
  assert.deepEqual(added[1].facts, { sister: "Tamsin's old friend" });
  assert.equal(added[2].record, "location");
  assert.equal(added[2].tension_level, 4);
  await app.assertClean(assert);
  await app.close();
});

test("guidance: the author's note, foundation, outline and pressure are changed", async () => {
  const app = await openBible();
  const { page } = app;
  await page.getByTestId("author-note").fill("Keep the magic subtle.");
  await page.getByTestId("author-note-save").click();
  await page.getByTestId("foundation-author").fill("  Mara Quill ");
  await page.getByTestId("foundation-themes").fill("loyalty, debt, the sea");
  await page.getByTestId("foundation-goal").fill("Get Bram out of the city alive.");
  await page.getByTestId("foundation-save").click();
  await page.waitForFunction(() => window.__calls.some((c) => c.cmd === "edit_foundation"));
  const [note] = await app.calls("set_author_note");
  assert.equal(note.args.note, "Keep the magic subtle.");
  const [foundation] = await app.calls("edit_foundation");
  assert.deepEqual(foundation.args.changes.themes, ["loyalty", "debt", "the sea"]);
  assert.equal(foundation.args.changes.goal, "Get Bram out of the city alive.");
  assert.equal(foundation.args.changes.author, "  Mara Quill ", "the engine trims it");
  assert.equal(foundation.args.changes.title, null, "an unchanged field is not sent");

  await page.getByTestId("beat-new").fill("The harbor is sealed at dawn");
  await page.getByTestId("beat-add").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="beat"]').length === 3);
  await page.getByTestId("beat").nth(2).getByTestId("beat-up").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="beat"]')[1]?.textContent.includes("sealed at dawn"));
  await page.getByTestId("beat").first().getByTestId("beat-done").check();
  await page.waitForFunction(() => document.querySelector('[data-testid="beat"]')?.dataset.status === "done");
  await page.getByTestId("beat").last().getByTestId("beat-remove").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="beat"]').length === 2);
  assert.deepEqual(
    (await app.calls("change_outline")).map((c) => c.args.change.op),
    ["add", "move", "mark", "remove"],
  );

  await page.getByTestId("clock-name").fill("The tide council's patience");
  await page.getByTestId("clock-max").fill("6");
  await page.getByTestId("clock-add").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="clock"]').length === 2);
  await page.getByTestId("event-tick").fill("9");
  await page.getByTestId("event-text").fill("The hanging tide");
  await page.getByTestId("event-add").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="event"]').length === 2);
  const pressure = (await app.calls("change_pressure")).map((c) => c.args.change);
  assert.equal(pressure[0].op, "add_clock");
  assert.equal(pressure[0].clock.max, 6);
  assert.deepEqual(pressure[1], { op: "add_event", tick: 9, description: "The hanging tide" });
  // An invalid clock shows the engine's reason.
  await page.getByTestId("clock-name").fill("");
  await page.getByTestId("clock-add").click();
  assert.match(await page.getByTestId("pressure-error").textContent(), /needs a name/);
  await app.assertClean(assert);
  await app.close();
});

test("after a scene edit the proposal lists memory changes to untick and later scenes that disagree", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  await page.getByTestId("nav-manuscript").click();
  const first = page.locator('[data-testid="scene"][data-tick="1"]');
  await first.getByTestId("edit-scene").click();
  await first.getByTestId("scene-editor").locator(".cm-content").fill("Bram fell on the customs-house steps and did not rise.");
  await first.getByTestId("save-scene").click();
  const dialog = page.getByTestId("memory-proposal");
  await dialog.waitFor();
  assert.equal((await app.calls("propose_scene_memory")).length, 0, "nothing is re-read before the writer asks");
  await page.getByTestId("proposal-reread").click();
  await page.getByTestId("proposal-change").first().waitFor();
  assert.equal(await page.getByTestId("proposal-title").textContent(), "The Bells Fall Silent");
  assert.equal(await page.getByTestId("proposal-change").count(), 3);
  // Each change by name, field by field as before → after.
  const bram = page.getByTestId("proposal-change").first();
  assert.match(await bram.textContent(), /^Character Bram/);
  assert.deepEqual(await bram.getByTestId("change-line").allTextContents(), ["Alive or dead: alive → dead", "Whereabouts: Rainmarket Docks → Salt Gate"]);
  assert.match(await page.getByTestId("proposal-change").nth(1).textContent(), /^Relationship Tamsin Vale and Bram/);
  assert.match(await page.getByTestId("later-issues").textContent(), /Scene 2 “Rope and Salt”: Bram is dead but speaks here\./);
  await page.getByTestId("proposal-change-1").uncheck();
  assert.equal(await page.getByTestId("proposal-accept").textContent(), "Accept 2 changes");
  await page.getByTestId("proposal-accept").click();
  await dialog.waitFor({ state: "detached" });
  const [accept] = await app.calls("accept_scene_memory");
  assert.deepEqual(accept.args.unticked, [1]);
  assert.equal(accept.args.proposal.tick, 1);
  assert.match(await page.getByTestId("toast").textContent(), /Memory updated from scene 1: 2 changes applied/);
  await app.assertClean(assert);
  await app.close();
});

test("the charts draw tension by scene and each character's emotional states", async () => {
  const app = await openBible({ scenes: 4 });
  const { page } = app;
  await page.getByTestId("bible-tab-charts").click();
  const tension = page.getByTestId("tension-chart");
  await tension.locator("canvas").waitFor();
  await page.getByTestId("emotion-chart").locator("canvas").waitFor();
  const legend = await tension.locator(".u-legend").textContent();
  assert.match(legend, /Tension/);
  // The drawn canvas is not blank.
  const inked = await tension.locator("canvas").evaluate((c) => {
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
  assert.ok(inked > 500, `the tension chart has ink (${inked} pixels)`);
  assert.match(await page.getByTestId("emotion-chart").locator(".u-legend").textContent(), /Tamsin Vale.*Bram Okafor/s);
  assert.match(await page.getByTestId("emotion-table").textContent(), /Tamsin Vale.*scene 2: furious/s);
  await app.assertClean(assert);
  await app.close();
});

test("the emotional-states chart leaves room for every name: none is cut at its edge", async () => {
  const app = await openBible({ scenes: 4 });
  const { page } = app;
  await page.getByTestId("bible-tab-charts").click();
  const chart = page.getByTestId("emotion-chart");
  await chart.locator("canvas").waitFor();
  // A name cut by the chart's edge leaves ink in its first columns of pixels.
  const edge = await chart.locator("canvas").evaluate((c) => {
    const ratio = c.width / c.getBoundingClientRect().width;
    const cols = Math.ceil(4 * ratio);
    const d = c.getContext("2d").getImageData(0, 0, cols, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
  assert.equal(edge, 0, "nothing is drawn against the left edge");
  const box = await chart.boundingBox();
  const canvas = await chart.locator("canvas").boundingBox();
  assert.ok(canvas.x >= box.x && canvas.x + canvas.width <= box.x + box.width + 1, "the chart stays inside its card");
  assert.match(await chart.locator(".u-legend").textContent(), /Lieutenant Corwin Hale of the Salt Watch/, "the legend names him in full");
  await app.assertClean(assert);
  await app.close();
});
