// A vitest project as its users write one: the features below are what the bundled runner could not honour
// (issue #12), and test/cart.test.ts fails the way it does only when every one of them is in effect.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@app": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./test/setup.ts"],
    include: ["test/**/*.test.ts"],
    // A property runs many cases in one test: vitest's 5 s default is for a single example.
    testTimeout: 60_000,
  },
});
