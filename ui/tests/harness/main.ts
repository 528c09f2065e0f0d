// Test harness entry: installs the mocked Tauri IPC (commands, channels, events, dialogs)
// from the scenario a test injected as `window.__SCENARIO__`, then starts the real app and
// hands the tests a few of its pure functions (`window.__lib`).
import { mockIPC, mockWindows } from "@tauri-apps/api/mocks";
import { createBackend } from "./backend";
import type { Scenario } from "./backend";

declare global {
  interface Window {
    __SCENARIO__?: Scenario;
    __cspViolations: string[];
    __lib: Record<string, unknown>;
  }
}

window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`);
});

// Each openApp starts clean: its `fresh` token clears the storage here, in the new page before
// the app boots (clearing from the old page raced with its last writes, e.g. the view it
// remembers). A reload keeps the token and so keeps what the app stored, as a relaunch would.
const fresh = new URLSearchParams(location.search).get("fresh");
if (fresh && sessionStorage.getItem("harness.fresh") !== fresh) {
  localStorage.clear();
  sessionStorage.clear();
  sessionStorage.setItem("harness.fresh", fresh);
}

mockWindows("main");
// The scenario comes in the query string (`?scenario=<json>`) or from an init script.
const fromQuery = new URLSearchParams(location.search).get("scenario");
const backend = createBackend(fromQuery ? (JSON.parse(fromQuery) as Scenario) : (window.__SCENARIO__ ?? {}));
mockIPC((cmd, args) => backend.handle(cmd, (args ?? {}) as Record<string, unknown>), { shouldMockEvents: true });

await import("../../src/main");

// The wording functions and the run reducer, for tests that check them case by case without a run each.
const [kept, format, run] = await Promise.all([import("../../src/lib/kept"), import("../../src/lib/format"), import("../../src/lib/run")]);
window.__lib = { kept: kept.kept, cachedPrompt: format.cachedPrompt, retryNotice: run.retryNotice, runReducer: run.runReducer, initialRun: run.initialRun };
