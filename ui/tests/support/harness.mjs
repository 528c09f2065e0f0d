// Shared by the UI tests: builds the test harness once (cached by a hash of the UI sources),
// serves it with the app's real Content-Security-Policy, launches headless Chromium, and
// opens the app with a scenario for the mocked backend (plus Tauri's frozen Object.prototype).
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const UI = path.resolve(import.meta.dirname, "../..");
const ROOT = path.resolve(UI, "..");
const SOURCES = [path.join(UI, "src"), path.join(UI, "build"), path.join(UI, "tests/harness"), path.join(ROOT, "package-lock.json")];

function files(p) {
  if (statSync(p).isFile()) return [p];
  return readdirSync(p, { withFileTypes: true }).flatMap((e) =>
    e.name === "dist" || e.name === "node_modules" ? [] : files(path.join(p, e.name)),
  );
}

/** Builds ui/tests/harness into a temp folder named by the sources' hash; reuses a finished one. */
export async function buildHarness() {
  const hash = createHash("sha256");
  for (const f of SOURCES.flatMap(files).sort()) hash.update(f).update(readFileSync(f));
  const out = path.join(tmpdir(), `novel-ui-harness-${hash.digest("hex").slice(0, 16)}`);
  if (existsSync(path.join(out, "index.html"))) return out;
  for (const old of readdirSync(tmpdir()).filter((n) => n.startsWith("novel-ui-harness-"))) {
    const p = path.join(tmpdir(), old);
    // Earlier builds of other sources; a build in progress is younger than ten minutes.
    if (p !== out && Date.now() - statSync(p).mtimeMs > 10 * 60 * 1000) rmSync(p, { recursive: true, force: true });
  }
  const staging = mkdtempSync(`${out}-build-`);
  process.env.HARNESS_OUT = staging;
  const { build } = await import("vite");
  await build({ configFile: path.join(UI, "tests/harness/vite.config.ts"), logLevel: "warn" });
  try {
    renameSync(staging, out);
  } catch {
    // Another test file finished the same build first.
    rmSync(staging, { recursive: true, force: true });
  }
  return out;
}

/** The app's CSP from tauri.conf.json (IPC goes through the mock, so connect-src is 'self'). */
function csp() {
  const conf = JSON.parse(readFileSync(path.join(ROOT, "tauri.conf.json"), "utf8"));
  const policy = { ...conf.app.security.csp, "connect-src": "'self'" };
  return Object.entries(policy)
    .map(([k, v]) => `${k} ${v}`)
    .join("; ");
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" };

export async function serve(dir) {
  const policy = csp();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const file = path.join(dir, url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname));
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "Content-Security-Policy": policy,
    });
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** How many tests share one page before it is replaced. */
const PAGE_USES = 15;

/** Build, serve and launch: everything a test file needs, and `close` for its `after`. */
export async function setup() {
  const dir = await buildHarness();
  const server = await serve(dir);
  // Playwright runs headless in a fresh temporary profile (--user-data-dir) of its own.
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  // One page, reloaded for every test (a new page costs more than the test), replaced every
  // PAGE_USES tests so the renderer's memory stays bounded, and at once if it crashed, so one
  // crash fails one test, not every test after it.
  const context = await browser.newContext({ viewport: { width: 1280, height: 840 } });
  const env = { url: server.url, browser, page: null, problems: [], uses: 0, crashed: false };
  env.renew = async () => {
    if (env.page && !env.page.isClosed()) await env.page.close().catch(() => {});
    const page = await context.newPage();
    page.on("crash", () => {
      env.crashed = true;
    });
    page.on("pageerror", (e) => env.problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") env.problems.push(`console error: ${m.text()}`);
    });
    page.on("dialog", async (d) => {
      env.problems.push(`dialog: ${d.message()}`);
      await d.dismiss();
    });
    // As in the app (tauri.conf.json `freezePrototype: true`).
    await page.addInitScript({ content: "Object.freeze(Object.prototype);" });
    env.page = page;
    env.uses = 0;
    env.crashed = false;
  };
  await env.renew();
  env.close = async () => {
    await browser.close();
    await server.close();
  };
  return env;
}

/**
 * Loads the app afresh (new JS state, empty localStorage and sessionStorage: as a new launch)
 * with `scenario` for the mocked
 * backend. Page errors, console errors and JS dialogs (an alert would mean injected script
 * ran) are collected for `assertClean`.
 */
export async function openApp(env, scenario = {}, { colorScheme = "light", viewport = { width: 1280, height: 840 } } = {}) {
  if (env.crashed || env.page.isClosed() || env.uses >= PAGE_USES) await env.renew();
  env.uses += 1;
  const { page } = env;
  await page.emulateMedia({ colorScheme });
  await page.setViewportSize(viewport);
  env.problems.length = 0;
  // The page clears its storage itself, before the app boots (see the harness's main.ts).
  env.fresh = (env.fresh ?? 0) + 1;
  await page.goto(`${env.url}?fresh=${env.fresh}&scenario=${encodeURIComponent(JSON.stringify(scenario))}`);
  await page.getByTestId("novel-title").waitFor();
  return {
    page,
    problems: env.problems,
    /** The mocked commands called so far, optionally only `cmd`. */
    calls: (cmd) => page.evaluate((c) => window.__calls.filter((x) => !c || x.cmd === c), cmd ?? null),
    /** Fails on any page error, console error, JS dialog or CSP violation. */
    async assertClean(assert) {
      const csp = await page.evaluate(() => window.__cspViolations);
      assert.deepEqual([...env.problems, ...csp], [], "no errors, dialogs or CSP violations");
    },
    close: async () => {},
  };
}

/**
 * Runs `body` and, if headless Chromium's renderer crashed under it ("Target crashed", seen
 * now and then on the 300-node graph under load), once more on a fresh page. Any other failure,
 * an assertion's included, is not retried.
 */
export async function retryOnCrash(env, body) {
  try {
    return await body();
  } catch (e) {
    if (!env.crashed && !/Target crashed|Target page, context or browser has been closed/.test(String(e?.message))) throw e;
    console.error(`# the page crashed (${String(e?.message).trim()}); running the test once more on a fresh page`);
    await env.renew();
    return await body();
  }
}

/**
 * Starts recording, before the action that triggers them, every distinct value of `read(el)`
 * for the element `testId` until the element `untilTestId` exists; resolves to the list.
 * A MutationObserver sees every DOM commit, however briefly a value was shown.
 */
export function recordUntil(page, testId, untilTestId, read = "text") {
  return page.evaluate(
    ([id, until, how]) =>
      new Promise((resolve) => {
        const seen = [];
        const check = () => {
          const el = document.querySelector(`[data-testid="${id}"]`);
          const value = el ? (how === "text" ? el.textContent : el.dataset[how]) : null;
          if (value !== null && seen[seen.length - 1] !== value) seen.push(value);
          if (document.querySelector(`[data-testid="${until}"]`)) {
            observer.disconnect();
            resolve(seen);
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        check();
      }),
    [testId, untilTestId, read],
  );
}
