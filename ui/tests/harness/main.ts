// Test harness entry: installs the mocked Tauri IPC (commands, channels, events, dialogs)
// from the scenario a test injected as `window.__SCENARIO__`, then starts the real app.
import { mockIPC, mockWindows } from "@tauri-apps/api/mocks";
import { createBackend } from "./backend";
import type { Scenario } from "./backend";

declare global {
  interface Window {
    __SCENARIO__?: Scenario;
    __cspViolations: string[];
  }
}

window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`);
});

mockWindows("main");
// The scenario comes in the query string (`?scenario=<json>`) or from an init script.
const fromQuery = new URLSearchParams(location.search).get("scenario");
const backend = createBackend(fromQuery ? (JSON.parse(fromQuery) as Scenario) : (window.__SCENARIO__ ?? {}));
mockIPC((cmd, args) => backend.handle(cmd, (args ?? {}) as Record<string, unknown>), { shouldMockEvents: true });

await import("../../src/main");
