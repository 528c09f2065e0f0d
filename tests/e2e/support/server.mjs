// The OpenAI-format test server (crates/novel-test-server) as a child process for the
// end-to-end tests: scripted with the story fixtures, so the real app talks real HTTP + SSE.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
const FIXTURES = path.join(ROOT, "crates/novel-cli/tests/fixtures/story");
const BIN = path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "debug/novel-test-server");

/** Requests are told apart by keys only their JSON schema has (see crates/novel-cli/tests). */
export const EXTRACTION = "loops_resolved";
export const PLAN = "expected_outcomes";

export function fixture(name) {
  return readFileSync(path.join(FIXTURES, name), "utf8");
}

function replies(name) {
  return JSON.parse(fixture(name)).map((v) => ({ type: "text", content: JSON.stringify(v) }));
}

/** A script whose writer replies are `writer` (default: the fixture prose, streamed slowly). */
export function storyScript({ writer } = {}) {
  const prose = { type: "text", content: fixture("prose.txt"), chunk_delay_ms: 15 };
  return {
    rules: [
      { when_contains: EXTRACTION, replies: replies("extractions.json") },
      { when_contains: PLAN, replies: replies("plans.json") },
      { replies: writer ?? [prose] },
    ],
  };
}

/** Starts the server; resolves to { baseUrl, stop }. */
export async function startServer(script) {
  const dir = mkdtempSync(path.join(tmpdir(), "novel-e2e-server-"));
  const file = path.join(dir, "script.json");
  writeFileSync(file, JSON.stringify(script));
  const child = spawn(BIN, ["--script", file], { stdio: ["ignore", "pipe", "ignore"] });
  let out = "";
  child.stdout.setEncoding("utf8");
  const baseUrl = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/listening (\S+)/);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`novel-test-server exited with ${code}: is it built? (${BIN})`)));
    // A missing binary fails the spawn itself ("error", never "exit").
    child.on("error", (e) => reject(new Error(`cannot start novel-test-server (${BIN}): ${e.message}; build it with \`cargo build -p novel-test-server\``)));
  });
  return {
    baseUrl,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    },
  };
}

/** A config dir whose only provider profile points at `baseUrl`, with fast retries. The
 *  profile is marked as reached by a connection test (what the server accepts is recorded), so
 *  the New novel form trusts it instead of spending one of the script's replies on a test. */
export function providerConfig(baseUrl, { maxRetries = 0 } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "novel-e2e-config-"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "providers.toml"),
    `default_profile = "test"\n\n[[profile]]\nname = "test"\nkind = "openai-compatible"\nbase_url = "${baseUrl}"\nmodel = "test-model"\nmax_retries = ${maxRetries}\nretry_base_delay_ms = 10\ntimeout_secs = 20\n\n[profile.capabilities]\njson_schema = true\njson_object = true\ntemperature = true\n`,
  );
  return dir;
}
