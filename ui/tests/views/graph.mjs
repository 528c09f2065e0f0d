// Graph: nodes and edges from storyGraph in Cytoscape, counts, a click on a node opens its
// details with history (contradictions highlighted), filters hide kinds, edges named in plain
// words, the list view (keyboard, filters), dragged positions kept per novel with "Reset
// layout", and a 300-node graph laid out by fcose without overlap, its labels quiet when zoomed out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp, retryOnCrash } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openGraph(scenario = {}) {
  // A big graph gets a renderer of its own: the shared page's memory is not added to it.
  if (scenario.graphSize) await env.renew();
  const app = await openApp(env, { novel: true, ...scenario });
  await app.page.getByTestId("nav-graph").click();
  await app.page.locator('[data-testid="graph-stats"][data-layout="done"]').waitFor({ timeout: 20000 });
  return app;
}

const visible = (page) =>
  page.getByTestId("graph-stats").evaluate((e) => [Number(e.dataset.visibleNodes), Number(e.dataset.visibleEdges)]);

/** Waits (briefly) until the canvas shows `nodes` nodes and, if given, `edges` edges. */
async function expectVisible(page, nodes, edges, what = "") {
  try {
    await page.waitForFunction(
      ([n, e]) => {
        const d = document.querySelector('[data-testid="graph-stats"]').dataset;
        return Number(d.visibleNodes) === n && (e === null || Number(d.visibleEdges) === e);
      },
      [nodes, edges ?? null],
      { timeout: 3000 },
    );
  } catch {
    assert.fail(`${what}: expected ${nodes} nodes / ${edges} edges, the canvas shows ${await visible(page)}`);
  }
}

test("the graph shows characters and locations with their links and opens a node's details on click", async () => {
  const app = await openGraph();
  const { page } = app;
  assert.equal(await page.getByTestId("graph-counts").textContent(), "3 characters · 2 locations · 4 links");
  assert.equal(await page.getByTestId("view-branch").textContent(), "main", "the graph names the branch it shows");
  assert.deepEqual(await visible(page), [5, 4]);
  assert.equal(await page.getByTestId("graph-stats").getAttribute("data-layout-name"), "cose");
  const shapes = await page.evaluate(() => ({
    character: window.__novelCy.getElementById("C0").style("shape"),
    location: window.__novelCy.getElementById("L0").style("shape"),
    strong: window.__novelCy.getElementById("R0").style("width"),
  }));
  assert.equal(shapes.character, "ellipse");
  assert.equal(shapes.location, "round-rectangle");

  // A real click on the canvas, where Tamsin's node is drawn.
  const at = await page.evaluate(() => window.__novelCy.getElementById("C0").renderedPosition());
  const box = await page.getByTestId("graph-canvas").boundingBox();
  await page.mouse.click(box.x + at.x, box.y + at.y);
  const panel = page.getByTestId("entity-panel");
  await panel.getByRole("heading", { name: "Tamsin Vale" }).waitFor();
  const textContent = await panel.textContent();
  assert.match(textContent, /Role\s*smuggler/);
  assert.match(textContent, /brass key/);
  assert.match(textContent, /Scene 2/);
  const flagged = panel.locator('[data-flagged="true"]');
  assert.equal(await flagged.count(), 1);
  assert.match(await flagged.textContent(), /Contradiction — not applied.*Status.*alive.*dead/);
  // The field the writer changed (history source "writer", typed from the bindings) is marked hers.
  assert.deepEqual(
    await panel.locator(".record-field").filter({ has: page.locator(".writer-mark") }).locator("dt").allTextContents(),
    ["Goalsyours"],
  );
  // What she knows: the scenes she was in, and the deaths on the page she has or has not heard of.
  const knowledge = panel.getByTestId("entity-knowledge");
  assert.equal(await knowledge.getByTestId("knowledge-scenes").textContent(), "In scenes 1, 2.");
  assert.deepEqual(await knowledge.getByTestId("knowledge-death").allTextContents(), [
    "Orrin Pike died in scene 2: Tamsin has not seen or heard of it",
    "Hester Quill died in scene 1: Tamsin learned of it in scene 2",
  ]);
  assert.deepEqual((await app.calls("entity_detail")).map((c) => c.args), [{ id: "C0" }]);
  await page.getByTestId("close-entity").click();
  assert.equal(await panel.count(), 0);
  await app.assertClean(assert);
  await app.close();
});

