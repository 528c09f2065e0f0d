// Measures the real desktop app (debug build, WebKitGTK under Xvfb, driven by tauri-driver and
// WebdriverIO exactly as tests/e2e does): cold start to first paint, idle memory with no novel
// and with a 300-scene novel open, first streamed token to first word on screen, and frame
// times scrolling the reader and panning the graph. Not a test: it prints a table for
// BENCHMARKS.md ("The desktop app").
//
//   npm run bench:app            (xvfb-run -a node tests/bench/app_metrics.mjs)
//
// Needs the built app and test server (CARGO_TARGET_DIR/debug/{novel-agent,novel-test-server};
// NOVEL_AGENT_APP measures another build of the app, e.g. target/release/novel-agent) and the
// make_novel example (cargo build -p novel-core --example make_novel), whose path is
// BENCH_MAKE_NOVEL or the usual target dir. BENCH_RUNS (default 3) sets the runs per figure.
// The long novel has 300 scenes and a 300-node graph (its cast topped up by synthetic::crowd).
/* global window, document, MutationObserver, requestAnimationFrame, MouseEvent */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { byTestId, click, launchApp, waitForText } from "../e2e/support/app.mjs";
import { EXTRACTION, PLAN, ROOT, fixture, providerConfig, startServer, storyScript } from "../e2e/support/server.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET = process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target");
const MAKE_NOVEL = process.env.BENCH_MAKE_NOVEL ?? path.join(TARGET, "debug/examples/make_novel");
const SCENES = 300;
/** Characters plus places in the long novel's graph (the generated cast topped up with a crowd). */
const NODES = 300;
const temps = [];

/** Milliseconds since the epoch on this machine's clock, as the page's timeOrigin + now() is. */
const now = () => performance.timeOrigin + performance.now();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const fmt = (x, d = 1) => (x === undefined || Number.isNaN(x) ? "n/a" : x.toFixed(d));
const tmp = (prefix) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

// ---- processes -----------------------------------------------------------------------------

function stat(pid) {
  const raw = readFileSync(`/proc/${pid}/stat`, "utf8");
  const rest = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
  return { comm: raw.slice(raw.indexOf("(") + 1, raw.lastIndexOf(")")), ppid: Number(rest[1]), start: Number(rest[19]) };
}

function allPids() {
  return readdirSync("/proc").filter((e) => /^\d+$/.test(e)).map(Number);
}

/** The app process of this bench's current launch (app.mjs marks it with NOVEL_E2E_LAUNCH). */
function appPid() {
  const mark = `NOVEL_E2E_LAUNCH=${process.pid}-`;
  for (const pid of allPids()) {
    try {
      if (stat(pid).comm !== "novel-agent") continue;
      if (readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").some((v) => v.startsWith(mark))) return pid;
    } catch {
      // gone, or not ours
    }
  }
  throw new Error("app process not found");
}

function descendants(root) {
  const kids = new Map();
  for (const pid of allPids()) {
    try {
      const { ppid } = stat(pid);
      kids.set(ppid, [...(kids.get(ppid) ?? []), pid]);
    } catch {
      // exited
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]) ?? []));
  return out;
}

/** RSS and PSS (MB) of the app and every process under it (WebKit's web and network processes). */
function memory(root) {
  const rows = [];
  for (const pid of descendants(root)) {
    try {
      const kb = (file, key) => Number(readFileSync(`/proc/${pid}/${file}`, "utf8").match(new RegExp(`^${key}:\\s+(\\d+)`, "m"))?.[1] ?? 0);
      rows.push({ pid, comm: stat(pid).comm, rss: kb("status", "VmRSS") / 1024, pss: kb("smaps_rollup", "Pss") / 1024 });
    } catch {
      // exited
    }
  }
  const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
  return { rows, rss: sum("rss"), pss: sum("pss") };
}

