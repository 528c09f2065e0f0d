// Write: Next scene streams stages, tools and prose from the Channel and ends with the
// committed scene and its findings; revision restarts the prose; what a scene was kept with;
// a fresh draft after one that could not be kept; the prompt cache's share behind Details;
// Run N with Stop / Cancel; a failed tick's banner with Retry / Skip and Rust's hint for its
// kind; a missing provider leads to Settings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { openApp, recordUntil } from "../support/harness.mjs";
import { env as shared } from "../support/session.mjs";

const env = await shared();

const text = (page, id) => page.getByTestId(id).textContent();

test("Next scene streams the stages, tools and prose, then shows the committed scene with its findings", async () => {
  const app = await openApp(env, { novel: true, scenes: 2, delayMs: 30 });
  const { page } = app;
  await page.getByTestId("steering-note").fill("Bring the harbor watch closer.");
  // Installed before the click: every stage the indicator shows, every text the prose had.
  const stagesSeen = recordUntil(page, "stage", "committed-scene", "stage");
  const proseSeen = recordUntil(page, "live-prose", "committed-scene");
  await page.getByTestId("next-scene").click();
  await page.getByTestId("live-prose").waitFor();
  assert.ok(await page.getByTestId("stop-run").isVisible(), "Stop is offered while writing");
  assert.ok(await page.getByTestId("cancel-run").isVisible());
  assert.equal(await page.getByTestId("next-scene").count(), 0, "no second run while one is going");
  assert.deepEqual(await stagesSeen, ["starting", "gathering", "planning", "tools", "writing", "checking", "extracting", "committing"]);
  const versions = await proseSeen;
  const full = await text(page, "live-prose");
  assert.ok(versions.length > 5, `the prose arrived in pieces (${versions.length})`);
  assert.ok(versions.every((v, i) => i === 0 || v.startsWith(versions[i - 1].slice(0, -1))), "each piece extends the last");
  assert.match(full, /Rain had found its way under Tamsin's collar/);
  assert.equal(await page.locator('[data-testid="live-prose"] p').count(), 6, "one paragraph per blank-line block");
  const committed = await text(page, "committed-scene");
  assert.match(committed, /Scene 3 committed/);
  assert.match(committed, /Bells Before the Storm/);
  assert.match(committed, /Bram hides her in the flooded cellar/);
  assert.match(await text(page, "findings"), /warning.*Length.*120 words/);
  assert.doesNotMatch(await page.getByTestId("committed-scene").innerText(), /tokens/, "the scene reads as a scene; its tokens are behind Details");
  // Tools and tokens are folded behind Details; the word count is not.
  assert.match(await text(page, "live-words"), /\d+ words/);
  assert.equal(await page.getByTestId("run-tokens").isVisible(), false);
  assert.equal(await page.getByTestId("tool-results").isVisible(), false);
  await page.getByTestId("run-telemetry-toggle").click();
  assert.equal(await page.getByTestId("tool-result").count(), 2);
  assert.ok(await page.getByTestId("tool-results").isVisible());
  assert.match(await text(page, "tool-results"), /memory\.search.*character\.generate/);
  assert.match(await text(page, "run-tokens"), /4,120 tokens \(3,000 in, 1,120 out\)/);
  assert.equal(await page.getByTestId("committed-telemetry").getByText(/tokens/).isVisible(), false);
  await page.getByTestId("committed-telemetry-toggle").click();
  assert.match(await page.getByTestId("committed-telemetry").textContent(), /\d[\d,]* tokens/);
  assert.equal(await page.getByTestId("steering-note").inputValue(), "", "the note is cleared once a scene used it");
  const [call] = await app.calls("run_ticks");
  assert.deepEqual(call.args, { n: 1, steering: "Bring the harbor watch closer.", onEvent: "[channel]" });
  await page.waitForFunction(() => document.querySelector('[data-testid="novel-stats"]').textContent.startsWith("3 scenes"));
  await app.assertClean(assert);
  await app.close();
});

test("on revision the streamed prose starts again", async () => {
  const app = await openApp(env, { novel: true, ticks: [{ revise: true }], delayMs: 5 });
  const { page } = app;
  const proseSeen = recordUntil(page, "live-prose", "committed-scene");
  await page.getByTestId("next-scene").click();
  await page.getByTestId("committed-scene").waitFor();
  assert.ok((await proseSeen).some((v) => v.includes("didn't realize")), "the first draft streamed");
  const prose = await text(page, "live-prose");
  assert.ok(!prose.includes("didn't realize"), "the first draft was replaced, not appended to");
  assert.ok(prose.startsWith("Rain had found its way"));
  assert.match(await text(page, "committed-scene"), /revised once/);
  await app.close();
});

const finding = (severity, check = "length") => ({ check, severity, message: `A ${severity}.`, excerpt: null });

test("a scene kept with findings says so after its word count; notes alone do not count", async () => {
  const app = await openApp(env, {
    novel: true,
    delayMs: 2,
    ticks: [
      { revise: true, findings: [finding("violation", "pov_leak"), finding("warning"), finding("warning", "repetition"), finding("note", "tense_drift")] },
      { revise: true, findings: [finding("note", "tense_drift")] },
      { findings: [finding("warning")] },
    ],
  });
  const { page } = app;
  await page.getByTestId("run-count").fill("3");
  await page.getByTestId("run-n").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="committed-scene"]')?.dataset.tick === "5");
  const words = (await page.getByTestId("committed-eyebrow").textContent()).match(/· ([\d,]+ words)/)[1];
  assert.equal(await text(page, "committed-eyebrow"), `Scene 5 committed · ${words} · kept with 1 finding worth a look`);
  const earlier = await page.getByTestId("earlier-eyebrow").allTextContents();
  assert.deepEqual(earlier, [
    `Scene 4 committed · ${words} · revised once · checks clean`,
    `Scene 3 committed · ${words} · revised once · kept with 3 findings, 1 to fix`,
  ]);
  // Only a clean scene keeps the green edge of a committed one.
  assert.equal(await page.locator('[data-testid="committed-scene"].kept-with-findings').count(), 1);
  assert.deepEqual(
    await page.locator('[data-testid="earlier-scene"]').evaluateAll((els) => els.map((e) => e.classList.contains("kept-with-findings"))),
    [false, true],
  );

  // The wording, case by case, as the CLI's tick line has it ("(revised once, kept with 3 findings, 1 to fix)").
  const cli = await page.evaluate(() => {
    const f = (severity) => ({ check: "length", severity, message: "m", excerpt: null });
    const line = (revised, findings) => {
      const { parts } = window.__lib.kept({ revised, findings });
      return parts.length ? `(${parts.join(", ")})` : "";
    };
    return [
      line(true, [f("violation"), f("warning"), f("warning")]),
      line(false, [f("violation"), f("violation")]),
      line(false, [f("warning"), f("note")]),
      line(true, [f("warning"), f("warning")]),
      line(true, [f("note")]),
      line(false, [f("note")]),
      line(false, []),
    ];
  });
  assert.deepEqual(cli, [
    "(revised once, kept with 3 findings, 1 to fix)",
    "(kept with 2 findings, 2 to fix)",
    "(kept with 1 finding worth a look)",
    "(revised once, kept with 2 findings worth a look)",
    "(revised once, checks clean)",
    "",
    "",
  ]);
  await app.assertClean(assert);
  await app.close();
});