test("filters hide and show each kind", async () => {
  const app = await openGraph();
  const { page } = app;
  await page.getByTestId("filter-character").click();
  assert.equal(await page.getByTestId("filter-character").getAttribute("aria-pressed"), "false");
  await expectVisible(page, 2, 1, "characters and their edges are hidden");
  await page.getByTestId("filter-character").click();
  await page.getByTestId("filter-presence").click();
  await expectVisible(page, 5, 2, "characters back, presence hidden");
  await page.getByTestId("filter-relationship").click();
  await page.getByTestId("filter-connection").click();
  await expectVisible(page, 5, 0, "no edges");
  await page.getByTestId("filter-location").click();
  await expectVisible(page, 3, 0, "no locations");
  await app.close();
});

test("the search finds an entity and opens its details", async () => {
  const app = await openGraph();
  const { page } = app;
  await page.getByTestId("graph-search").fill("salt");
  await page.getByTestId("graph-search-result").click();
  await page.getByTestId("entity-panel").getByRole("heading", { name: "Salt Gate" }).waitFor();
  assert.ok(await page.evaluate(() => window.__novelCy.getElementById("L1").selected()));
  await app.close();
});

test("a 300-node graph lays out with fcose, no two nodes overlap, and it filters", async () => {
  await retryOnCrash(env, async () => {
    const app = await openGraph({ graphSize: 300 });
    const { page } = app;
    assert.match(await page.getByTestId("graph-counts").textContent(), /^240 characters · 60 locations · \d+ links$/);
    assert.equal(await page.getByTestId("graph-stats").getAttribute("data-layout-name"), "fcose");
    const [nodes, edges] = await visible(page);
    assert.equal(nodes, 300);
    assert.ok(edges > 400, `${edges} edges`);
    const overlaps = await page.evaluate(() => {
      const boxes = window.__novelCy.nodes().map((n) => n.boundingBox({ includeLabels: false }));
      let count = 0;
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i];
          const b = boxes[j];
          if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) count++;
        }
      return count;
    });
    assert.equal(overlaps, 0, "no node is drawn over another");
    await page.getByTestId("filter-location").click();
    await expectVisible(page, 240, null, "locations hidden");
    await app.assertClean(assert);
    await app.close();
  });
});

test("at 300 nodes labels hide when zoomed out and show on zoom, hover and selection", async () => {
  await retryOnCrash(env, async () => {
    const app = await openGraph({ graphSize: 300 });
    const { page } = app;
    // A quiet label is transparent: the text stays for hover and selection.
    const shown = (id) => page.evaluate((i) => Number(window.__novelCy.getElementById(i).style("text-opacity")) > 0, id);
    await page.evaluate(() => window.__novelCy.zoom(0.3));
    assert.equal(await shown("C65"), false, "zoomed out: no label");
    assert.equal(await shown("L3"), false);
    assert.equal(await shown("R65"), false, "nor on edges");
    await page.evaluate(() => window.__novelCy.getElementById("C65").select());
    assert.equal(await shown("C65"), true, "the selected node keeps its label");
    assert.equal(await shown("C66"), false);
    // A real pointer over a node shows its name.
    await page.evaluate(() => {
      const cy = window.__novelCy;
      cy.zoom(0.5);
      cy.center(cy.getElementById("C66"));
    });
    const at = await page.evaluate(() => window.__novelCy.getElementById("C66").renderedPosition());
    const box = await page.getByTestId("graph-canvas").boundingBox();
    await page.mouse.move(box.x + at.x, box.y + at.y);
    await page.waitForFunction(() => Number(window.__novelCy.getElementById("C66").style("text-opacity")) > 0, null, { timeout: 3000 });
    await page.mouse.move(box.x + 2, box.y + 2);
    await page.waitForFunction(() => Number(window.__novelCy.getElementById("C66").style("text-opacity")) === 0, null, { timeout: 3000 });
    await page.evaluate(() => {
      const cy = window.__novelCy;
      cy.zoom({ level: 1, position: cy.getElementById("C66").position() });
    });
    assert.equal(await shown("C66"), true, "zoomed in: labels are back");
    assert.equal(await shown("R65"), true);
    await app.assertClean(assert);
    await app.close();
  });
});