/** When `pid` started, in epoch ms (jiffies since boot, placed with /proc/uptime: ±10 ms). */
function startedAt(pid) {
  const hz = Number(execFileSync("getconf", ["CLK_TCK"]).toString());
  const uptime = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]);
  const t = now();
  return t - (uptime - stat(pid).start / hz) * 1000;
}

// ---- page helpers --------------------------------------------------------------------------

async function waitVisible(browser, id, timeout = 30000) {
  const el = await byTestId(browser, id);
  await el.waitForDisplayed({ timeout, interval: 20 });
}

function recentConfig(baseDir, novelDir) {
  writeFileSync(
    path.join(baseDir, "recent.json"),
    JSON.stringify([{ path: novelDir, title: "Generated", opened_at: "2026-11-23T00:00:00Z", missing: false }]),
  );
}

/** requestAnimationFrame deltas while the page moves once a frame for `ms`: `kind` is "book"
 *  (the reader top to bottom), "reading" (the reader at 1,500 px/s from the middle) or "pan"
 *  (a mouse drag on the graph canvas) or "still" (nothing moves: the floor this display gives). Written in the page function itself: the app's CSP
 *  forbids evaluating strings. */
function frames(browser, ms, kind) {
  return browser.executeAsync(
    (ms, kind, done) => {
      const reader = document.querySelector("[data-testid=reader]");
      const canvas = document.querySelector("[data-testid=graph-canvas]");
      const from = reader ? Math.round(reader.scrollHeight / 2) : 0;
      const mouse = (type, target, t) => {
        // cytoscape takes mousedown on its container and mousemove/mouseup on the window.
        const b = canvas.getBoundingClientRect();
        const at = { clientX: b.left + 156 + Math.round(Math.sin(t * Math.PI * 4) * 150), clientY: b.top + 6 + Math.round(t * 40), bubbles: true, button: 0, buttons: 1 };
        target.dispatchEvent(new MouseEvent(type, at));
      };
      const step = (t, first) => {
        if (kind === "still") return;
        if (kind === "book") reader.scrollTop = Math.round((reader.scrollHeight - reader.clientHeight) * t);
        else if (kind === "reading") reader.scrollTop = from + Math.round(15000 * t);
        else {
          if (first) mouse("mousedown", canvas.querySelector("canvas:last-of-type") ?? canvas, t);
          mouse("mousemove", window, t);
          if (t >= 1) mouse("mouseup", window, t);
        }
      };
      const deltas = [];
      let start, last;
      const tick = (ts) => {
        const first = start === undefined;
        if (first) start = last = ts;
        else {
          deltas.push(ts - last);
          last = ts;
        }
        const t = Math.min(1, (ts - start) / ms);
        step(t, first);
        if (t < 1) requestAnimationFrame(tick);
        else done(deltas);
      };
      requestAnimationFrame(tick);
    },
    ms,
    kind,
  );
}

function frameStats(deltas) {
  return { n: deltas.length, p50: pct(deltas, 50), p95: pct(deltas, 95), max: Math.max(...deltas), dropped: deltas.filter((d) => d > 50).length };
}

// ---- the measurements ------------------------------------------------------------------------

/** One cold start with no novel: times to first paint, then memory after 5 s idle. */
async function coldStart() {
  const config = tmp("novel-bench-config-");
  const called = now();
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: config });
  try {
    const sessionUp = now();
    await waitVisible(app.browser, "new-novel");
    const seen = now();
    const pid = appPid();
    const spawned = startedAt(pid);
    const page = await app.browser.execute(() => ({
      origin: performance.timeOrigin,
      fcp: performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint")?.startTime,
      fp: performance.getEntriesByType("paint").find((e) => e.name === "first-paint")?.startTime,
      dcl: performance.getEntriesByType("navigation")[0]?.domContentLoadedEventEnd,
    }));
    await sleep(5000);
    const mem = memory(pid);
    return {
      spawnToSeen: seen - spawned,
      spawnToOrigin: page.origin - spawned,
      originToFcp: page.fcp,
      spawnToFcp: page.fcp === undefined ? undefined : page.origin + page.fcp - spawned,
      spawnToDcl: page.dcl === undefined ? undefined : page.origin + page.dcl - spawned,
      launchToSeen: seen - called,
      sessionToSeen: seen - sessionUp,
      mem,
    };
  } finally {
    await app.close();
  }
}

