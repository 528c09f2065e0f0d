// Steps shared by the end-to-end tests, written as a writer would do them.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { click, typeInto, waitForText } from "./app.mjs";

/** Fills the New novel form and creates the novel in a fresh temp folder; returns the folder. */
export async function createNovelThroughForm(browser, title = "Salt and Iron") {
  const parent = mkdtempSync(path.join(tmpdir(), "novel-e2e-library-"));
  await click(browser, "nav-library");
  await click(browser, "new-novel");
  await typeInto(browser, "field-title", title);
  await typeInto(browser, "field-premise", "A smuggler in a drowned city hunts the men who framed her brother.");
  await typeInto(browser, "field-protagonist_name", "Tamsin Vale");
  await typeInto(browser, "field-protagonist_role", "smuggler");
  await typeInto(browser, "field-location_name", "Rainmarket Docks");
  await typeInto(browser, "field-goal", "Clear her brother's name before the harbor court sits");
  await typeInto(browser, "field-parent_dir", parent);
  await click(browser, "create-novel");
  await waitForText(browser, "novel-title", (t) => t.includes(title));
  return parent;
}

/** Presses Next scene and waits for the committed scene; returns the text it showed. */
export async function nextScene(browser, timeout = 60000) {
  await click(browser, "nav-write");
  await click(browser, "next-scene");
  return waitForText(browser, "committed-scene", (t) => t.trim().length > 0, timeout);
}

/** Types `file` into the native save dialog titled `title` and confirms it (xdotool, on the
 *  Xvfb display the app runs on). */
export function answerSaveDialog(title, file) {
  const xdo = (...args) => execFileSync("xdotool", args, { timeout: 20000 });
  const win = xdo("search", "--sync", "--name", title).toString().trim().split("\n")[0];
  xdo("windowfocus", "--sync", win);
  xdo("key", "--window", win, "ctrl+a");
  xdo("type", "--window", win, "--delay", "20", file);
  xdo("key", "--window", win, "Return");
}

/** Answers the native message dialog titled `title` with `key` (Escape: Cancel). GTK makes
 *  more than one window with that name: the key goes, as typed, to the one that takes focus. */
export function answerMessageDialog(title, key) {
  const xdo = (...args) => execFileSync("xdotool", args, { timeout: 20000, stdio: ["ignore", "pipe", "pipe"] });
  const windows = xdo("search", "--sync", "--onlyvisible", "--name", title).toString().trim().split("\n");
  for (const win of windows) {
    try {
      xdo("windowfocus", "--sync", win);
      xdo("key", key);
      return;
    } catch (e) {
      if (process.env.E2E_DEBUG) console.error(`window ${win}: ${e.stderr}`);
    }
  }
  throw new Error(`no window titled ${title} took the key (${windows.join(", ")})`);
}