test("edges are named in plain words, on the canvas and in the filters", async () => {
  const app = await openGraph();
  const { page } = app;
  const labels = await page.evaluate(() => Object.fromEntries(window.__novelCy.edges().map((e) => [e.id(), e.style("label")])));
  assert.deepEqual(labels, { "C0@L0": "is in", "C1@L0": "is in", R0: "ally (uneasy)", "L0~L1": "a flooded stair" });
  const filters = await page.locator(".graph-filters").textContent();
  assert.match(filters, /Who is where/);
  assert.match(filters, /Who knows whom/);
  assert.doesNotMatch(filters, /Presence/);
  assert.doesNotMatch(await page.locator(".graph-view").textContent(), /is at/);
  await app.close();
});

test("the list view shows every character and place with its links, follows the filters, and works by keyboard", async () => {
  const app = await openGraph();
  const { page } = app;
  await page.getByTestId("graph-mode-list").click();
  assert.equal(await page.getByTestId("graph-mode-list").getAttribute("aria-pressed"), "true");
  assert.equal(await page.getByTestId("graph-canvas").count(), 0, "the list replaces the canvas");
  const items = page.getByTestId("graph-list-item");
  assert.equal(await items.count(), 5);
  const item = (id) => page.locator(`[data-testid="graph-list-item"][data-id="${id}"]`);
  const tamsin = await item("C0").textContent();
  assert.match(tamsin, /Tamsin Vale/);
  assert.match(tamsin, /is in Rainmarket Docks/);
  assert.match(tamsin, /knows Bram: ally \(uneasy\)/);
  assert.match(await item("C1").textContent(), /knows Tamsin Vale: ally \(uneasy\)/);
  const docks = await item("L0").textContent();
  assert.match(docks, /Tamsin Vale is here/);
  assert.match(docks, /Bram is here/);
  assert.match(docks, /leads to Salt Gate \(a flooded stair\)/);
  assert.match(await item("C2").textContent(), /No links shown/);

  // Keyboard: arrows move between entries, Home/End jump, Enter opens the details.
  const entries = page.locator("button.graph-entry");
  await entries.first().focus();
  const focused = () => page.evaluate(() => document.activeElement?.closest("li")?.dataset.id ?? null);
  const first = await focused();
  await page.keyboard.press("ArrowDown");
  const second = await focused();
  assert.notEqual(second, first);
  assert.ok(second);
  await page.keyboard.press("End");
  assert.equal(await focused(), "L1", "End: the last place (Salt Gate)");
  await page.keyboard.press("ArrowUp");
  assert.equal(await focused(), "L0");
  await page.keyboard.press("Home");
  assert.equal(await focused(), first);
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.getByTestId("entity-panel").getByRole("heading", { name: "Salt Gate" }).waitFor();

  // The same filters as the canvas.
  await page.getByTestId("filter-presence").click();
  assert.doesNotMatch(await item("C0").textContent(), /is in/);
  assert.match(await item("C0").textContent(), /knows Bram/);
  await page.getByTestId("filter-location").click();
  assert.equal(await items.count(), 3, "places hidden");
  assert.equal(await page.getByRole("heading", { name: "Places" }).count(), 0);
  await page.getByTestId("graph-mode-graph").click();
  await page.getByTestId("graph-canvas").waitFor();
  await app.assertClean(assert);
  await app.close();
});

