// Test-only build: the real app behind a mocked IPC (see main.ts), with test hooks on.
// The output folder comes from HARNESS_OUT (set by ui/tests/support/harness.mjs).
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { cytoscapeFrozenPrototype } from "../../build/frozenPrototype.ts";

export default defineConfig({
  root: new URL(".", import.meta.url).pathname,
  base: "./",
  plugins: [react(), cytoscapeFrozenPrototype()],
  define: { __TEST_HOOKS__: "true" },
  logLevel: "warn",
  build: {
    outDir: process.env.HARNESS_OUT ?? "dist",
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 2000,
  },
});
