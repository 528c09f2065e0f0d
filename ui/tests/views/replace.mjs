// Replace a name across the manuscript from the header: the preview counts places and scenes
// as the names are typed, the alias choice names the character that bears the old name, Apply
// makes one call and the reader shows the new name; a name not in the book cannot be applied.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openReplace(scenario) {
  const app = await openApp(env, { novel: true, scenes: 2, ...scenario });
  await app.page.getByTestId("nav-manuscript").click();
  await app.page.getByTestId("scene").first().waitFor();
  await app.page.getByTestId("replace-name").click();
  await app.page.getByTestId("replace-name-dialog").waitFor();
  return app;
}

test("replacing a name previews the count, keeps the old name as an alias and refreshes the reader", async () => {
  const app = await openReplace();
  const { page } = app;
  await page.getByTestId("replace-old").fill("Bram");
  await page.getByTestId("replace-new").fill("Brand");
  // Each fixture scene names Bram once in its prose and twice in its summary.
  await page.getByTestId("replace-preview").getByText("6 places in 2 scenes will change.").waitFor();
  const alias = page.getByTestId("replace-alias");
  assert.equal(await alias.isChecked(), true, "keeping the alias is the default");
  assert.match(await page.locator("label", { has: alias }).textContent(), /Add the old name as an alias of Bram/);
  await page.getByTestId("replace-apply").click();
  await page.getByTestId("replace-name-dialog").waitFor({ state: "detached" });
  assert.deepEqual((await app.calls("replace_name")).map((c) => c.args), [{ from: "Bram", to: "Brand", alias: true }]);
  assert.match(await page.getByTestId("toast").textContent(), /Replaced “Bram” with “Brand” in 2 scenes; “Bram” is kept as an alias/);
  await page.getByTestId("scene-prose").first().getByText(/Brand was broad as a mooring post/).waitFor();
  assert.equal(await page.getByTestId("scene-prose").first().getByText(/\bBram\b/).count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "replace-name", "focus back on the opener");
  await app.assertClean(assert);
  await app.close();
});

test("without the alias, and for a name the book does not hold, nothing is applied by mistake", async () => {
  const app = await openReplace();
  const { page } = app;
  await page.getByTestId("replace-old").fill("Zeppelin");
  await page.getByTestId("replace-new").fill("Airship");
  await page.getByTestId("replace-preview").getByText("“Zeppelin” does not appear in the manuscript as a whole word.").waitFor();
  assert.equal(await page.getByTestId("replace-apply").isDisabled(), true);
  assert.equal(await page.getByTestId("replace-alias").count(), 0, "no record bears the name");
  // A word of a longer name: the character holding it is the one offered.
  await page.getByTestId("replace-old").fill("Tamsin");
  await page.getByTestId("replace-new").fill("Tess");
  await page.getByTestId("replace-preview").getByText(/in 2 scenes will change/).waitFor();
  assert.match(await page.locator("label", { has: page.getByTestId("replace-alias") }).textContent(), /alias of Tamsin Vale/);
  await page.getByTestId("replace-alias").uncheck();
  await page.getByTestId("replace-apply").click();
  await page.getByTestId("replace-name-dialog").waitFor({ state: "detached" });
  assert.deepEqual((await app.calls("replace_name")).map((c) => c.args), [{ from: "Tamsin", to: "Tess", alias: false }]);
  assert.doesNotMatch(await page.getByTestId("toast").textContent(), /alias/);
  await app.assertClean(assert);
  await app.close();
});

test("a refused replace shows the engine's message and keeps the dialog open", async () => {
  const app = await openReplace({ errorsOnce: { replace_name: { kind: "storage", message: "could not write scenes/0001.md: disk full" } } });
  const { page } = app;
  await page.getByTestId("replace-old").fill("Bram");
  await page.getByTestId("replace-new").fill("Brand");
  await page.getByTestId("replace-preview").getByText(/will change/).waitFor();
  await page.getByTestId("replace-apply").click();
  assert.match(await page.getByTestId("replace-error").textContent(), /disk full/);
  assert.equal(await page.getByTestId("replace-name-dialog").count(), 1);
  await page.keyboard.press("Escape");
  await page.getByTestId("replace-name-dialog").waitFor({ state: "detached" });
  await page.getByTestId("scene-prose").first().getByText(/Bram was broad/).waitFor();
  await app.assertClean(assert);
  await app.close();
});