test("a dragged node stays where the writer put it when the graph is opened again, until Reset layout", async () => {
  const app = await openGraph();
  const { page } = app;
  const reset = page.getByTestId("graph-reset-layout");
  assert.ok(await reset.isDisabled(), "nothing to reset before a drag");
  const at = await page.evaluate(() => window.__novelCy.getElementById("C0").renderedPosition());
  const box = await page.getByTestId("graph-canvas").boundingBox();
  await page.mouse.move(box.x + at.x, box.y + at.y);
  await page.mouse.down();
  await page.mouse.move(box.x + at.x + 30, box.y + at.y + 20, { steps: 4 });
  await page.mouse.move(box.x + at.x + 70, box.y + at.y + 45, { steps: 4 });
  await page.mouse.up();
  const dragged = await page.evaluate(() => window.__novelCy.getElementById("C0").position());
  const before = await page.evaluate(() => Object.fromEntries(window.__novelCy.nodes().map((n) => [n.id(), n.position()])));
  await page.waitForFunction(() => !document.querySelector('[data-testid="graph-reset-layout"]').disabled, null, { timeout: 3000 });
  const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("novel-agent.graph-positions:")));
  assert.deepEqual(stored, ["novel-agent.graph-positions:/home/writer/Novels/salt-and-iron"], "kept under the novel's folder");

  // Away and back: the same places (preset), not a fresh random layout.
  await page.getByTestId("nav-manuscript").click();
  await page.getByTestId("graph-stats").waitFor({ state: "detached" });
  await page.getByTestId("nav-graph").click();
  await page.locator('[data-testid="graph-stats"][data-layout="done"]').waitFor({ timeout: 20000 });
  assert.equal(await page.getByTestId("graph-stats").getAttribute("data-layout-name"), "preset");
  const after = await page.evaluate(() => Object.fromEntries(window.__novelCy.nodes().map((n) => [n.id(), n.position()])));
  for (const [id, p] of Object.entries(before)) {
    assert.ok(Math.abs(after[id].x - p.x) < 0.5 && Math.abs(after[id].y - p.y) < 0.5, `${id} kept its place`);
  }
  assert.ok(Math.abs(after.C0.x - dragged.x) < 0.5 && Math.abs(after.C0.y - dragged.y) < 0.5);

  await reset.click();
  await page.locator('[data-testid="graph-stats"][data-layout="done"][data-layout-name="cose"]').waitFor({ timeout: 20000 });
  assert.ok(await reset.isDisabled());
  assert.equal(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("novel-agent.graph-positions:")).length), 0);
  await app.assertClean(assert);
  await app.close();
});

/** Whether Cytoscape draws the node's name now: its own test for "too small at this zoom", and not transparent. */
const drawn = (page, id) =>
  page.evaluate((i) => {
    const cy = window.__novelCy;
    const n = cy.getElementById(i);
    return cy.renderer().eleTextBiggerThanMin(n) && Number(n.style("text-opacity")) > 0 && n.style("label") !== "";
  }, id);
/** The node's name size on screen, in pixels. */
const onScreen = (page, id) => page.evaluate((i) => parseFloat(window.__novelCy.getElementById(i).style("font-size")) * window.__novelCy.zoom(), id);

test("characters linked to nobody sit in a grid where no two names meet, every name drawn at the opening zoom", async () => {
  const app = await openGraph({ unlinked: 12 });
  const { page } = app;
  const lone = ["C2", ...Array.from({ length: 12 }, (_, i) => `C${10 + i}`)];
  const boxes = await page.evaluate(() =>
    Object.fromEntries(window.__novelCy.nodes().map((n) => [n.id(), n.boundingBox({ includeLabels: true, includeOverlays: false })])),
  );
  const meet = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
  const clashes = [];
  for (const a of lone)
    for (const b of Object.keys(boxes)) if (a !== b && (!lone.includes(b) || a < b) && meet(boxes[a], boxes[b])) clashes.push(`${a}/${b}`);
  assert.deepEqual(clashes, [], "no unlinked node's name runs into another node or name");
  for (const id of Object.keys(boxes)) assert.ok(await drawn(page, id), `${id}'s name is drawn at the opening zoom`);
  for (const id of Object.keys(boxes)) assert.ok((await onScreen(page, id)) >= 9, `${id}'s name is readable`);
  await app.assertClean(assert);
  await app.close();
});