test("a draft that could not be kept shows a calm notice while a fresh one is written", async () => {
  const why = "the revised scene still fails checks that cannot be wrong: Point of view (Tamsin hears Bram's thoughts).";
  const app = await openApp(env, { novel: true, delayMs: 8, ticks: [{ retry: why }] });
  const { page } = app;
  const noticeSeen = recordUntil(page, "retry-notice", "committed-scene");
  await page.getByTestId("next-scene").click();
  await page.getByTestId("retry-notice").waitFor();
  const expected = "Scene 3's draft could not be kept — the revised scene still fails checks that cannot be wrong: Point of view (Tamsin hears Bram's thoughts). Writing a fresh draft (1 of 2).";
  assert.equal(await text(page, "retry-notice"), expected);
  assert.equal(await page.getByTestId("retry-notice").getAttribute("role"), "status");
  assert.equal(await page.getByTestId("run-error").count(), 0, "a retried draft is not an error");
  // Above the prose, which starts again from nothing.
  assert.ok(
    await page.evaluate(() => {
      const notice = document.querySelector('[data-testid="retry-notice"]');
      return Boolean(notice.compareDocumentPosition(document.querySelector('[data-testid="live-prose"]')) & Node.DOCUMENT_POSITION_FOLLOWING);
    }),
  );
  await page.getByTestId("committed-scene").waitFor();
  assert.deepEqual(await noticeSeen, [expected], "one notice, unchanged while the fresh draft streamed");
  assert.equal(await page.getByTestId("retry-notice").count(), 0, "gone once the fresh draft is kept");
  assert.doesNotMatch(await text(page, "live-prose"), /could not keep/, "the kept draft, not the failed one");

  // The reducer forgets the retry when the run ends, however it ends, and on a new run or novel.
  const cleared = await page.evaluate(() => {
    const { runReducer, initialRun } = window.__lib;
    const failure = { tick: 3, stage: "revising", kind: "prose_rejected", message: "m", error_file: null, text: "t" };
    const retrying = runReducer(
      { ...initialRun, status: "running" },
      { type: "event", event: { type: "retrying", index: 1, attempt: 1, retries: 2, failure } },
    );
    const report = { requested: 1, committed: [], end: "failed", failure };
    return {
      set: retrying.retrying !== null,
      done: runReducer(retrying, { type: "done", report }).retrying,
      error: runReducer(retrying, { type: "error", error: { kind: "store", message: "m" } }).retrying,
      start: runReducer(retrying, { type: "start", n: 1 }).retrying,
      reset: runReducer({ ...retrying, status: "idle" }, { type: "reset" }).retrying,
      noTick: window.__lib.retryNotice({ index: 1, attempt: 2, retries: 2, failure: { ...failure, tick: null, message: "nothing usable." } }),
    };
  });
  assert.deepEqual(cleared, {
    set: true,
    done: null,
    error: null,
    start: null,
    reset: null,
    noTick: "The scene's draft could not be kept — nothing usable. Writing a fresh draft (2 of 2).",
  });
  await app.assertClean(assert);
  await app.close();
});

