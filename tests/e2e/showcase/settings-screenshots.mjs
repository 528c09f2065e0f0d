// Makes the README's screenshot of Settings from the real app under Xvfb: with a llama.cpp
// server running on 127.0.0.1:8080 (e.g. llama-cpp-python: `python -m llama_cpp.server --model
// <gguf> --port 8080`), Find local servers lists it, and Add opens the profile form filled from
// it: its model in the dropdown, and the profile's generation settings.
// Run: xvfb-run -a --server-args="-screen 0 1400x900x24" node tests/e2e/showcase/settings-screenshots.mjs
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { shoot } from "./shoot.mjs";
import { launchApp, click, byTestId } from "../support/app.mjs";



// No profile yet: a first run.
const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "novel-showcase-config-")) });
const b = app.browser;
try {
  await click(b, "nav-settings");
  const found = await byTestId(b, "detected-server");
  await found.waitForDisplayed({ timeout: 20000 });
  await click(b, "detected-add");
  await (await byTestId(b, "provider-form")).waitForDisplayed();
  await (await byTestId(b, "provider-model-select")).waitForDisplayed({ timeout: 20000 });
  await sleep(500);
  shoot("settings");
} finally {
  await app.close();
}
