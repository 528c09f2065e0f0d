// Vite build of the desktop UI: ui/ → ui/dist (embedded by `tauri build`), dev server on 5173.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { cytoscapeFrozenPrototype } from "./build/frozenPrototype.ts";

export default defineConfig({
  root: new URL(".", import.meta.url).pathname,
  base: "./",
  plugins: [react(), cytoscapeFrozenPrototype()],
  define: { __TEST_HOOKS__: "false" },
  clearScreen: false,
  server: { port: 5173, strictPort: true },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Cytoscape alone is ~400 kB; it is loaded lazily with the Graph view.
    chunkSizeWarningLimit: 1000,
  },
});