test("zoomed out to half, names still show; the selected and hovered node's name stays readable further out", async () => {
  const app = await openGraph();
  const { page } = app;
  await page.evaluate(() => {
    const cy = window.__novelCy;
    cy.zoom(0.5);
    cy.center();
  });
  for (const id of ["C0", "C1", "C2", "L0", "L1"]) assert.ok(await drawn(page, id), `${id}'s name shows at zoom 0.5`);
  await page.evaluate(() => {
    const cy = window.__novelCy;
    cy.zoom(0.2);
    cy.center();
    cy.getElementById("C0").select();
  });
  assert.ok(await drawn(page, "C0"), "the selected node is named");
  assert.ok((await onScreen(page, "C0")) >= 12, "in letters that can be read");
  // A real pointer over another node names it too, and leaving it lets the name shrink back.
  const at = await page.evaluate(() => window.__novelCy.getElementById("L1").renderedPosition());
  const box = await page.getByTestId("graph-canvas").boundingBox();
  await page.mouse.move(box.x + at.x, box.y + at.y);
  await page.waitForFunction(() => window.__novelCy.getElementById("L1").hasClass("hover"), null, { timeout: 3000 });
  assert.ok(await drawn(page, "L1"), "the hovered node is named");
  assert.ok((await onScreen(page, "L1")) >= 12);
  await page.mouse.move(box.x + 2, box.y + 2);
  await page.waitForFunction(() => !window.__novelCy.getElementById("L1").hasClass("hover"), null, { timeout: 3000 });
  assert.ok((await onScreen(page, "L1")) < 12, "an ordinary name is its ordinary size again");
  assert.ok(await drawn(page, "C0"), "the selection keeps its name");
  await app.assertClean(assert);
  await app.close();
});

test("the Graph/List switch is styled on a fresh start, before Settings has ever been opened", async () => {
  const app = await openGraph();
  const { page } = app;
  const look = await page.getByTestId("graph-mode-graph").evaluate((b) => {
    const s = getComputedStyle(b);
    const probe = document.createElement("span");
    probe.style.color = "var(--accent)";
    document.body.append(probe);
    const accent = getComputedStyle(probe).color;
    probe.remove();
    return { background: s.backgroundColor, accent, border: s.borderTopStyle, group: getComputedStyle(b.parentElement).borderTopStyle };
  });
  assert.equal(look.background, look.accent, "the chosen mode is filled with the accent");
  assert.equal(look.border, "none");
  assert.equal(look.group, "solid", "the switch has its frame");
  await app.close();
});

test("a character's history names places, not ids, and shows the first record field by field", async () => {
  const app = await openGraph();
  const { page } = app;
  await page.getByTestId("graph-mode-list").click();
  await page.locator('[data-testid="graph-list-item"][data-id="C0"] button.graph-entry').click();
  const history = page.getByTestId("entity-history");
  await history.waitFor();
  const moved = history.locator(".history-item", { hasText: "Last location" });
  assert.equal(await moved.locator(".history-change").textContent(), "Salt Gate → Rainmarket Docks");
  const start = history.locator("li", { has: page.getByRole("heading", { name: "At the start" }) });
  const first = await start.textContent();
  assert.doesNotMatch(first, /[{}"]/, "no raw JSON");
  assert.match(first, /First recorded/);
  assert.match(first, /Role\s*smuggler/);
  assert.match(first, /Last location\s*Salt Gate/);
  assert.match(first, /Arc\s*Want\s*her brother free/);
  assert.doesNotMatch(first, /\bL1\b|\bC0\b/, "no ids");
  await app.assertClean(assert);
  await app.close();
});
