// The real built desktop app under WebDriver: tauri-driver (which drives WebKitWebDriver)
// started per test file with the app's environment, and a WebdriverIO session against it.
// Must run under an X server (the test command wraps the run in xvfb-run).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { remote } from "webdriverio";
import { ROOT } from "./server.mjs";

// NOVEL_AGENT_APP runs another build of the app (a release build, the installed package).
const APP = process.env.NOVEL_AGENT_APP ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "debug/novel-agent");
const DRIVER = process.env.TAURI_DRIVER ?? path.join(homedir(), ".cargo/bin/tauri-driver");

/** Launches the app with `env` added (e.g. NOVEL_AGENT_CONFIG_DIR); resolves to { browser, processes, close }. */
export async function launchApp(env = {}) {
  for (const [what, file] of [["app", APP], ["tauri-driver", DRIVER]]) {
    if (!existsSync(file)) throw new Error(`${what} not found at ${file}; run the test command in README.md`);
  }
  // Ports the system says are free now (a random pick collided now and then with a port in
  // use, and the driver then never answered).
  const port = await freePort();
  const nativePort = await freePort();
  // Marks every process of this launch (the driver passes its environment on to the app), so
  // `close` can find an app the WebDriver session left running.
  const launch = `${process.pid}-${port}-${Date.now()}`;
  const driver = spawn(DRIVER, ["--port", String(port), "--native-port", String(nativePort)], {
    env: { ...process.env, ...env, NOVEL_E2E_LAUNCH: launch },
    stdio: ["ignore", "ignore", "inherit"],
  });
  let browser;
  for (let attempt = 0; ; attempt++) {
    try {
      browser = await remote({
        hostname: "127.0.0.1",
        port,
        logLevel: "error",
        capabilities: { "tauri:options": { application: APP } },
      });
      break;
    } catch (e) {
      if (attempt > 40) {
        driver.kill("SIGTERM");
        throw e;
      }
      await sleep(250);
    }
  }
  return {
    browser,
    /** The pids of this launch's processes: the app, WebKit's, the drivers. */
    processes: () => processesOf(launch),
    async close() {
      try {
        await browser.deleteSession();
      } catch {
        // The app may already be gone; the driver still has to stop.
      }
      // SIGTERM, never SIGKILL: a killed tauri-driver orphans WebKitWebDriver and hangs the run.
      driver.kill("SIGTERM");
      await once(driver, "exit");
      // An app the session did not close keeps the test runner waiting for ever.
      await stopLeftovers(launch);
    },
  };
}

/** A TCP port on 127.0.0.1 that nothing listens on. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Processes whose environment carries `NOVEL_E2E_LAUNCH=launch`. */
function processesOf(launch) {
  const marker = `NOVEL_E2E_LAUNCH=${launch}`;
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker);
      } catch {
        return false; // gone already, or not ours to read
      }
    })
    .map(Number);
}

async function stopLeftovers(launch) {
  for (const signal of ["SIGTERM", "SIGKILL"]) {
    const left = processesOf(launch);
    if (left.length === 0) return;
    for (const pid of left) {
      try {
        process.kill(pid, signal);
      } catch {
        // exited meanwhile
      }
    }
    await sleep(1000);
  }
}

/** The element with `data-testid`. */
export function byTestId(browser, id) {
  return browser.$(`[data-testid="${id}"]`);
}

export async function click(browser, id) {
  const el = await byTestId(browser, id);
  await el.waitForClickable({ timeout: 15000 });
  await el.click();
}

export async function typeInto(browser, id, text) {
  const el = await byTestId(browser, id);
  await el.waitForDisplayed({ timeout: 15000 });
  await el.setValue(text);
}

/** The element's text as the DOM holds it (WebKitWebDriver's getText skips clipped text). */
export async function textOf(el) {
  return (await el.getProperty("textContent")) ?? "";
}

export async function waitForText(browser, id, predicate, timeout = 30000) {
  let last = "";
  await browser.waitUntil(
    async () => {
      const el = await byTestId(browser, id);
      last = (await el.isExisting()) ? await textOf(el) : "";
      return predicate(last);
    },
    { timeout, timeoutMsg: `${id} never showed the expected text` },
  );
  return last;
}

/** `attr` of every element with `data-testid` (null for elements without it), read in one
 *  step inside the page so a re-render in between cannot leave stale element handles. */
export function attrsOf(browser, id, attr) {
  return browser.execute(
    (testId, name) =>
      Array.from(document.querySelectorAll(`[data-testid="${testId}"]`)).map((el) => el.getAttribute(name)),
    id,
    attr,
  );
}

/** Waits until `predicate` holds for the `attr` values of the `data-testid` elements. */
export async function waitForAttrs(browser, id, attr, predicate, timeout = 15000) {
  let last = [];
  await browser.waitUntil(
    async () => {
      last = await attrsOf(browser, id, attr);
      return predicate(last);
    },
    { timeout, timeoutMsg: `${id} elements never matched: last saw ${JSON.stringify(last)}` },
  );
  return last;
}
