// What a script in the web view may not do in the real app: call a command the window's
// capability does not grant (the save dialog is the shell's, not the page's), or save a
// command provider the writer refused in the native confirmation (nothing is written).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { launchApp, byTestId, click, typeInto, waitForText } from "./support/app.mjs";
import { providerConfig } from "./support/server.mjs";
import { answerMessageDialog } from "./support/journey.mjs";

/** Invokes `cmd` from the page as any script could; resolves to "ok" or the refusal. */
function invokeFromPage(browser, cmd, args) {
  return browser.executeAsync(
    (c, a, done) => {
      window.__TAURI_INTERNALS__.invoke(c, a).then(
        () => done("ok"),
        (e) => done(typeof e === "string" ? e : JSON.stringify(e)),
      );
    },
    cmd,
    args,
  );
}

test("the page cannot open the save dialog itself, and a refused program is not saved", async () => {
  const config = providerConfig("http://127.0.0.1:9/v1");
  const file = path.join(config, "providers.toml");
  const before = readFileSync(file, "utf8");
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: config });
  const b = app.browser;
  try {
    await byTestId(b, "nav-settings").then((el) => el.waitForClickable({ timeout: 15000 }));
    const save = await invokeFromPage(b, "plugin:dialog|save", { options: {} });
    assert.match(save, /not allowed/i, save);
    // A granted command still answers.
    assert.equal(await invokeFromPage(b, "list_providers", {}), "ok");

    await click(b, "nav-settings");
    await click(b, "provider-add");
    await typeInto(b, "provider-name", "agent");
    await (await byTestId(b, "provider-kind")).selectByAttribute("value", "command");
    await typeInto(b, "provider-command", "/bin/echo");
    await click(b, "provider-save");
    // The shell's own dialog names the program; the writer says no.
    answerMessageDialog("Allow a program to run?", "Escape");
    const error = await waitForText(b, "provider-error", (t) => t.includes("Not saved"));
    assert.match(error, /\/bin\/echo/);
    assert.equal(readFileSync(file, "utf8"), before, "providers.toml is untouched");
  } finally {
    await app.close();
  }
});
