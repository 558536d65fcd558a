// One entry per runtime (see docs/architecture.md): the engine library (ESM and CJS, plus type declarations), the
// extension host (CJS, vscode external), the runner child process (node), and the panel's webview (browser).
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { cpSync, existsSync } from "node:fs";
import path from "node:path";
import { webviewBuildOptions } from "./tools/webview-bundle.mjs";

const require = createRequire(import.meta.url);
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  // The PRNG is the engine's one runtime dependency; keep it external so users dedupe it. st.fromRegex's regex
  // parser (@eslint-community/regexpp) is bundled instead: no second dependency for a user to install, and no
  // slower to load (docs/architecture.md, "Strategies", has the figures).
  external: ["pure-rand", "pure-rand/*"],
};

const importMetaUrlFromFilename = {
  define: { "import.meta.url": "__shrinkscopeModuleUrl" },
  banner: { js: 'var __shrinkscopeModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
};

// An integration entry (shrinkscope/json-schema, shrinkscope/zod, shrinkscope/fc) reaches the engine through its room's door,
// engine.ts: bundled as the package itself, so the user's property and the integration's strategies share one engine.
// test.prop's room (shrinkscope/vitest, shrinkscope/jest) reaches shrinkscope/fc the same way.
const DOORS = new Map([
  [path.resolve("src/engine/schemas/engine.ts"), "shrinkscope"],
  [path.resolve("src/engine/fc/engine.ts"), "shrinkscope"],
  [path.resolve("src/engine/testProp/fc.ts"), "shrinkscope/fc"],
]);
const engineDoorIsThePackage = {
  name: "engine-door-is-the-package",
  setup(b) {
    b.onResolve({ filter: /\/(engine|fc)\.ts$/ }, (args) => {
      const to = DOORS.get(path.resolve(args.resolveDir, args.path));
      return to === undefined ? undefined : { path: to, external: true };
    });
  },
};
const integration = (entry, name, external = []) => [
  build({
    ...common,
    entryPoints: [entry],
    format: "esm",
    outfile: `dist/${name}.mjs`,
    external: [...common.external, ...external],
    plugins: [engineDoorIsThePackage],
  }),
  build({
    ...common,
    entryPoints: [entry],
    format: "cjs",
    outfile: `dist/${name}.cjs`,
    external: [...common.external, ...external],
    plugins: [engineDoorIsThePackage],
  }),
];

await Promise.all([
  build({ ...common, entryPoints: ["src/engine/index.ts"], format: "esm", outfile: "dist/engine.mjs" }),
  ...integration("src/engine/jsonSchema.ts", "json-schema"),
  ...integration("src/engine/zod.ts", "zod"),
  ...integration("src/engine/fc.ts", "fc"),
  // test.prop on the project's own vitest and jest (peers, never bundled).
  ...integration("src/engine/vitest.ts", "vitest", ["vitest"]),
  ...integration("src/engine/jest.ts", "jest", ["@jest/globals"]),
  // (CommonJS has no import.meta: the engine's one use, finding packages beside itself (databases/redis/client.ts), gets
  // __filename's URL; so do the runner and the tap, which reach that module through the engine's internals.)
  build({
    ...common,
    entryPoints: ["src/engine/index.ts"],
    format: "cjs",
    outfile: "dist/engine.cjs",
    ...importMetaUrlFromFilename,
  }),
  existsSync("src/extension/extension.ts") &&
    build({
      ...common,
      entryPoints: ["src/extension/extension.ts"],
      format: "cjs",
      outfile: "dist/extension.js",
      external: ["vscode"],
      minify: true,
      ...importMetaUrlFromFilename,
    }),
  // The runner child process: esbuild-wasm stays external (it locates its .wasm and service script on disk).
  build({
    ...common,
    entryPoints: ["src/runner/main.ts"],
    format: "cjs",
    outfile: "dist/runner.js",
    external: [...common.external, "esbuild-wasm"],
    ...importMetaUrlFromFilename,
  }),
  // The tap the engine loads inside the user's own test runner (src/runner/tap.ts).
  build({
    ...common,
    entryPoints: ["src/runner/tap.ts"],
    format: "cjs",
    outfile: "dist/tap.cjs",
    ...importMetaUrlFromFilename,
  }),
  // A warm vitest and jest kept for many runs, through the project's own runner's Node API.
  build({ ...common, entryPoints: ["src/runner/vitestServer.ts"], format: "cjs", outfile: "dist/vitest-server.cjs" }),
  build({ ...common, entryPoints: ["src/runner/jestServer.ts"], format: "cjs", outfile: "dist/jest-server.cjs" }),
  build({ ...common, ...(await webviewBuildOptions()), outfile: "dist/webview.js" }),
]);

// The runner bundles users' test files with esbuild-wasm (portable: one .vsix for every platform). It is a
// devDependency of the library, so the build puts a copy next to dist/runner.js, where the runner resolves it
// first and where the .vsix picks it up (.vscodeignore).
// The bundled engine's PRNG goes there too, so the .vsix needs no node_modules of its own.
for (const name of ["esbuild-wasm", "pure-rand"]) {
  const from = path.dirname(require.resolve(`${name}/package.json`));
  cpSync(from, `dist/node_modules/${name}`, {
    recursive: true,
    filter: (src) => !src.endsWith(".d.ts") && !src.endsWith(".d.cts") && !src.endsWith(".d.mts"),
  });
}

execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
  stdio: "inherit",
});