/** The 300-scene novel opened from the Library: memory in the reader, reader scroll and graph pan. */
async function longNovel(novelDir) {
  const config = tmp("novel-bench-config-");
  recentConfig(config, novelDir);
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: config });
  const { browser } = app;
  try {
    await waitVisible(browser, "recent-item", 60000);
    await click(browser, "recent-item");
    await waitVisible(browser, "novel-title", 60000);
    // Opening a novel lands in the Write view; go to the reader once it has.
    await waitVisible(browser, "next-scene", 60000);
    await click(browser, "nav-manuscript");
    await waitVisible(browser, "reader", 60000);
    await browser.waitUntil(
      () => browser.execute(() => document.querySelector("[data-testid=reader]").scrollHeight > 20000),
      { timeout: 60000, timeoutMsg: "the reader never filled" },
    );
    await sleep(5000);
    const mem = memory(appPid());
    const reader = await browser.execute(() => {
      const r = document.querySelector("[data-testid=reader]");
      return { height: r.scrollHeight, view: r.clientHeight, words: (r.textContent ?? "").split(/\s+/).length };
    });
    // The whole book top to bottom in 20 s (a fast flick: every frame paints new text), then
    // 10 s at a reading pace (1,500 px/s) from the middle.
    const still = [frameStats(await frames(browser, 3000, "still"))];
    const scrolls = [
      frameStats(
        await frames(browser, 20000, "book"),
      ),
    ];
    const reading = [
      frameStats(
        await frames(browser, 10000, "reading"),
      ),
    ];
    await click(browser, "nav-graph");
    await waitVisible(browser, "graph-canvas", 60000);
    await sleep(8000); // the layout settles
    const counts = await (await byTestId(browser, "graph-counts")).getProperty("textContent");
    const pans = [];
    {
      // A drag on the empty canvas, as a mouse would make it: cytoscape listens for mousedown on
      // its container and mousemove/mouseup on the window, and pans the viewport.
      pans.push(
        frameStats(
          await frames(browser, 5000, "pan"),
        ),
      );
      // A drag that caught a node would have moved it, and the view keeps moved positions:
      // none kept means the drag panned the view.
      const moved = await browser.execute(() => Object.keys(window.localStorage).filter((k) => k.startsWith("novel-agent.graph-positions:")).length);
      if (moved > 0) throw new Error("the pan drag moved a node instead of the view: move its start point");
    }
    return { mem, reader, still, scrolls, reading, pans, counts };
  } catch (e) {
    console.error(`the page when it failed:\n${await browser.execute(() => document.body.innerText).catch(() => "(gone)")}`);
    throw e;
  } finally {
    await app.close();
  }
}

/** A node proxy in front of the test server that notes when the writer's first prose token
 *  leaves for the app (the writer's request is the one that is neither plan nor extraction). */
