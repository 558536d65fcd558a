// Vitest config for examples/profiles: setup.mjs runs before the tests (test/test-runners/profiles.test.ts).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  cacheDir: fileURLToPath(new URL("../../node_modules/.vite", import.meta.url)),
  test: {
    include: ["vitest.test.mjs"],
    environment: "node",
    setupFiles: ["./setup.mjs"],
  },
});
