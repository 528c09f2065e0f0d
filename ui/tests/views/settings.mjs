// Settings: provider rows with key status, Test connection (report or error), adding a
// profile (Rust's kinds and defaults, Rust's problems beside their fields, the profile sent), a
// command provider refused in the native confirmation, a keychain key sent once and never
// shown back, and the novel's generation settings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openSettings(scenario = {}) {
  const app = await openApp(env, { novel: true, ...scenario });
  await app.page.getByTestId("nav-settings").click();
  await app.page.getByTestId("provider-row").first().waitFor();
  return app;
}

const row = (page, name) => page.locator(`[data-testid="provider-row"][data-name="${name}"]`);

/** The message beside the form control `id` (in the `.field` that holds it). */
const besideOf = (page) => async (id) =>
  page.getByTestId(id).locator("xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' field ')][1]").locator(".field-error").textContent();

test("profiles show whether their key can be found, and Test connection reports the model and latency", async () => {
  const app = await openSettings();
  const { page } = app;
  assert.equal(await page.getByTestId("provider-row").count(), 2);
  assert.match(await row(page, "local").textContent(), /Used for writing.*OpenAI-compatible · qwen2\.5-14b · http:\/\/127\.0\.0\.1:8080\/v1/);
  assert.match(await row(page, "claude").getByTestId("provider-key-status").textContent(), /ANTHROPIC_API_KEY is not set/);
  await row(page, "local").getByTestId("provider-test").click();
  const result = row(page, "local").getByTestId("provider-test-result");
  await page.waitForFunction(() => /Connected/.test(document.querySelector('[data-testid="provider-test-result"]')?.textContent ?? ""));
  assert.match(await result.textContent(), /Connected: qwen2\.5-14b-instruct answered in 412 ms · structured output supported/);
  assert.match(await result.textContent(), /40 tokens · JSON asked as json_schema · temperature refused · context 16,384 tokens$/, "what the test found");
  assert.deepEqual((await app.calls("test_provider")).map((c) => c.args), [{ name: "local" }]);
  await app.assertClean(assert);
  await app.close();
});

test("a failed connection test shows the provider's error", async () => {
  const app = await openSettings({ probe: { kind: "provider", message: "connection refused: http://127.0.0.1:8080/v1" } });
  const { page } = app;
  await row(page, "local").getByTestId("provider-test").click();
  await page.waitForFunction(() => /Failed/.test(document.querySelector('[data-testid="provider-test-result"]')?.textContent ?? ""));
  assert.match(await row(page, "local").getByTestId("provider-test-result").textContent(), /Failed: connection refused/);
  await app.close();
});

