// Loops board: cards grouped by status with importance, opening tick and notes by tick.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

test("loops are grouped into open, resolved and abandoned, with importance and notes", async () => {
  const app = await openApp(env, { novel: true });
  const { page } = app;
  await page.getByTestId("nav-loops").click();
  await page.getByTestId("loop-card").first().waitFor();
  assert.equal(await page.getByTestId("loop-card").count(), 3);
  for (const [status, description] of [
    ["open", "Who put Tamsin's name on the watch's slate?"],
    ["resolved", "Will Bram betray her to the customs house?"],
    ["abandoned", "The smell of smoke from the net loft."],
  ]) {
    const column = page.getByTestId(`loops-${status}`);
    const cards = column.getByTestId("loop-card");
    assert.equal(await cards.count(), 1, status);
    assert.equal(await cards.getAttribute("data-status"), status);
    assert.match(await cards.textContent(), new RegExp(description.replace(/[?.]/g, "\\$&")));
  }
  const open = page.getByTestId("loops-open").getByTestId("loop-card");
  assert.equal(await open.getAttribute("data-importance"), "high");
  assert.match(await open.textContent(), /high.*mystery.*Opened in scene 1.*Scene 2\s*Tamsin learns her brother is wanted too\./);
  assert.match(await page.getByTestId("loops-resolved").textContent(), /closed in scene 2/);
  await app.assertClean(assert);
  await app.close();
});
