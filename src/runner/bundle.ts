/**
 * Compile the user's test file (TS or JS, ESM or CJS) into one CommonJS bundle in memory, with esbuild-wasm.
 *
 * - esbuild-wasm, not the native esbuild: the extension ships one portable package for every platform.
 *   Its Node API runs the wasm in a service process started with the command "node" from PATH, which may be
 *   absent (or another Node) where VS Code runs; that spawn is redirected to this process's own executable.
 * - Test-framework imports (node:test, vitest, @jest/globals, mocha, bun:test) become a virtual module that
 *   reads the runner's shim (shim.ts) from a global, so no test runner needs to be installed.
 * - Packages stay external and are required at run time from the test file's node_modules chain, exactly as
 *   the user's own runner would; what resolves outside node_modules (tsconfig `paths` aliases, linked
 *   workspace sources) is bundled, since Node could not load those .ts files itself. `shrinkscope` is always
 *   external: main.ts points it at the workspace's copy or the bundled engine.
 * - `import.meta.url|filename|dirname` are replaced by the original file's values (the bundle is CJS, where
 *   import.meta is empty), so ESM tests that locate fixtures next to themselves keep working.
 * - The source map is inline and its paths are relative to the test file's folder, where main.ts compiles
 *   the bundle as if it were the test file itself: stack traces then name the original files and lines.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type * as Esbuild from "esbuild-wasm";
import type { CompileError } from "../shared/protocol.ts";

export type EsbuildApi = typeof Esbuild;

/** Global through which the virtual framework modules reach the shim (see shim.ts). */
export const SHIM_KEY = "shrinkscope.runner.shim";

/** Import specifier → which framework's API the shim module presents. */
export const FRAMEWORK_MODULES: Readonly<Record<string, string>> = {
  "node:test": "node-test",
  vitest: "vitest",
  "@jest/globals": "jest",
  "bun:test": "jest",
  mocha: "mocha",
};

let service: Promise<EsbuildApi> | undefined;

/**
 * Start esbuild once per process (call it at startup: the wasm service's cold start is most of the time to
 * the first test case) and run one tiny build, so the Go runtime is warm when the real request arrives.
 */
export function startBundler(): Promise<EsbuildApi> {
  service ??= (async () => {
    const req = createRequire(__filename);
    const esbuild = req(req.resolve("esbuild-wasm", { paths: [__dirname, path.join(__dirname, "..")] })) as EsbuildApi;
    try {
      // Liftoff only: a short-lived service gains nothing from V8's optimising wasm tier, whose background
      // compilation roughly doubles start-up on a busy 2-core machine (measured: ~230 ms vs ~400 ms).
      await startService(esbuild, ["--liftoff-only"]);
    } catch {
      await esbuild.stop(); // a V8 without that flag: start plainly
      await startService(esbuild, []);
    }
    return esbuild;
  })();
  return service;
}

async function startService(esbuild: EsbuildApi, v8Flags: readonly string[]): Promise<void> {
  const cp = require("node:child_process") as typeof import("node:child_process");
  const spawn = cp.spawn;
  cp.spawn = ((command: string, args: readonly string[], ...rest: unknown[]) =>
    command === "node"
      ? (spawn as (...a: unknown[]) => unknown)(process.execPath, [...v8Flags, ...args], ...rest)
      : (spawn as (...a: unknown[]) => unknown)(command, args, ...rest)) as typeof cp.spawn;
  try {
    await esbuild.initialize({}); // spawns the service synchronously
  } finally {
    cp.spawn = spawn;
  }
  await esbuild.build({
    stdin: { contents: "export const warm: number = 1;", loader: "ts" },
    write: false,
    logLevel: "silent",
  });
}

export type BundleResult =
  { readonly ok: true; readonly code: string } | { readonly ok: false; readonly errors: readonly CompileError[] };

