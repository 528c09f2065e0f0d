// Settings, setting up models: Find local servers (asked for, and on its own on the first
// run) lists what answered and adds a server through the form, filled in; the model dropdown
// filled from the server with context lengths (and the typed field with the reason when the
// server lists none or cannot be asked); a profile's generation settings checked and saved
// with the right values; each role's profile and the budget chosen for the open novel.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

async function openSettings(scenario = {}) {
  const app = await openApp(env, { novel: true, ...scenario });
  await app.page.getByTestId("nav-settings").click();
  await app.page.locator("#providers-title").waitFor();
  return app;
}

const row = (page, name) => page.locator(`[data-testid="provider-row"][data-name="${name}"]`);
const server = (page, name) => page.locator(`[data-testid="detected-server"][data-name="${name}"]`);
const options = (page, id) => page.getByTestId(id).locator("option").allTextContents();

/** The message beside the form control `id` (in the `.field` that holds it). */
const beside = (page, id) =>
  page.getByTestId(id).locator("xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' field ')][1]").locator(".field-error").textContent();

test("Find local servers lists what answered; Add fills the form from the server and saves the chosen model with its context", async () => {
  const app = await openSettings();
  const { page } = app;
  await row(page, "local").waitFor();
  assert.equal((await app.calls("detect_providers")).length, 0, "not asked while profiles exist");
  await page.getByTestId("provider-detect").click();
  await server(page, "ollama").waitFor();
  assert.equal(await page.getByTestId("detected-server").count(), 2);
  assert.match(await server(page, "ollama").textContent(), /Ollama.*http:\/\/127\.0\.0\.1:11434\/v1.*llama3\.1:8b \(8,192 tokens\) · qwen2\.5:14b \(32,768 tokens\)/);
  assert.match(await server(page, "llama-cpp").getByTestId("detected-saved").textContent(), /Saved as “local”/);
  assert.equal(await server(page, "llama-cpp").getByTestId("detected-add").count(), 0, "a saved server is not offered again");

  await server(page, "ollama").getByTestId("detected-add").click();
  await page.getByTestId("provider-form").waitFor();
  assert.equal(await page.getByTestId("provider-name").inputValue(), "ollama");
  assert.equal(await page.getByTestId("provider-kind").inputValue(), "ollama");
  assert.equal(await page.getByTestId("provider-base-url").inputValue(), "http://127.0.0.1:11434/v1");
  assert.deepEqual(await options(page, "provider-model-select"), ["llama3.1:8b (8,192 tokens)", "qwen2.5:14b (32,768 tokens)", "Another model (type its name)"]);
  assert.equal(await page.getByTestId("provider-model-select").inputValue(), "llama3.1:8b");
  assert.equal(await page.getByTestId("provider-context-length").inputValue(), "8192");
  await page.getByTestId("provider-model-select").selectOption("qwen2.5:14b");
  assert.equal(await page.getByTestId("provider-context-length").inputValue(), "32768", "the chosen model's context");
  await page.getByTestId("provider-save").click();
  await row(page, "ollama").waitFor();
  const [save] = await app.calls("save_provider");
  assert.deepEqual(save.args, {
    profile: {
      name: "ollama",
      kind: "ollama",
      timeout_secs: 300,
      model: "qwen2.5:14b",
      base_url: "http://127.0.0.1:11434/v1",
      key_source: "env",
      context_length: 32768,
    },
    makeDefault: false,
  });
  assert.equal((await app.calls("provider_models")).length, 0, "the models came with the server");
  assert.match(await server(page, "ollama").getByTestId("detected-saved").textContent(), /Saved as “ollama”/);
  await app.assertClean(assert);
  await app.close();
});

test("the first run looks for local servers on its own, and says how to start one when none answers", async () => {
  const empty = { file: "/home/writer/.config/novel-agent/providers.toml", default_profile: null, profiles: [] };
  const app = await openSettings({ providers: empty });
  const { page } = app;
  await server(page, "ollama").waitFor();
  assert.equal((await app.calls("detect_providers")).length, 1, "asked without a click");
  await server(page, "ollama").getByTestId("detected-add").click();
  assert.equal(await page.getByTestId("provider-default").isChecked(), true, "the first profile is the writing one");
  await page.getByTestId("provider-save").click();
  await row(page, "ollama").waitFor();
  assert.equal((await app.calls("save_provider"))[0].args.makeDefault, true);
  await app.close();

  const none = await openSettings({ providers: empty, detected: [] });
  await none.page.getByTestId("detected-none").waitFor();
  assert.match(await none.page.getByTestId("detected-none").textContent(), /No model server answered.*Ollama 11434.*ollama serve/);
  await none.close();
});