async function tokenProxy(baseUrl) {
  const upstream = new URL(baseUrl);
  const sent = [];
  const server = http.createServer((req, res) => {
    const body = [];
    req.on("data", (c) => body.push(c));
    req.on("end", () => {
      const text = Buffer.concat(body).toString("utf8");
      const writer = !text.includes(EXTRACTION) && !text.includes(PLAN);
      const up = http.request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (upRes) => {
          res.writeHead(upRes.statusCode, upRes.headers);
          let first = !writer;
          upRes.on("data", (chunk) => {
            if (!first && /"content":"[^"]/.test(chunk.toString("utf8"))) {
              first = true;
              sent.push(now());
            }
            res.write(chunk);
          });
          upRes.on("end", () => res.end());
        },
      );
      up.end(text);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}${upstream.pathname}`, sent, close: () => server.close() };
}

/** Ticks in a small generated novel; each: server sends first prose token → first word in live-prose. */
async function firstToken(smallNovel) {
  // The writer waits 1.5 s before its first token, so the page is idle when it arrives.
  const prose = { type: "delay", ms: 1500, then: { type: "text", content: fixture("prose.txt"), chunk_delay_ms: 15 } };
  const server = await startServer(storyScript({ writer: [prose] }));
  const proxy = await tokenProxy(server.baseUrl);
  const config = providerConfig(proxy.url);
  temps.push(config);
  recentConfig(config, smallNovel);
  const app = await launchApp({ NOVEL_AGENT_CONFIG_DIR: config });
  const { browser } = app;
  const gaps = [];
  try {
    await waitVisible(browser, "recent-item", 60000);
    await click(browser, "recent-item");
    await waitVisible(browser, "novel-title", 60000);
    for (let i = 0; i < RUNS; i++) {
      await click(browser, "nav-write");
      await browser.execute(() => {
        window.__firstWord = undefined;
        const seen = () => {
          const el = document.querySelector("[data-testid=live-prose]");
          if (window.__firstWord === undefined && el && (el.textContent ?? "").trim() !== "") {
            window.__firstWord = performance.timeOrigin + performance.now();
            window.__firstWordObserver.disconnect();
          }
        };
        window.__firstWordObserver?.disconnect();
        window.__firstWordObserver = new MutationObserver(seen);
        window.__firstWordObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      const before = proxy.sent.length;
      await click(browser, "next-scene");
      await waitForText(browser, "committed-scene", (t) => t.trim().length > 0, 90000);
      const shown = await browser.execute(() => window.__firstWord);
      if (proxy.sent.length !== before + 1 || shown === undefined) throw new Error("no first token seen on one side");
      gaps.push(shown - proxy.sent[before]);
      // The committed scene replaces the live view; the next run starts from a fresh Write view.
      await click(browser, "nav-library");
    }
  } finally {
    await app.close();
    proxy.close();
    await server.stop();
  }
  return gaps;
}

// ---- main ------------------------------------------------------------------------------------

const load = [loadavg()];
const novelDir = path.join(tmp("novel-bench-novel-"), "novel");
if (!existsSync(MAKE_NOVEL)) throw new Error(`${MAKE_NOVEL} missing: cargo build -p novel-core --example make_novel`);
execFileSync(MAKE_NOVEL, [novelDir, String(SCENES), String(NODES)], { stdio: "inherit" });
const smallNovel = path.join(tmp("novel-bench-novel-"), "novel");
execFileSync(MAKE_NOVEL, [smallNovel, "3"], { stdio: "inherit" });

try {
  const only = process.env.BENCH_ONLY; // debugging: "start", "token" or "long"
  const starts = [];
  for (let i = 0; i < RUNS && (!only || only === "start"); i++) starts.push(await coldStart());
  if (only === "start") console.log(JSON.stringify(starts, null, 1));
  load.push(loadavg());
  const gaps = !only || only === "token" ? await firstToken(smallNovel) : [];
  if (only === "token") console.log(gaps);
  load.push(loadavg());
  const longs = [];
  for (let i = 0; i < RUNS && (!only || only === "long"); i++) longs.push(await longNovel(novelDir));
  if (only) {
    console.log(JSON.stringify(longs.map((l) => ({ ...l, mem: { rss: l.mem.rss, pss: l.mem.pss } }))));
    process.exit(0);
  }
  load.push(loadavg());

  const m = (f) => median(starts.map(f).filter((x) => x !== undefined));
  const all = (f) => starts.map(f).map((x) => fmt(x, 0)).join(", ");
  console.log(`\nruns per figure: ${RUNS}; load average (1 min) at start and after each part: ${load.map((l) => l[0].toFixed(2)).join(", ")}`);
  console.log("\n| what | median | runs |");
  console.log("|---|---:|---|");
  console.log(`| app process start → Library seen by WebDriver poll (outside) | ${fmt(m((s) => s.spawnToSeen), 0)} ms | ${all((s) => s.spawnToSeen)} |`);
  console.log(`| app process start → first contentful paint (inside: timeOrigin + paint entry) | ${fmt(m((s) => s.spawnToFcp), 0)} ms | ${all((s) => s.spawnToFcp)} |`);
  console.log(`| of which process start → page timeOrigin (Rust, GTK, WebKit processes) | ${fmt(m((s) => s.spawnToOrigin), 0)} ms | ${all((s) => s.spawnToOrigin)} |`);
  console.log(`| of which timeOrigin → first contentful paint | ${fmt(m((s) => s.originToFcp), 0)} ms | ${all((s) => s.originToFcp)} |`);
  console.log(`| process start → DOMContentLoaded | ${fmt(m((s) => s.spawnToDcl), 0)} ms | ${all((s) => s.spawnToDcl)} |`);
  console.log(`| launchApp called (tauri-driver + WebDriver session) → Library seen | ${fmt(m((s) => s.launchToSeen), 0)} ms | ${all((s) => s.launchToSeen)} |`);
  console.log(`| idle 5 s, no novel: RSS sum (app + WebKit processes) | ${fmt(m((s) => s.mem.rss))} MB | ${starts.map((s) => fmt(s.mem.rss)).join(", ")} |`);
  console.log(`| idle 5 s, no novel: PSS sum | ${fmt(m((s) => s.mem.pss))} MB | ${starts.map((s) => fmt(s.mem.pss)).join(", ")} |`);
  const lm = (f) => median(longs.map(f));
  console.log(`| ${SCENES}-scene novel open in the reader, 5 s idle: RSS sum | ${fmt(lm((l) => l.mem.rss))} MB | ${longs.map((l) => fmt(l.mem.rss)).join(", ")} |`);
  console.log(`| ${SCENES}-scene novel open in the reader, 5 s idle: PSS sum | ${fmt(lm((l) => l.mem.pss))} MB | ${longs.map((l) => fmt(l.mem.pss)).join(", ")} |`);
  console.log(`| first prose token sent → first word on screen | ${fmt(median(gaps))} ms | ${gaps.map((g) => fmt(g)).join(", ")} |`);
  const fr = (key) => {
    const runs = longs.flatMap((l) => l[key]);
    return `p50 ${fmt(median(runs.map((r) => r.p50)))} / p95 ${fmt(median(runs.map((r) => r.p95)))} / max ${fmt(median(runs.map((r) => r.max)))} ms, frames > 50 ms: ${median(runs.map((r) => r.dropped))} of ${median(runs.map((r) => r.n))}`;
  };
  console.log(`| reader, ${SCENES} scenes: frame times for 3 s with nothing moving (the floor) | ${fr("still")} | ${longs.flatMap((l) => l.still).length} runs |`);
  console.log(`| reader, ${SCENES} scenes: frame times scrolling the whole book in 20 s | ${fr("scrolls")} | ${longs.flatMap((l) => l.scrolls).length} scrolls |`);
  console.log(`| reader, ${SCENES} scenes: frame times scrolling 10 s at 1,500 px/s (reading pace) | ${fr("reading")} | ${longs.flatMap((l) => l.reading).length} scrolls |`);
  console.log(`| graph (${longs[0].counts.trim()}): frame times panning for 5 s | ${fr("pans")} | ${longs.flatMap((l) => l.pans).length} pans |`);
  console.log(`\nreader: ${JSON.stringify(longs[0].reader)}`);
  console.log(`processes (last cold start): ${starts.at(-1).mem.rows.map((r) => `${r.comm} ${fmt(r.rss)}/${fmt(r.pss)} MB`).join("; ")}`);
  console.log(`processes (last long novel): ${longs.at(-1).mem.rows.map((r) => `${r.comm} ${fmt(r.rss)}/${fmt(r.pss)} MB`).join("; ")}`);
  console.log(`per-run frames: ${JSON.stringify(longs.map((l) => ({ still: l.still, scrolls: l.scrolls, reading: l.reading, pans: l.pans })))}`);
} finally {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
}