export async function bundleTestFile(esbuild: EsbuildApi, file: string, workspaceRoot: string): Promise<BundleResult> {
  try {
    const result = await esbuild.build({
      entryPoints: [file],
      absWorkingDir: workspaceRoot,
      bundle: true,
      write: false,
      format: "cjs",
      platform: "node",
      target: `node${process.versions.node}`,
      sourcemap: "inline",
      sourcesContent: false,
      // Never written (write: false); it only makes the source map's paths relative to the test's folder.
      outfile: path.join(path.dirname(file), "__shrinkscope_bundle__.js"),
      keepNames: true,
      logLevel: "silent",
      plugins: [frameworkShim(), workspaceExternals(), importMeta()],
    });
    return { ok: true, code: result.outputFiles[0].text };
  } catch (e) {
    const errors = (e as { errors?: Esbuild.Message[] }).errors;
    if (!Array.isArray(errors)) throw e;
    return { ok: false, errors: errors.map((m) => toCompileError(m, workspaceRoot)) };
  }
}

function toCompileError(m: Esbuild.Message, workspaceRoot: string): CompileError {
  const loc = m.location;
  // esbuild's advice about its own options ("mark the path as external") means nothing to the user.
  const notes = m.notes.map((n) => n.text).filter((n) => !/as external/.test(n));
  let text = notes.length > 0 ? `${m.text} (${notes.join("; ")})` : m.text;
  if (/^Could not resolve "[^./]/.test(m.text)) text += " — is it installed in the workspace's node_modules?";
  if (/top-level await/i.test(m.text))
    text += " — the runner loads test files as CommonJS: move the await into a beforeAll hook or the test";
  if (loc === null) return { message: text, location: undefined };
  // esbuild counts columns in UTF-8 bytes; editors count UTF-16 code units.
  const column = Buffer.from(loc.lineText, "utf8").subarray(0, loc.column).toString("utf8").length;
  return {
    message: text,
    location: { file: path.resolve(workspaceRoot, loc.file), line: loc.line, column: column + 1 },
  };
}

function frameworkShim(): Esbuild.Plugin {
  const names = Object.keys(FRAMEWORK_MODULES).map((n) => n.replace(/[/\\^$*+?.()|[\]{}]/g, "\\$&"));
  return {
    name: "shrinkscope-framework-shim",
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, (args) => ({
        path: args.path,
        namespace: "shrinkscope-shim",
      }));
      build.onLoad({ filter: /.*/, namespace: "shrinkscope-shim" }, (args) => ({
        contents: `module.exports = globalThis[Symbol.for(${JSON.stringify(SHIM_KEY)})](${JSON.stringify(FRAMEWORK_MODULES[args.path])});`,
        loader: "js",
      }));
    },
  };
}

const INNER = { shrinkscopeInner: true };

function workspaceExternals(): Esbuild.Plugin {
  return {
    name: "shrinkscope-workspace-externals",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === INNER || args.kind === "entry-point" || path.isAbsolute(args.path)) return undefined;
        if (args.path === "shrinkscope" || args.path.startsWith("shrinkscope/"))
          return { path: args.path, external: true };
        const r = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: INNER,
          with: args.with,
        });
        // Unresolvable: let esbuild report "Could not resolve" at the import — a diagnostic at the right line.
        if (r.errors.length > 0) return undefined;
        if (r.external || /[\\/]node_modules[\\/]/.test(r.path)) return { path: args.path, external: true };
        return { path: r.path, namespace: r.namespace, sideEffects: r.sideEffects, suffix: r.suffix };
      });
    },
  };
}

const LOADERS: Readonly<Record<string, Esbuild.Loader>> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx",
};

function importMeta(): Esbuild.Plugin {
  return {
    name: "shrinkscope-import-meta",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        if (args.namespace !== "file" || /[\\/]node_modules[\\/]/.test(args.path)) return undefined;
        const source = await fs.promises.readFile(args.path, "utf8");
        if (!source.includes("import.meta")) return undefined;
        const values: Record<string, string> = {
          url: pathToFileURL(args.path).href,
          filename: args.path,
          dirname: path.dirname(args.path),
        };
        const contents = source.replace(/\bimport\.meta\.(url|filename|dirname)\b/g, (_, k: string) =>
          JSON.stringify(values[k]),
        );
        return { contents, loader: LOADERS[path.extname(args.path)] ?? "js", resolveDir: path.dirname(args.path) };
      });
    },
  };
}