test("a committed scene's Details say how much of its prompt the server's cache read", async () => {
  const role = (prompt_tokens, cached_tokens) => ({ calls: 1, prompt_tokens, completion_tokens: 100, cached_tokens, estimated: false, latency_ms: 900 });
  const usage = { roles: { planner: role(950, 540), writer: role(1400, 900), extractor: role(600, 400) } };
  const app = await openApp(env, { novel: true, delayMs: 2, ticks: [{ usage }, {}] });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("committed-scene").waitFor();
  assert.equal(await page.getByTestId("committed-cache").isVisible(), false, "behind Details");
  await page.getByTestId("committed-telemetry-toggle").click();
  assert.equal(await text(page, "committed-cache"), "1,840 of 2,950 prompt tokens read from the server's cache (62%)");

  // Without cache reads there is no line at all.
  await page.getByTestId("next-scene").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="committed-scene"]')?.dataset.tick === "4");
  assert.equal(await page.getByTestId("committed-cache").count(), 0);
  const shares = await page.evaluate(() => {
    const r = (prompt_tokens, cached_tokens) => ({ calls: 1, prompt_tokens, completion_tokens: 1, cached_tokens, estimated: false, latency_ms: 1 });
    const line = (roles) => window.__lib.cachedPrompt({ roles });
    return [line({}), line({ writer: r(1000, 0) }), line({ writer: r(1000, 999) }), line({ writer: r(1000, 2) }), line({ writer: r(1, 1) })];
  });
  assert.deepEqual(shares, [
    null,
    null,
    "999 of 1,000 prompt tokens read from the server's cache (99%)",
    "2 of 1,000 prompt tokens read from the server's cache (1%)",
    "1 of 1 prompt token read from the server's cache (100%)",
  ]);
  await app.assertClean(assert);
  await app.close();
});

