// The story's history: Regenerate (button and Ctrl+Shift+Enter) keeps the old scene as a
// version; the versions panel diffs two versions side by side and restores one; Rewind (a
// "no" in the shell's native question changes nothing); the branches panel switches; review
// mode sends the writer's plan edit, prose edit and unticked memory changes, and a rejection
// offers Write again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

const NEW_PROSE = "Rain had found its way under Tamsin's collar again.\n\nThis time Bram did not wait for her at the gate.";

test("Regenerate writes the latest scene again and its versions show the old text beside the new, with Restore", async () => {
  const app = await openApp(env, { novel: true, scenes: 2, ticks: [{ prose: NEW_PROSE, revise: true }] });
  const { page } = app;
  // The shortcut listener is installed once the shell has rendered; a key pressed before that
  // is lost (seen on a loaded machine).
  await page.getByTestId("novel-stats").waitFor();
  await page.getByTestId("regenerate-scene").waitFor();
  await page.keyboard.press("Control+Shift+Enter");
  await page.getByTestId("regenerated").waitFor();
  assert.match(await page.getByTestId("regenerated").textContent(), /Scene 2 was written again\. The earlier text is kept as a version/);
  const [call] = await app.calls("regenerate_scene");
  assert.deepEqual(call.args, { steering: null, onEvent: "[channel]" });
  assert.equal((await app.calls("run_ticks")).length, 0, "no new scene was asked for");
  assert.match(await page.getByTestId("novel-stats").textContent(), /^2 scenes/, "still two scenes");

  await page.getByTestId("open-versions").click();
  const panel = page.locator('[data-testid="scene"][data-tick="2"]').getByTestId("versions-panel");
  await panel.waitFor();
  assert.deepEqual(await panel.getByTestId("version-row").evaluateAll((rows) => rows.map((r) => [r.dataset.origin, r.dataset.current])), [
    ["revision", "false"],
    ["draft", "false"],
    ["regeneration", "true"],
  ]);
  await panel.getByTestId("version-diff").waitFor();
  // The old scene beside the new one, passing over the new one's first draft.
  assert.equal(await panel.getByTestId("diff-old").locator(".diff-label").textContent(), "Version 1 · Written");
  assert.equal(await panel.getByTestId("diff-new").locator(".diff-label").textContent(), "Version 3 · Written again (shown now)");
  const removed = (await panel.getByTestId("diff-old").getByTestId("diff-removed").allTextContents()).join(" ");
  const added = (await panel.getByTestId("diff-new").getByTestId("diff-added").allTextContents()).join(" ");
  assert.ok(removed.length > 0 && added.includes("Bram did not wait"), `${removed} | ${added}`);
  assert.equal(await panel.getByTestId("diff-new").getByTestId("diff-removed").count(), 0, "the new side shows no removed words");
  assert.match(await panel.getByTestId("diff-summary").textContent(), /\d+ words? removed · \d+ words? added/);

  await panel.getByTestId("restore-version").first().click();
  await page.getByTestId("toast").filter({ hasText: "shows version 1 again" }).waitFor();
  const [restore] = await app.calls("restore_version");
  const versions = (await app.calls("scene_versions")).length;
  assert.ok(versions >= 2, "the list reloaded after the restore");
  assert.equal(typeof restore.args.version, "number");
  await panel.locator('[data-testid="version-row"][data-origin="restore"][data-current="true"]').waitFor();
  assert.match(await page.locator('[data-testid="scene"][data-tick="2"] [data-testid="scene-prose"]').textContent(), /Rain had found its way/);
  await app.assertClean(assert);
  await app.close();
});

test("Rewind to a scene (after the shell's question) keeps the later scenes in a branch the panel switches back to", async () => {
  const app = await openApp(env, { novel: true, scenes: 3 });
  const { page } = app;
  await page.getByTestId("nav-manuscript").click();
  const first = page.locator('[data-testid="scene"][data-tick="1"]');
  await first.getByTestId("scene-menu").click();
  await first.getByTestId("menu-rewind").click();
  await page.getByTestId("toast").filter({ hasText: "Back at scene 1" }).waitFor();
  assert.match(await page.getByTestId("toast").first().textContent(), /Scenes 2–3 are kept in the branch “main-2”/);
  assert.deepEqual((await app.calls("rewind_to")).map((c) => c.args), [{ tick: 1 }]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene"]').length === 1);

  await page.getByTestId("branch-button").click();
  const panel = page.getByTestId("branches-panel");
  await panel.locator('[data-testid="branch-row"][data-branch="main-2"]').waitFor();
  assert.match(await panel.locator('[data-branch="main-2"] [data-testid="branch-end"]').textContent(), /Up to scene 3: Bells Before the Storm/);
  await panel.locator('[data-branch="main-2"] [data-testid="branch-switch"]').click();
  await panel.locator('[data-testid="branch-row"][data-branch="main-2"][data-current="true"]').waitFor();
  assert.equal(await page.getByTestId("current-branch").textContent(), "main-2");
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="scene"]').length === 3);
  assert.equal(await page.getByTestId("view-branch").textContent(), "main-2", "the reader names the branch it shows");
  await app.assertClean(assert);
  await app.close();
});

