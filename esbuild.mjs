// One entry per runtime (see DESIGN.md). Today: the engine library, as ESM and CJS,
// plus its type declarations. The extension, runner and webview entries join here.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  // The PRNG is the engine's one runtime dependency; keep it external so users dedupe it.
  external: ["pure-rand", "pure-rand/*"],
};

await Promise.all([
  build({ ...common, entryPoints: ["src/engine/index.ts"], format: "esm", outfile: "dist/engine.mjs" }),
  build({ ...common, entryPoints: ["src/engine/index.ts"], format: "cjs", outfile: "dist/engine.cjs" }),
]);

execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
  stdio: "inherit",
});