test("a failed tick shows a clear banner that stays across views; Retry runs the tick again", async () => {
  const app = await openApp(env, { novel: true, ticks: [{ outcome: "fail" }], delayMs: 5 });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("run-error").waitFor();
  const banner = await text(page, "run-error");
  assert.match(banner, /Scene 3 could not be written/);
  assert.match(banner, /HTTP 500/);
  assert.match(banner, /The AI server reported an error/);
  assert.match(banner, /Your story is unchanged — nothing was lost/);
  assert.match(banner, /errors\/error_003\.json/);

  await page.getByTestId("nav-manuscript").click();
  await page.getByTestId("nav-write").click();
  await page.getByTestId("retry-tick").click();
  await page.getByTestId("committed-scene").waitFor();
  assert.equal(await page.getByTestId("run-error").count(), 0, "the banner is gone after a good retry");
  assert.equal((await app.calls("run_ticks")).length, 2);
  await app.assertClean(assert);
  await app.close();
});

/** Rust's hints by failure kind and its stage labels, as the generated bindings carry them. */
function fromBindings(name) {
  const text = readFileSync(new URL("../../src/bindings.ts", import.meta.url), "utf8");
  const m = text.match(new RegExp(`export const ${name} = (.*) as const;`));
  return JSON.parse(m[1]);
}

test("the banner's hint is Rust's hint for the failure's kind, whatever the message says", async () => {
  const hints = fromBindings("FAILURE_HINTS");
  for (const kind of ["llm.auth", "llm.rate_limited", "llm.connect", "llm.timeout", "plan_invalid", "prose_rejected", "store"]) {
    const app = await openApp(env, { novel: true, pendingFailure: kind });
    await app.page.getByTestId("run-error").waitFor();
    assert.equal(await app.page.getByTestId("run-error").getAttribute("data-error-kind"), kind);
    assert.equal(await text(app.page, "run-error-hint"), hints[kind], kind);
    await app.close();
  }
  // The message names a server error, but the kind says the plan failed: the kind decides.
  const app = await openApp(env, { novel: true, ticks: [{ outcome: "fail", kind: "plan_invalid", message: "HTTP 500 in a tool's note" }] });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("run-error").waitFor();
  const banner = await text(page, "run-error");
  assert.equal(await text(page, "run-error-hint"), hints.plan_invalid);
  assert.ok(!banner.includes(hints["llm.server"]), banner);
  const writing = fromBindings("TICK_STAGES").find((s) => s.stage === "writing").label.toLowerCase();
  assert.match(banner, new RegExp(`\\(while ${writing}\\)`), "the stage label is Rust's");
  await app.close();

  const other = await openApp(env, { novel: true, pendingFailure: "other" });
  await other.page.getByTestId("run-error").waitFor();
  assert.equal(await other.page.getByTestId("run-error-hint").count(), 0, "no hint for a kind without one");
  await other.close();
});

test("Skip gives up on the failed tick", async () => {
  const app = await openApp(env, { novel: true, ticks: [{ outcome: "fail" }], delayMs: 5 });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("skip-tick").click();
  await page.getByTestId("run-error").waitFor({ state: "detached" });
  assert.deepEqual((await app.calls("skip_failed_tick")).map((c) => c.args), [{ tick: 3 }]);
  assert.match(await text(page, "toast"), /Skipped/);
  await app.close();
});

test("a draft the checks would not let through can be kept anyway or edited; other failures offer neither", async () => {
  const refused = "the revised scene is still commentary instead of story (“Here is the revised scene:”)";
  const app = await openApp(env, {
    novel: true,
    ticks: [{ outcome: "fail", kind: "prose_rejected", message: refused }, {}],
    delayMs: 5,
  });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("run-error").waitFor();
  assert.match(await text(page, "run-error"), /commentary instead of story/);
  await page.getByTestId("keep-draft").click();
  await page.getByTestId("run-error").waitFor({ state: "detached" });
  await page.getByTestId("committed-scene").waitFor();
  assert.equal((await app.calls("keep_failed_draft")).length, 1);
  await app.close();

  // Edit keeps it too, then opens it in the manuscript's editor with its checks beside it.
  const edit = await openApp(env, {
    novel: true,
    ticks: [{ outcome: "fail", kind: "prose_rejected", message: refused }, {}],
    delayMs: 5,
  });
  await edit.page.getByTestId("next-scene").click();
  await edit.page.getByTestId("edit-draft").click();
  await edit.page.getByTestId("scene-editor").waitFor();
  assert.equal((await edit.calls("keep_failed_draft")).length, 1);
  await edit.close();

  const other = await openApp(env, { novel: true, ticks: [{ outcome: "fail", kind: "plan_invalid" }], delayMs: 5 });
  await other.page.getByTestId("next-scene").click();
  await other.page.getByTestId("run-error").waitFor();
  assert.equal(await other.page.getByTestId("keep-draft").count(), 0, "nothing to keep when no draft was refused");
  assert.equal(await other.page.getByTestId("edit-draft").count(), 0);
  await other.close();
});

