// Graph: nodes and edges from storyGraph in Cytoscape, counts, a click on a node opens its
// details with history (contradictions highlighted), filters hide kinds, and a 300-node
// graph lays out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openGraph(scenario = {}) {
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

test("a 300-node graph lays out (concentric, not force-directed) and filters", async () => {
  const app = await openGraph({ graphSize: 300 });
  const { page } = app;
  assert.match(await page.getByTestId("graph-counts").textContent(), /^240 characters · 60 locations · \d+ links$/);
  assert.equal(await page.getByTestId("graph-stats").getAttribute("data-layout-name"), "concentric");
  const [nodes, edges] = await visible(page);
  assert.equal(nodes, 300);
  assert.ok(edges > 400, `${edges} edges`);
  const spread = await page.evaluate(() => {
    const xs = window.__novelCy.nodes().map((n) => `${Math.round(n.position("x"))},${Math.round(n.position("y"))}`);
    return new Set(xs).size;
  });
  assert.equal(spread, 300, "every node has a place of its own");
  await page.getByTestId("filter-location").click();
  await expectVisible(page, 240, null, "locations hidden");
  await app.assertClean(assert);
  await app.close();
});
