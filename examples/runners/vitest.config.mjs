// Vitest config for examples/runners only: root is this folder, so the repo's other tests are never collected.
// Used by test/test-runners/runners.test.ts: node node_modules/vitest/vitest.mjs run --config examples/runners/vitest.config.mjs
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  // Keep vite's cache in the project's node_modules, not in a new examples/runners/node_modules.
  cacheDir: fileURLToPath(new URL("../../node_modules/.vite", import.meta.url)),
  test: {
    include: ["vitest.test.mjs"],
    environment: "node",
  },
});