test("adding a profile shows Rust's problems beside their fields, then saves it as the writing provider", async () => {
  // What `save_provider` answers for an incomplete profile: Rust owns the checks.
  const invalid = {
    kind: "invalid_form",
    message: "Some fields need attention before the provider can be saved.",
    fields: [
      { field: "model", message: "Enter the model name, e.g. gpt-4o-mini or llama3.1." },
      { field: "base_url", message: "The server address starts with http:// or https://." },
      { field: "api_key_env", message: "Enter the NAME of the environment variable that holds the key." },
      { field: "timeout_secs", message: "The timeout must be at least 1 second." },
    ],
  };
  const app = await openSettings({ errorsOnce: { save_provider: invalid } });
  const { page } = app;
  await page.getByTestId("provider-add").click();
  const kinds = await page.getByTestId("provider-kind").locator("option").allTextContents();
  assert.deepEqual(kinds, ["OpenAI-compatible", "Ollama", "Anthropic", "Google Gemini", "Command-line agent"]);
  await page.getByTestId("provider-name").fill("ollama");
  await page.getByTestId("provider-kind").selectOption("ollama");
  assert.equal(await page.getByTestId("provider-base-url").getAttribute("placeholder"), "http://localhost:11434/v1", "Rust's default address");
  await page.getByTestId("provider-base-url").fill("localhost:11434");
  await page.getByTestId("provider-save").click();
  await page.getByTestId("provider-error").waitFor();
  const beside = besideOf(page);
  assert.equal(await beside("provider-model"), "Enter the model name, e.g. gpt-4o-mini or llama3.1.");
  assert.equal(await beside("provider-base-url"), "The server address starts with http:// or https://.");
  assert.match(await beside("provider-key-env"), /NAME of the environment variable/);
  assert.equal(await beside("provider-timeout"), "The timeout must be at least 1 second.");
  assert.equal(await page.getByTestId("provider-error").textContent(), "Some fields need attention before the provider can be saved.");
  assert.equal((await app.calls("save_provider")).length, 1);
  assert.equal(await row(page, "ollama").count(), 0, "nothing saved");

  await page.getByTestId("provider-base-url").fill("http://localhost:11434/v1");
  await page.getByTestId("provider-model").fill("llama3.1");
  await page.getByTestId("provider-key-env").fill("OLLAMA_KEY");
  await page.getByTestId("provider-default").check();
  await page.getByTestId("provider-save").click();
  await row(page, "ollama").waitFor();
  assert.deepEqual((await app.calls("save_provider")).slice(1).map((c) => c.args), [
    {
      profile: { name: "ollama", kind: "ollama", timeout_secs: 300, model: "llama3.1", base_url: "http://localhost:11434/v1", key_source: "env", api_key_env: "OLLAMA_KEY" },
      makeDefault: true,
    },
  ]);
  assert.match(await row(page, "ollama").textContent(), /Used for writing/);
  assert.equal(await page.getByTestId("provider-form").count(), 0);
  await row(page, "claude").getByTestId("provider-make-default").click();
  await page.waitForFunction(() => /Used for writing/.test(document.querySelector('[data-name="claude"]').textContent));
  await row(page, "ollama").getByTestId("provider-delete").click();
  await row(page, "ollama").getByTestId("provider-delete-confirm").click();
  await row(page, "ollama").waitFor({ state: "detached" });
  assert.deepEqual((await app.calls("delete_provider")).map((c) => c.args), [{ name: "ollama" }]);
  await app.close();
});

test("a key for the keychain goes to storeProviderKey once, from a password field, and is never shown", async () => {
  const app = await openSettings();
  const { page } = app;
  await row(page, "claude").getByTestId("provider-edit").click();
  assert.equal(await page.getByTestId("provider-name").inputValue(), "claude");
  await page.getByTestId("provider-key-source").selectOption("keychain");
  const key = page.getByTestId("provider-key");
  assert.equal(await key.getAttribute("type"), "password");
  await key.fill("sk-ant-secret-123");
  await page.getByTestId("provider-save").click();
  await page.getByTestId("provider-form").waitFor({ state: "detached" });
  const [save] = await app.calls("save_provider");
  assert.equal(save.args.profile.key_source, "keychain");
  assert.ok(!JSON.stringify(save.args).includes("sk-ant-secret-123"), "the key is not part of the profile");
  assert.deepEqual((await app.calls("store_provider_key")).map((c) => c.args), [{ name: "claude", key: "sk-ant-secret-123" }]);
  assert.match(await row(page, "claude").getByTestId("provider-key-status").textContent(), /Key stored in the keychain/);
  const everything = await page.evaluate(() => document.body.innerHTML + [...document.querySelectorAll("input")].map((i) => i.value).join());
  assert.ok(!everything.includes("sk-ant-secret-123"), "the key is nowhere on the page");
  await app.close();
});

