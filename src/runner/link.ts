/**
 * Wiring the compiled test file into this process: which `shrinkscope` it gets, the settings hook the engine
 * reads, and loading the bundle as if it were the test file itself.
 */
import * as fs from "node:fs";
import Module, { createRequire } from "node:module";
import * as path from "node:path";
import { RUNNER_HOOK, type EngineEvent, type RunnerHook, type RunSettings } from "../shared/protocol.ts";
import type { RunObserver } from "../engine/internals.ts";

export interface EngineChoice {
  /** The file `require("shrinkscope")` loads. */
  readonly path: string;
  readonly source: "workspace" | "bundled";
}

/**
 * The workspace's own shrinkscope when it has one (resolved from the test file, so a nested package's copy
 * wins; createRequire also covers the package requiring itself by name), else the engine shipped next to
 * the runner (dist/engine.cjs).
 */
export function chooseEngine(testFile: string, workspaceRoot: string, bundled: string): EngineChoice {
  for (const from of [testFile, path.join(workspaceRoot, "package.json")]) {
    try {
      return { path: createRequire(from).resolve("shrinkscope"), source: "workspace" };
    } catch {
      // not installed there
    }
  }
  if (!fs.existsSync(bundled))
    throw new Error(`no shrinkscope engine: the workspace has none and ${bundled} is missing`);
  return { path: bundled, source: "bundled" };
}

type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;

/** The integration entries shipped beside the bundled engine (the package's `shrinkscope/zod`, …). */
const BUNDLED_ENTRIES: Readonly<Record<string, string>> = {
  "shrinkscope/zod": "zod.cjs",
  "shrinkscope/json-schema": "json-schema.cjs",
  "shrinkscope/fc": "fc.cjs",
};

/**
 * Every `require("shrinkscope")` in this process — the user's file, its helpers — gets the chosen engine; with
 * the bundled one, `shrinkscope/zod`, `shrinkscope/json-schema` and `shrinkscope/fc` get the entries shipped beside it (which
 * require `shrinkscope`, so they draw with that same engine). A workspace's own copy resolves its entries itself.
 */
export function aliasShrinkscope(engine: EngineChoice): void {
  const M = Module as unknown as { _resolveFilename: ResolveFilename };
  const original = M._resolveFilename;
  M._resolveFilename = function (request, ...rest) {
    if (request === "shrinkscope") return engine.path;
    const entry = engine.source === "bundled" ? BUNDLED_ENTRIES[request] : undefined;
    return entry !== undefined ? path.join(path.dirname(engine.path), entry) : original.call(this, request, ...rest);
  };
}

/** The engine merges these over each property's own settings (see src/engine/property/runnerLayer.ts). */
export function installRunnerHook(
  settings: RunSettings,
  onEvent: (e: EngineEvent) => void,
  observer?: RunObserver,
): void {
  const hook: RunnerHook = {
    settings: { ...validSettings(settings), onEvent, ...(observer !== undefined ? { observer } : {}) },
  };
  (globalThis as Record<symbol, unknown>)[Symbol.for(RUNNER_HOOK)] = hook;
}

/**
 * The host's settings, each kept only when of the right type and range (the property's own applies otherwise):
 * they come over IPC or an environment variable, not from code the compiler checked.
 */
export function validSettings(settings: RunSettings): RunSettings {
  const s: { -readonly [K in keyof RunSettings]: RunSettings[K] } = {};
  if (Number.isInteger(settings.maxExamples) && (settings.maxExamples as number) > 0)
    s.maxExamples = settings.maxExamples;
  if (Number.isInteger(settings.stepCount) && (settings.stepCount as number) > 0) s.stepCount = settings.stepCount;
  if (Number.isSafeInteger(settings.seed)) s.seed = settings.seed;
  if (settings.deadline === null || (typeof settings.deadline === "number" && settings.deadline > 0))
    s.deadline = settings.deadline;
  if (settings.database === null || typeof settings.database === "string") s.database = settings.database;
  if (typeof settings.sharedDatabase === "string" && /^rediss?:\/\//i.test(settings.sharedDatabase.trim()))
    s.sharedDatabase = settings.sharedDatabase.trim();
  if (settings.replayOnly === true) s.replayOnly = true;
  if (settings.fresh === true) s.fresh = true;
  return s;
}

/**
 * Compile the bundle as a module whose filename is the test file: `require` resolves packages from the
 * test's folder up (as its own runner would), `__dirname`/`__filename` are the test's, and the inline source
 * map's relative paths resolve against the test's folder. Nothing is written to disk.
 */
export function loadBundle(code: string, testFile: string): unknown {
  const M = Module as unknown as { _nodeModulePaths(dir: string): string[] };
  const m = new Module(testFile) as Module & { _compile(code: string, filename: string): unknown };
  m.filename = testFile;
  m.paths = M._nodeModulePaths(path.dirname(testFile));
  m._compile(code, testFile);
  m.loaded = true;
  return m.exports;
}