test("a failure still pending when the novel opens is shown with Retry and Skip", async () => {
  const app = await openApp(env, { novel: true, pendingFailure: true });
  const { page } = app;
  await page.getByTestId("run-error").waitFor();
  assert.match(await text(page, "run-error"), /Scene 3 could not be written.*HTTP 500/);
  assert.ok(await page.getByTestId("retry-tick").isVisible());
  assert.ok(await page.getByTestId("skip-tick").isVisible());
  await app.close();
});

test("with no provider set up the run explains it and offers Settings", async () => {
  const message = "No AI provider is set up yet. Open Settings → Providers, add one.";
  const app = await openApp(env, { novel: true, errors: { run_ticks: { kind: "provider", message } } });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("go-settings").waitFor();
  assert.match(await text(page, "run-error"), /No AI provider is set up yet/);
  await page.getByTestId("go-settings").click();
  await page.getByTestId("provider-row").first().waitFor();
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "settings");
  await app.close();
});

test("Run N writes several scenes; Cancel abandons the one in progress", async () => {
  const app = await openApp(env, { novel: true, delayMs: 5, ticks: [{}, { delayMs: 40 }] });
  const { page } = app;
  await page.getByTestId("run-count").fill("0");
  assert.ok(await page.getByTestId("run-n").isDisabled(), "0 scenes is refused");
  await page.getByTestId("run-count").fill("51");
  assert.ok(await page.getByTestId("run-n").isDisabled(), "more than 50 is refused");
  await page.getByTestId("run-count").fill("3");
  await page.getByTestId("run-n").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="committed-scene"]')?.dataset.tick === "3");
  await page.waitForFunction(() => document.querySelector('[data-testid="run-progress"]')?.textContent === "Scene 2 of 3");
  await page.getByTestId("cancel-run").click();
  await page.getByTestId("run-end").waitFor();
  assert.match(await text(page, "run-end"), /Cancelled.*rolled back/);
  assert.deepEqual((await app.calls("stop_run")).map((c) => c.args), [{ cancel: true }]);
  assert.equal((await app.calls("run_ticks"))[0].args.n, 3);
  assert.equal(await page.getByTestId("run-error").count(), 0, "a cancel is not an error");
  await app.close();
});

test("streamed prose with markup shows as text and runs nothing", async () => {
  const hostile = 'She read it. <script>window.__pwned = "script"</script>\n\n<img src="x" onerror="window.__pwned = 1"> Wet ink.';
  const app = await openApp(env, { novel: true, ticks: [{ prose: hostile }], delayMs: 5 });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("committed-scene").waitFor();
  const live = await text(page, "live-prose");
  assert.ok(live.includes('<script>window.__pwned = "script"</script>'));
  assert.ok(live.includes('<img src="x" onerror="window.__pwned = 1">'));
  assert.equal(await page.locator('[data-testid="live-prose"] img, [data-testid="live-prose"] script').count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
  await app.assertClean(assert);
  await app.close();
});

test("opening another novel clears the last run from the Write view", async () => {
  const app = await openApp(env, {
    novel: true,
    recent: [{ path: "/home/writer/Novels/the-quiet-canal", title: "The Quiet Canal", opened_at: "2025-11-21T10:00:00Z", missing: false }],
  });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("committed-scene").waitFor();
  await page.getByTestId("nav-library").click();
  await page.getByTestId("recent-item").click();
  await page.waitForFunction(() => document.querySelector('[data-testid="novel-title"]').textContent === "The Quiet Canal");
  await page.getByTestId("next-scene").waitFor();
  assert.equal(await page.getByTestId("committed-scene").count(), 0);
  assert.equal(await page.getByTestId("live-prose").count(), 0);
  await app.close();
});

const PARTIAL = "Rain had found its way under Tamsin's collar.\n\nShe counted the lamps on the quay and waited for";

test("a scene that failed mid-stream keeps its prose on screen with Copy and Keep as a draft", async () => {
  const app = await openApp(env, { novel: true, ticks: [{ outcome: "fail", partial: PARTIAL }], delayMs: 5 });
  const { page } = app;
  await page.getByTestId("next-scene").click();
  await page.getByTestId("run-error").waitFor();
  const draft = page.getByTestId("failed-draft");
  await draft.waitFor();
  assert.match(await draft.textContent(), /What scene 3 had so far/);
  assert.match(await text(page, "failed-draft-prose"), /Rain had found its way under Tamsin's collar\..*waited for$/);
  assert.match(await draft.textContent(), /18 words, not yet part of the book/);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.url });
  await page.getByTestId("copy-draft").click();
  await page.getByText("Copied").waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), PARTIAL);
  // Kept with no model call, then opened in the editor to finish.
  await page.getByTestId("keep-as-draft").click();
  await page.getByTestId("scene-editor").waitFor();
  assert.deepEqual((await app.calls("keep_failed_draft")).map((c) => c.args.toFinish), [true]);
  assert.equal(await page.locator("main.view").getAttribute("data-view"), "manuscript");
  assert.match(await page.getByTestId("scene-editor").textContent(), /waited for/);
  await app.assertClean(assert);
  await app.close();
});