test("a rewind the writer declines in the native question changes nothing and shows no error", async () => {
  const app = await openApp(env, { novel: true, scenes: 3, declineRewind: true });
  const { page } = app;
  await page.getByTestId("nav-manuscript").click();
  const second = page.locator('[data-testid="scene"][data-tick="2"]');
  await second.getByTestId("scene-menu").click();
  await second.getByTestId("menu-rewind").click();
  await page.waitForFunction(() => window.__calls.some((c) => c.cmd === "rewind_to"));
  await page.waitForTimeout(100);
  assert.equal(await page.getByTestId("toast").count(), 0);
  assert.equal(await page.getByTestId("scene").count(), 3);
  await app.assertClean(assert);
  await app.close();
});

test("review mode shows the plan, whose intention the writer can change before anything runs", async () => {
  const app = await openApp(env, { novel: true, scenes: 2, review: true });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  const plan = page.getByTestId("plan-review");
  await plan.waitFor();
  assert.equal(await plan.getByTestId("plan-intention").inputValue(), "Tamsin persuades a dockhand to hide her.");
  assert.match(await page.getByTestId("run-progress").textContent(), /Waiting for your review/);
  await plan.getByTestId("plan-intention").fill("");
  await plan.getByTestId("plan-accept").click();
  assert.match(await plan.getByTestId("review-error").textContent(), /Say what should happen/);
  assert.equal((await app.calls("plan_decision")).length, 0, "an empty intention is not sent");
  await plan.getByTestId("plan-intention").fill("Bram refuses, and Tamsin hides alone.");
  await plan.getByTestId("plan-accept").click();
  await page.getByTestId("scene-review").waitFor();
  const [call] = await app.calls("plan_decision");
  assert.equal(call.args.verdict.decision, "edit");
  assert.equal(call.args.verdict.plan.scene_intention, "Bram refuses, and Tamsin hides alone.");
  assert.equal(call.args.verdict.plan.pov_character, "C0", "the rest of the plan is kept");
  await app.assertClean(assert);
  await app.close();
});

test("review mode shows the memory changes grouped with a checkbox each and sends the unticked ones", async () => {
  const app = await openApp(env, { novel: true, scenes: 2, review: true });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("plan-accept").click();
  const review = page.getByTestId("scene-review");
  await review.waitFor();
  assert.deepEqual(await review.getByTestId("change-group").evaluateAll((g) => g.map((x) => x.dataset.group)), ["created", "loops_opened", "relationships"]);
  assert.equal(await review.getByTestId("review-change").count(), 3);
  // A relationship names both people.
  assert.match(await review.locator('[data-index="1"]').textContent(), /Relationship · Tamsin Vale and Bram/);
  assert.match(await review.getByTestId("review-kept").textContent(), /3 of 3 changes will be saved/);
  await review.locator('[data-index="1"] input').uncheck();
  assert.match(await review.getByTestId("review-kept").textContent(), /2 of 3 changes will be saved/);
  assert.match(await review.getByTestId("review-prose").inputValue(), /Rain had found its way/);
  await review.getByTestId("review-prose").fill("The tide went out.");
  await review.getByTestId("review-accept").click();
  await page.getByTestId("committed-scene").waitFor();
  assert.equal(await page.getByTestId("scene-review").count(), 0);
  assert.deepEqual((await app.calls("review_decision")).map((c) => c.args), [{ verdict: { decision: "accept", prose: "The tide went out.", unticked: [1] } }]);
  assert.deepEqual((await app.calls("plan_decision")).map((c) => c.args), [{ verdict: { decision: "accept" } }], "an unchanged plan is accepted as it is");
  await app.assertClean(assert);
  await app.close();
});

test("a scene rejected in review saves nothing and offers Write again", async () => {
  const app = await openApp(env, { novel: true, scenes: 2, review: true });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("plan-accept").click();
  await page.getByTestId("review-reject").click();
  await page.locator('[data-testid="run-end"][data-end="rejected"]').waitFor();
  assert.match(await page.getByTestId("run-end").textContent(), /Nothing was saved; your story is unchanged/);
  assert.match(await page.getByTestId("novel-stats").textContent(), /^2 scenes/);
  await page.getByTestId("write-again").click();
  await page.getByTestId("plan-review").waitFor();
  assert.equal((await app.calls("run_ticks")).length, 2, "Write again runs the same request again");
  await app.assertClean(assert);
  await app.close();
});
