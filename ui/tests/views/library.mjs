// Library: the New novel form's checks (client side and the server's field errors),
// creating a novel (→ Write), recent novels (open, missing ones marked and removable) and
// Open folder… through the dialog.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openApp } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

const REQUIRED = ["title", "premise", "protagonist_name", "location_name", "goal", "parent_dir"];

async function fill(page, values) {
  for (const [name, value] of Object.entries(values)) await page.getByTestId(`field-${name}`).fill(value);
}

test("the form shows a message beside each missing required field and sends nothing", async () => {
  const app = await openApp(env, {});
  const { page } = app;
  await page.getByTestId("new-novel").click();
  await page.getByTestId("create-novel").click();
  for (const name of REQUIRED) {
    assert.ok((await page.getByTestId(`error-${name}`).textContent()).length > 5, `error-${name}`);
  }
  assert.equal(await page.getByTestId("error-language").count(), 0, "language defaults to English");
  assert.equal(await page.getByTestId("field-language").inputValue(), "English");
  assert.equal(await page.getByTestId("field-title").getAttribute("aria-invalid"), "true");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "field-title", "focus moves to the first problem");
  assert.equal((await app.calls("create_novel")).length, 0);

  await page.getByTestId("field-title").fill("Salt");
  assert.equal(await page.getByTestId("error-title").count(), 0, "typing clears the field's message");
  await page.getByTestId("field-language").fill("  ");
  await page.getByTestId("create-novel").click();
  assert.match(await page.getByTestId("error-language").textContent(), /language/i);
  await app.assertClean(assert);
  await app.close();
});

test("the server's field errors show beside their fields", async () => {
  const app = await openApp(env, {
    errorsOnce: {
      create_novel: {
        kind: "invalid_form",
        message: "Some fields need attention before the novel can be created.",
        fields: [
          { field: "title", message: "Keep this under 200 characters." },
          { field: "goal", message: "Say what the protagonist wants to achieve." },
        ],
      },
    },
  });
  const { page } = app;
  await page.getByTestId("new-novel").click();
  await fill(page, {
    title: "T".repeat(250),
    premise: "A smuggler hunts the men who framed her brother.",
    protagonist_name: "Tamsin Vale",
    location_name: "Rainmarket Docks",
    goal: "x",
    parent_dir: "/home/writer/Novels",
  });
  await page.getByTestId("create-novel").click();
  await page.getByTestId("error-title").waitFor();
  assert.equal(await page.getByTestId("error-title").textContent(), "Keep this under 200 characters.");
  assert.equal(await page.getByTestId("error-goal").textContent(), "Say what the protagonist wants to achieve.");
  assert.match(await page.getByTestId("error-form").textContent(), /need attention/);
  assert.equal(await page.getByTestId("novel-title").textContent(), "Novel Agent", "nothing was created");
  await app.close();
});

test("a folder that does not exist is reported beside the folder field", async () => {
  const app = await openApp(env, {});
  const { page } = app;
  await page.getByTestId("new-novel").click();
  await fill(page, { title: "Salt", premise: "p", protagonist_name: "T", location_name: "D", goal: "g", parent_dir: "relative/dir" });
  await page.getByTestId("create-novel").click();
  await page.getByTestId("error-parent_dir").waitFor();
  assert.match(await page.getByTestId("error-parent_dir").textContent(), /existing folder/);
  await app.close();
});

test("creating a novel sends the whole form and opens the Write view", async () => {
  const app = await openApp(env, { dialog: { open: "/home/writer/Novels" } });
  const { page } = app;
  await page.getByTestId("new-novel").click();
  await fill(page, {
    title: "Salt and Iron",
    author: "Mara Quill",
    genre: "Fantasy noir",
    premise: "A smuggler in a drowned city hunts the men who framed her brother.",
    protagonist_name: "Tamsin Vale",
    protagonist_role: "smuggler",
    location_name: "Rainmarket Docks",
    goal: "Clear her brother's name",
  });
  await page.getByTestId("field-pov").selectOption("first");
  await page.getByTestId("field-tense").selectOption("present");
  await page.getByTestId("browse-parent").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="field-parent_dir"]').value !== "");
  assert.equal(await page.getByTestId("field-parent_dir").inputValue(), "/home/writer/Novels");
  await page.getByTestId("create-novel").click();

  await page.getByTestId("next-scene").waitFor();
  assert.equal(await page.getByTestId("novel-title").textContent(), "Salt and Iron");
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "write");
  assert.match(await page.getByTestId("empty-state").textContent(), /No scenes yet — press Next scene/);
  const [create] = await app.calls("create_novel");
  assert.equal(create.args.parentDir, "/home/writer/Novels");
  assert.deepEqual(create.args.form, {
    title: "Salt and Iron",
    author: "Mara Quill",
    genre: "Fantasy noir",
    premise: "A smuggler in a drowned city hunts the men who framed her brother.",
    setting: "",
    tone: "",
    style: "",
    pov: "first",
    tense: "present",
    language: "English",
    protagonist_name: "Tamsin Vale",
    protagonist_role: "smuggler",
    protagonist_description: "",
    location_name: "Rainmarket Docks",
    location_description: "",
    goal: "Clear her brother's name",
  });
  assert.match(await page.getByTestId("toast").textContent(), /Created “Salt and Iron”/);
  await app.assertClean(assert);
  await app.close();
});