test("after a restart the failed scene's draft is offered again from its error file", async () => {
  const app = await openApp(env, { novel: true, pendingFailure: true, failedDraft: PARTIAL });
  const { page } = app;
  await page.getByTestId("run-error").waitFor();
  assert.match(await text(page, "failed-draft-prose"), /waited for$/);
  assert.ok(await page.getByTestId("keep-as-draft").isVisible());
  // A failure before any prose streamed has nothing to show or keep.
  const none = await openApp(env, { novel: true, pendingFailure: true });
  await none.page.getByTestId("run-error").waitFor();
  assert.equal(await none.page.getByTestId("failed-draft").count(), 0);
  await none.close();
});

test("a reopened book says which scene is next and recaps the last one", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  const empty = page.getByTestId("empty-state");
  await empty.waitFor();
  assert.match(await empty.locator("h2").textContent(), /^Scene 3 is next$/);
  assert.equal(await text(page, "recap"), "Last time: scene 2, “The Salt Gate” — Tamsin finds Bram on the quay.");
  await app.assertClean(assert);
  await app.close();
});

test("a latest scene the agent did not write (imported, by hand) is not offered to be written again, and the tooltip says why", async () => {
  const why = "Scene 2 came from the imported manuscript, not from the agent: edit it by hand, or write a new scene with Next scene.";
  const app = await openApp(env, { novel: true, scenes: 2, writeAgainRefusal: why });
  const { page } = app;
  const again = page.getByTestId("regenerate-scene");
  await again.waitFor();
  assert.ok(await again.isDisabled(), "Write scene 2 again is disabled");
  assert.equal(await again.getAttribute("title"), why);
  assert.equal(await page.getByTestId("write-again-why").textContent(), why, "and said on screen");
  // The shortcut asks nothing of the engine either.
  await page.keyboard.press("Control+Shift+Enter");
  await page.waitForTimeout(200);
  assert.equal((await app.calls("regenerate_scene")).length, 0);
  // Nor does the manuscript's scene menu offer it.
  await page.getByTestId("nav-manuscript").click();
  const last = page.locator('[data-testid="scene"][data-tick="2"]');
  await last.getByTestId("scene-menu").click();
  await last.getByTestId("menu-branch-from").waitFor();
  assert.equal(await last.getByTestId("menu-write-again").count(), 0);
  await app.assertClean(assert);
  await app.close();
});

test("the agent's own latest scene is offered to be written again", async () => {
  const app = await openApp(env, { novel: true, scenes: 2 });
  const { page } = app;
  const again = page.getByTestId("regenerate-scene");
  await again.waitFor();
  assert.ok(await again.isEnabled());
  assert.match(await again.getAttribute("title"), /Write scene 2 again/);
  assert.equal(await page.getByTestId("write-again-why").count(), 0);
  await page.getByTestId("nav-manuscript").click();
  const last = page.locator('[data-testid="scene"][data-tick="2"]');
  await last.getByTestId("scene-menu").click();
  await last.getByTestId("menu-write-again").waitFor();
  await app.assertClean(assert);
  await app.close();
});
