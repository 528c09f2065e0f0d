// How the real app draws (src-tauri/src/rendering.rs): without GPU compositing its own process
// never loads the system's GL driver (Mesa's, with LLVM, tens of MB at idle), while WebKit's
// web process still gets EGL and the page works; `NOVEL_AGENT_GPU=1` brings the driver back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launchApp, byTestId, click } from "./support/app.mjs";
import { providerConfig } from "./support/server.mjs";

/** A GL or EGL driver library: Mesa's DRI drivers and the glvnd vendor libraries. */
const GL_DRIVER = /\/dri\/[^/]+_dri\.so|lib(EGL|GLX)_[a-z]+\.so/;

function commandOf(pid) {
  return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
}

/** The GL driver libraries each process of the launch has mapped, by process name. */
function glDrivers(app) {
  const byProcess = {};
  for (const pid of app.processes()) {
    try {
      const maps = readFileSync(`/proc/${pid}/maps`, "utf8");
      const found = new Set(maps.split("\n").map((l) => l.split(/\s+/).slice(5).join(" ")).filter((f) => GL_DRIVER.test(f)));
      byProcess[commandOf(pid)] = [...found].map((f) => f.slice(f.lastIndexOf("/") + 1));
    } catch {
      // exited meanwhile
    }
  }
  return byProcess;
}

async function launchAndLook(env) {
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: providerConfig("http://127.0.0.1:9/v1"), ...env });
  try {
    const b = app.browser;
    // The page runs and answers input: the Library, then a view loaded on demand.
    await byTestId(b, "nav-settings").then((el) => el.waitForClickable({ timeout: 15000 }));
    await click(b, "nav-settings");
    await byTestId(b, "provider-add").then((el) => el.waitForClickable({ timeout: 15000 }));
    return glDrivers(app);
  } finally {
    await app.close();
  }
}

test("drawing on the CPU keeps the GL driver out of the app's process, and the page works", async () => {
  const drivers = await launchAndLook({});
  assert.deepEqual(drivers["novel-agent"], [], `the app process maps ${drivers["novel-agent"]}`);
  // WebKit's web process still has its EGL display (it cannot start without one).
  assert.ok(drivers.WebKitWebProces?.length > 0, `the web process: ${JSON.stringify(drivers)}`);
});

test("with NOVEL_AGENT_GPU=1 the app's process loads the GL driver for compositing", async () => {
  const drivers = await launchAndLook({ NOVEL_AGENT_GPU: "1" });
  assert.ok(drivers["novel-agent"]?.length > 0, `the app process: ${JSON.stringify(drivers)}`);
});