test("editing a profile fills the model dropdown from its server; a server without a list, or not running, leaves a typed field and says why", async () => {
  const app = await openSettings();
  const { page } = app;
  await row(page, "local").getByTestId("provider-edit").click();
  await page.getByTestId("provider-model-select").waitFor();
  assert.deepEqual(await options(page, "provider-model-select"), ["qwen2.5-14b (16,384 tokens)", "mistral-7b", "Another model (type its name)"]);
  assert.equal(await page.getByTestId("provider-model-select").inputValue(), "qwen2.5-14b");
  const [asked] = await app.calls("provider_models");
  assert.equal(asked.args.of.from, "unsaved");
  assert.equal(asked.args.of.profile.base_url, "http://127.0.0.1:8080/v1");
  assert.equal(asked.args.of.key, null, "no key typed, none sent: Rust adds the saved one while the address is unchanged");
  // Another model: a typed name.
  await page.getByTestId("provider-model-select").selectOption({ label: "Another model (type its name)" });
  await page.getByTestId("provider-model").fill("my-finetune");
  await page.getByTestId("provider-cancel").click();

  // A server that lists no models.
  await page.getByTestId("provider-add").click();
  await page.getByTestId("provider-name").fill("bare");
  await page.getByTestId("provider-base-url").fill("http://127.0.0.1:9000/v1");
  await page.getByTestId("provider-list-models").click();
  await page.getByTestId("provider-models-note").waitFor();
  assert.match(await page.getByTestId("provider-models-note").textContent(), /does not list its models.*Type the model's name/);
  assert.equal(await page.getByTestId("provider-model-select").count(), 0);
  await page.getByTestId("provider-model").fill("typed-model");

  // A server that is not running.
  await page.getByTestId("provider-base-url").fill("http://127.0.0.1:9999/v1");
  assert.equal(await page.getByTestId("provider-models-note").count(), 0, "another address forgets the old answer");
  await page.getByTestId("provider-list-models").click();
  await page.getByTestId("provider-models-error").waitFor();
  // One sentence to read; the engine's whole chain only under Details, closed.
  const problem = page.getByTestId("provider-models-error");
  assert.equal(
    await problem.locator(".field-hint").textContent(),
    "Nothing answered at http://127.0.0.1:9999/v1: is the server running, and is the address right? Type the model's name above.",
  );
  assert.equal(await problem.getByTestId("provider-models-details").getAttribute("open"), null, "the details start closed");
  assert.ok(!(await problem.locator(".models-error-detail").isVisible()));
  await problem.locator("summary").click();
  assert.match(await problem.locator(".models-error-detail").textContent(), /tcp connect error: Connection refused \(os error 111\)/);
  assert.equal(await page.getByTestId("provider-model").inputValue(), "typed-model", "what was typed stays");
  await page.getByTestId("provider-save").click();
  await row(page, "bare").waitFor();
  const [save] = await app.calls("save_provider");
  assert.equal(save.args.profile.model, "typed-model");
  await app.close();
});

test("a profile's generation settings are checked in the form, then by Rust beside each field, and saved with the right values", async () => {
  const rangeProblem = {
    kind: "invalid_form",
    message: "Some fields need attention before the provider can be saved.",
    fields: [{ field: "temperature", message: "The temperature is between 0 and 2 (0.7 is a common choice), or empty for the server's default." }],
  };
  const app = await openSettings({ errorsOnce: { save_provider: rangeProblem } });
  const { page } = app;
  await row(page, "local").getByTestId("provider-edit").click();
  await page.getByTestId("provider-model-select").waitFor();
  assert.equal(await page.getByTestId("provider-timeout").inputValue(), "120", "the saved timeout");
  await page.getByTestId("provider-temperature").fill("warm");
  await page.getByTestId("provider-max-output-tokens").fill("2048.5");
  await page.getByTestId("provider-price-prompt").fill("0.15");
  await page.getByTestId("provider-save").click();
  assert.match(await beside(page, "provider-temperature"), /Enter a number such as 0\.7/);
  assert.match(await beside(page, "provider-max-output-tokens"), /whole number of tokens/);
  assert.match(await beside(page, "provider-price-prompt"), /both prices, or neither/);
  assert.equal((await app.calls("save_provider")).length, 0, "nothing sent while a number is not a number");

  await page.getByTestId("provider-temperature").fill("3");
  await page.getByTestId("provider-max-output-tokens").fill("2048");
  await page.getByTestId("provider-price-completion").fill("0.6");
  await page.getByTestId("provider-save").click();
  await page.getByTestId("provider-error").waitFor();
  assert.match(await beside(page, "provider-temperature"), /between 0 and 2/, "Rust's range check beside its field");

  await page.getByTestId("provider-temperature").fill("0.7");
  await page.getByTestId("provider-top-p").fill("0.9");
  await page.getByTestId("provider-context-length").fill("16384");
  await page.getByTestId("provider-timeout").fill("60");
  await page.getByTestId("provider-structured-output").selectOption("json_object");
  await page.getByTestId("provider-save").click();
  await page.getByTestId("provider-form").waitFor({ state: "detached" });
  const saves = await app.calls("save_provider");
  assert.equal(saves.length, 2);
  assert.deepEqual(saves[1].args.profile, {
    max_retries: 2,
    retry_base_delay_ms: 500,
    name: "local",
    kind: "openai-compatible",
    timeout_secs: 60,
    model: "qwen2.5-14b",
    base_url: "http://127.0.0.1:8080/v1",
    key_source: "env",
    temperature: 0.7,
    top_p: 0.9,
    max_output_tokens: 2048,
    context_length: 16384,
    structured_output: "json_object",
    prices: { prompt_per_million: 0.15, completion_per_million: 0.6 },
  });
  assert.equal(
    await row(page, "local").getByTestId("provider-settings-summary").textContent(),
    "temperature 0.7 · top p 0.9 · answers up to 2,048 tokens · context 16,384 tokens · JSON as json_object · 0.15 / 0.6 per million tokens in / out",
  );
  // Opened again, the form shows what was saved.
  await row(page, "local").getByTestId("provider-edit").click();
  assert.equal(await page.getByTestId("provider-structured-output").inputValue(), "json_object");
  assert.equal(await page.getByTestId("provider-price-completion").inputValue(), "0.6");
  await app.close();
});

test("each role's profile is chosen for the open novel and saved by name; a profile that is gone is marked and refused", async () => {
  const app = await openSettings({ roles: { writer: "local" } });
  const { page } = app;
  await page.getByTestId("role-models").waitFor();
  assert.deepEqual(await options(page, "role-planner"), ["Default (local)", "local", "claude"]);
  assert.deepEqual(await options(page, "role-reviser"), ["Same as the writer", "local", "claude"]);
  assert.equal(await page.getByTestId("role-writer").inputValue(), "local", "the novel's saved choice");
  await page.getByTestId("role-planner").selectOption("claude");
  await page.getByTestId("role-critic").selectOption("claude");
  await page.getByTestId("role-save").click();
  await page.getByTestId("toast").filter({ hasText: "Models per role saved." }).waitFor();
  assert.deepEqual((await app.calls("save_role_profiles")).map((c) => c.args), [
    { models: { planner: "claude", writer: "local", extractor: null, reviser: null, critic: "claude" } },
  ]);
  await app.assertClean(assert);
  await app.close();

  const gone = await openSettings({ roles: { extractor: "old-server" } });
  const p = gone.page;
  await p.getByTestId("role-models").waitFor();
  assert.equal(await p.getByTestId("role-extractor").inputValue(), "old-server");
  assert.match(await beside(p, "role-extractor"), /no provider called “old-server” any more/);
  await p.getByTestId("role-save").click();
  await p.getByTestId("role-error").waitFor();
  assert.match(await p.getByTestId("role-error").textContent(), /There is no provider profile called "old-server" for the extractor/);
  await p.getByTestId("role-extractor").selectOption("");
  await p.getByTestId("role-save").click();
  await p.getByTestId("toast").filter({ hasText: "Models per role saved." }).waitFor();
  assert.deepEqual((await gone.calls("save_role_profiles")).at(-1).args.models, { planner: null, writer: null, extractor: null, reviser: null, critic: null });
  await gone.close();
});

test("the novel's budget shows what is saved, refuses what is not a limit, and saves tokens and cost per run and per novel", async () => {
  const app = await openSettings({ budget: { run: { tokens: 40000 }, novel: {} } });
  const { page } = app;
  await page.getByTestId("budget-form").waitFor();
  assert.equal(await page.getByTestId("budget-runTokens").inputValue(), "40000");
  assert.equal(await page.getByTestId("budget-novelCost").inputValue(), "");
  await page.getByTestId("budget-runTokens").fill("1.5");
  await page.getByTestId("budget-novelCost").fill("-2");
  await page.getByTestId("budget-save").click();
  assert.match(await beside(page, "budget-runTokens"), /whole number of tokens/);
  assert.match(await beside(page, "budget-novelCost"), /0 or more/);
  assert.equal((await app.calls("save_budget")).length, 0);

  await page.getByTestId("budget-runTokens").fill("");
  await page.getByTestId("budget-runCost").fill("0.5");
  await page.getByTestId("budget-novelTokens").fill("2000000");
  await page.getByTestId("budget-novelCost").fill("12");
  await page.getByTestId("budget-save").click();
  await page.getByTestId("toast").filter({ hasText: "Budget saved." }).waitFor();
  assert.deepEqual((await app.calls("save_budget")).map((c) => c.args), [
    { budget: { run: { tokens: null, cost: 0.5 }, novel: { tokens: 2000000, cost: 12 } } },
  ]);
  await app.assertClean(assert);
  await app.close();
});
