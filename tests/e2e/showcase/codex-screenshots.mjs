// Makes the README's screenshots of the Manuscript's shaping controls and of the Codex from the
// real app under Xvfb: this folder's five-scene novel written by the `novel` CLI against the
// test server, opened in the app; a scene's menu open over the reader (names in the prose link
// to the codex), then Tamsin Vale's codex page in the Bible.
// Run: npm run --silent app:build && cargo build -p novel-cli &&
//      xvfb-run -a --server-args="-screen 0 1400x900x24" node tests/e2e/showcase/codex-screenshots.mjs
import { setTimeout as sleep } from "node:timers/promises";
import { shoot } from "./shoot.mjs";
import { writeShowcaseNovel, openShowcaseNovel } from "./novel.mjs";
import { click, byTestId } from "../support/app.mjs";

const { server, config } = await writeShowcaseNovel({ scenes: 5 });
const app = await openShowcaseNovel(config);
const b = app.browser;
try {
  await (await byTestId(b, "toast")).waitForExist({ reverse: true, timeout: 10000 }); // the "Opened" toast gone
  await click(b, "nav-manuscript");
  const second = await b.$('[data-testid="scene"][data-tick="2"]');
  await second.waitForExist();
  // Scene 2 at the top, with "Add a scene here" above it in view.
  await b.execute(() => {
    const scene = document.querySelector('[data-testid="scene"][data-tick="2"]');
    scene.scrollIntoView({ block: "start" });
    let box = scene.parentElement;
    while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement;
    box?.scrollBy(0, -110);
  });
  await (await second.$('[data-testid="scene-menu"]')).click();
  await sleep(500);
  shoot("manuscript-shape");
  await b.keys(["Escape"]);
  await click(b, "nav-bible");
  await click(b, "bible-tab-lore");
  const tamsin = await b.$('[data-testid="codex-item"][data-id="C0"]');
  await tamsin.waitForExist();
  await tamsin.click();
  await (await byTestId(b, "codex-page")).waitForExist();
  await sleep(800);
  shoot("codex");
} finally {
  await app.close();
  await server.stop();
}