test("the critic's cost is stated beside it, in calls and tokens, and follows the longest scene", async () => {
  const app = await openSettings();
  const { page } = app;
  const cost = page.getByTestId("generation-critic-cost");
  // 900 words at most by default: ~1,200 tokens of instructions, records and findings, ~1,200 of scene.
  const said = await cost.textContent();
  assert.match(said, /one more model call per scene/);
  assert.match(said, /about 2,400 tokens sent/);
  assert.match(said, /up to 900 words/);
  assert.match(said, /up to 1,200 back/);
  assert.match(said, /another\s+character.s thoughts/, "what it catches that the rules do not");
  assert.match(said, /at no cost/, "what the writer has without it");
  await page.getByTestId("generation-target_words_max").fill("3000");
  assert.match(await cost.textContent(), /about 5,200 tokens sent \(the\s+scene of up to 3,000 words/);
  await app.assertClean(assert);
  await app.close();
});

test("generation settings are checked and saved for the open novel", async () => {
  const app = await openSettings();
  const { page } = app;
  assert.equal(await page.getByTestId("generation-target_words_min").inputValue(), "500");
  await page.getByTestId("generation-target_words_min").fill("1200");
  await page.getByTestId("generation-save").click();
  assert.match(await page.getByTestId("generation-error").textContent(), /shortest scene cannot be longer/);
  assert.equal((await app.calls("save_generation_settings")).length, 0);

  await page.getByTestId("generation-target_words_min").fill("700");
  await page.getByTestId("generation-target_words_max").fill("1100");
  await page.getByTestId("generation-max_tools_per_tick").fill("4");
  await page.getByTestId("generation-recent_scenes_count").fill("5");
  await page.getByTestId("generation-include_overall_summary").uncheck();
  assert.equal(await page.getByTestId("generation-critic").isChecked(), false);
  await page.getByTestId("generation-critic").check();
  await page.getByTestId("generation-save").click();
  await page.getByTestId("toast").waitFor();
  assert.deepEqual((await app.calls("save_generation_settings")).map((c) => c.args), [
    {
      settings: {
        target_words_min: 700,
        target_words_max: 1100,
        max_tools_per_tick: 4,
        recent_scenes_count: 5,
        include_overall_summary: false,
        critic: true,
        review_before_commit: false,
      },
    },
  ]);
  await app.assertClean(assert);
  await app.close();
});

test("a command provider refused in the native confirmation is not saved, and the form says so", async () => {
  const declined = { kind: "declined", message: "Not saved: running “codex” was not allowed." };
  const app = await openSettings({ errorsOnce: { save_provider: declined } });
  const { page } = app;
  await page.getByTestId("provider-add").click();
  await page.getByTestId("provider-name").fill("agent");
  await page.getByTestId("provider-kind").selectOption("command");
  await page.getByTestId("provider-command").fill("codex\nexec\n-");
  await page.getByTestId("provider-save").click();
  await page.getByTestId("provider-error").waitFor();
  assert.equal(await page.getByTestId("provider-error").textContent(), "Not saved: running “codex” was not allowed.");
  assert.equal(await page.getByTestId("provider-form").count(), 1, "the form stays open with what was typed");
  assert.equal(await page.getByTestId("provider-command").inputValue(), "codex\nexec\n-");
  assert.equal(await row(page, "agent").count(), 0);
  assert.deepEqual((await app.calls("save_provider")).map((c) => c.args.profile.command), [["codex", "exec", "-"]]);

  // Allowed the second time: saved.
  await page.getByTestId("provider-save").click();
  await row(page, "agent").waitFor();
  assert.match(await row(page, "agent").textContent(), /Command-line agent · codex exec -/);
  await app.close();
});

test("after Save settings each of the novel's forms is shown once", async () => {
  // The generation, models-per-role and budget forms were siblings under one key: saving the
  // settings re-rendered them and "Models per role" came out twice.
  const app = await openSettings();
  const { page } = app;
  await page.getByTestId("role-models").waitFor();
  const counts = () =>
    page.evaluate(() => ({
      generation: document.querySelectorAll(".generation-form").length,
      roles: document.querySelectorAll('[data-testid="role-models"]').length,
      rolesTitle: [...document.querySelectorAll("h3")].filter((h) => h.textContent === "Models per role").length,
      budget: document.querySelectorAll('[data-testid="budget-form"]').length,
    }));
  assert.equal(await page.locator('label[for="generation-max_tools_per_tick"]').textContent(), "Memory actions per scene", "the writer's words, not the engine's tools");
  const once = { generation: 1, roles: 1, rolesTitle: 1, budget: 1 };
  assert.deepEqual(await counts(), once);
  for (let i = 0; i < 2; i++) {
    await page.getByTestId("generation-recent_scenes_count").fill(String(4 + i));
    await page.getByTestId("generation-save").click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="toast"]').length > 0 && window.__calls.filter((c) => c.cmd === "save_generation_settings").length === n, i + 1);
    await page.waitForTimeout(100);
    assert.deepEqual(await counts(), once, `after save ${i + 1}`);
  }
  await app.assertClean(assert);
  await app.close();
});