test("recent novels open with a click; a missing one is marked and can be removed", async () => {
  const app = await openApp(env, {
    dialog: { open: "/home/writer/Novels/salt-and-iron" },
    recent: [
      { path: "/home/writer/Novels/salt-and-iron", title: "Salt and Iron", opened_at: "2025-11-20T10:00:00Z", missing: false },
      { path: "/mnt/usb/old-draft", title: "Old Draft", opened_at: "2025-10-01T10:00:00Z", missing: true },
    ],
  });
  const { page } = app;
  const items = page.getByTestId("recent-item");
  await items.first().waitFor();
  assert.equal(await items.count(), 2);
  assert.equal(await items.nth(1).getAttribute("data-missing"), "true");
  assert.match(await items.nth(1).textContent(), /Folder missing/);
  assert.ok(await items.nth(1).isDisabled());
  await page.getByTestId("forget-recent").click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="recent-item"]').length === 1);
  assert.deepEqual((await app.calls("forget_recent_novel")).map((c) => c.args), [{ path: "/mnt/usb/old-draft" }]);

  await items.first().click();
  await page.getByTestId("next-scene").waitFor();
  assert.equal(await page.getByTestId("novel-title").textContent(), "Salt and Iron");
  assert.deepEqual((await app.calls("open_novel")).map((c) => c.args), [{ path: "/home/writer/Novels/salt-and-iron" }]);

  await page.getByTestId("nav-library").click();
  await page.getByTestId("open-folder").click();
  await page.waitForFunction(() => window.__calls.filter((c) => c.cmd === "open_novel").length === 2);
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "write");
  await app.close();
});

test("a folder that is not a novel is explained in the Library", async () => {
  const app = await openApp(env, { dialog: { open: "/tmp/not-a-novel" } });
  const { page } = app;
  await page.getByTestId("open-folder").click();
  await page.getByTestId("library-error").waitFor();
  assert.match(await page.getByTestId("library-error").textContent(), /not a novel folder/);
  await app.close();
});

const SEEDS = {
  title: "Salt and Iron",
  premise: "A smuggler in a drowned city hunts the men who framed her brother.",
  protagonist_name: "Tamsin Vale",
  location_name: "Rainmarket Docks",
  goal: "Clear her brother's name",
  parent_dir: "/home/writer/Novels",
};

test("a model no test has reached is tested before the novel is created", async () => {
  const app = await openApp(env, {});
  const { page } = app;
  await page.getByTestId("new-novel").click();
  const writing = page.getByTestId("writing-with");
  await writing.waitFor();
  assert.match(await writing.textContent(), /Written with local · qwen2.5-14b · tested when you create the novel/);
  await fill(page, SEEDS);
  await page.getByTestId("create-novel").click();
  await page.getByTestId("next-scene").waitFor();
  const [tested] = await app.calls("test_provider");
  assert.deepEqual(tested.args, { name: "local" });
  assert.equal((await app.calls("create_novel")).length, 1);
  await app.assertClean(assert);
  await app.close();
});

test("a model that does not answer stops Create with the reason; Create anyway goes ahead", async () => {
  const app = await openApp(env, { probe: { kind: "provider", message: "Nothing answered at http://127.0.0.1:8080/v1: start the server." } });
  const { page } = app;
  await page.getByTestId("new-novel").click();
  await fill(page, SEEDS);
  await page.getByTestId("create-novel").click();
  await page.getByTestId("writing-with-error").waitFor();
  assert.match(await page.getByTestId("writing-with-error").textContent(), /Nothing answered at http:\/\/127\.0\.0\.1:8080\/v1/);
  assert.match(await page.getByTestId("error-form").textContent(), /The model did not answer/);
  assert.equal((await app.calls("create_novel")).length, 0, "nothing created while the model is silent");
  assert.equal(await page.getByTestId("create-novel").textContent(), "Create anyway");
  await page.getByTestId("create-novel").click();
  await page.getByTestId("next-scene").waitFor();
  assert.equal((await app.calls("create_novel")).length, 1);
  assert.equal((await app.calls("test_provider")).length, 1, "not tested again");
  await app.close();
});

