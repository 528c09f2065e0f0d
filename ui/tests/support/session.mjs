// One browser, one server and one page for the whole UI suite (they cost more than most
// tests): created on first use, closed when the run ends.
import { after } from "node:test";
import { setup } from "./harness.mjs";

let pending = null;

export function env() {
  pending ??= setup();
  return pending;
}

after(async () => {
  if (pending) await (await pending).close();
});