test("a model a connection test already reached is trusted; with none, the form points to Settings", async () => {
  const tested = await openApp(env, {
    providers: {
      file: "/home/writer/.config/novel-agent/providers.toml",
      default_profile: "ollama",
      profiles: [
        {
          profile: { name: "ollama", kind: "openai-compatible", base_url: "http://127.0.0.1:11434/v1", model: "llama3.1:8b", timeout_secs: 120, max_retries: 2, retry_base_delay_ms: 500, capabilities: { json_schema: true, json_object: true, temperature: true } },
          key_ready: true,
          key_problem: null,
        },
      ],
    },
  });
  await tested.page.getByTestId("new-novel").click();
  await tested.page.getByTestId("writing-with-ok").waitFor();
  await fill(tested.page, SEEDS);
  await tested.page.getByTestId("create-novel").click();
  await tested.page.getByTestId("next-scene").waitFor();
  assert.equal((await tested.calls("test_provider")).length, 0);
  await tested.close();

  const none = await openApp(env, { providers: { file: "/home/writer/.config/novel-agent/providers.toml", default_profile: null, profiles: [] } });
  await none.page.getByTestId("new-novel").click();
  assert.equal(await none.page.getByTestId("writing-with").getAttribute("data-state"), "none");
  await none.page.getByTestId("writing-with-settings").click();
  assert.equal(await none.page.locator("main.view").getAttribute("data-view"), "settings");
  await none.close();
});

test("what was typed into the New novel form is still there after a visit to Settings", async () => {
  const app = await openApp(env, {
    recent: [{ path: "/home/writer/Novels/other", title: "Other", opened_at: "2025-11-20T10:00:00Z", missing: false }],
  });
  const { page } = app;
  await page.getByTestId("new-novel").click();
  await fill(page, { title: "The Lamplighter", premise: "A lamplighter finds the city's lights are counting down." });
  await page.getByTestId("field-pov").selectOption("first");
  await page.getByTestId("nav-settings").click();
  await page.getByTestId("nav-library").click();
  // The form is open again (recent novels alone would show the welcome), as it was left.
  assert.equal(await page.getByTestId("field-title").inputValue(), "The Lamplighter");
  assert.equal(await page.getByTestId("field-premise").inputValue(), "A lamplighter finds the city's lights are counting down.");
  assert.equal(await page.getByTestId("field-pov").inputValue(), "first");
  // Cancel forgets it: the next visit starts from an empty form.
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.getByTestId("new-novel").click();
  assert.equal(await page.getByTestId("field-title").inputValue(), "");
  await app.assertClean(assert);
  await app.close();
});

/** A new launch: the page loaded again with `scenario`, localStorage kept (as the app's is). */
async function relaunch(app, scenario) {
  await app.page.goto(`${env.url}?scenario=${encodeURIComponent(JSON.stringify(scenario))}`);
  await app.page.getByTestId("novel-title").waitFor();
}

test("a new launch reopens the last novel at the view it was left on", async () => {
  const app = await openApp(env, { novel: true });
  const { page } = app;
  await page.getByTestId("nav-timeline").click();
  await page.getByTestId("timeline-row").first().waitFor();
  const recent = [{ path: "/home/writer/Novels/salt-and-iron", title: "Salt and Iron", opened_at: "2025-11-20T10:00:00Z", missing: false }];
  await relaunch(app, { recent });
  await page.getByTestId("timeline-row").first().waitFor();
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "timeline");
  assert.equal(await page.getByTestId("novel-title").textContent(), "Salt and Iron");
  assert.deepEqual((await app.calls("open_novel")).map((c) => c.args), [{ path: "/home/writer/Novels/salt-and-iron" }]);

  // A novel the recent list no longer has (or whose folder is gone) is not reopened.
  await relaunch(app, { recent: [{ ...recent[0], missing: true }] });
  await page.getByTestId("recent-item").first().waitFor();
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "library");
  assert.equal((await app.calls("open_novel")).length, 0);
  await app.assertClean(assert);
  await app.close();
});
