/**
 * Which test runner a file belongs to, and the command that runs one of its tests there — so that "Run
 * property" runs what CI runs: the project's vitest, jest, mocha or node:test with its own config. Pure Node
 * (no vscode import): the extension and the tests share it; the file system is passed in, so detection is
 * tested on the shapes of real projects without writing them.
 *
 * Auto-detection, most specific first:
 *   1. the file's imports: `vitest`, `@jest/globals`, `node:test`, `mocha` (and shrinkscope's `test.prop` entries,
 *      `shrinkscope/vitest` and `shrinkscope/jest`) name the runner outright;
 *   2. the nearest folder, from the file's up to the workspace (and past it, for a file outside it), that
 *      configures a runner — vitest.config.*, vitest.workspace.*, jest.config.*, package.json "jest",
 *      .mocharc.*, package.json "mocha", or a `test` script that runs vitest, jest, mocha or `node --test` —
 *      so a monorepo's package uses its own config; when one folder configures several, its test script decides;
 *   3. nothing: the bundled runner.
 * A node:test file runs under `node --test` only where a test script runs it (its flags are what matter);
 * otherwise it is a plain node:test file, and the bundled runner (warm, so faster) runs it the same.
 * The runner, and shrinkscope itself, must be installed where the project is (resolved from that folder as its own `node_modules`
 * would); a configured runner that is not installed falls back to the bundled runner and says so. node:test
 * runs a TypeScript file only with the loader flags of the project's test script (`--import tsx`,
 * `--experimental-strip-types`, …) or on a Node that strips types itself; otherwise the bundled runner.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { nodeExecutable } from "./nodePath.ts";
import { readSource } from "./source/read/index.ts";

export const RUNNER_SETTINGS = ["auto", "vitest", "jest", "mocha", "node", "builtin"] as const;
export type RunnerSetting = (typeof RUNNER_SETTINGS)[number];
export type ExternalRunner = "vitest" | "jest" | "mocha" | "node";

export type RunnerPlan =
  | {
      readonly kind: "external";
      readonly runner: ExternalRunner;
      /** Where the runner runs (its config's folder): the command's cwd. */
      readonly projectDir: string;
      /** The runner's CLI script (node:test: none). */
      readonly bin?: string;
      /** node:test: the project's node flags (loaders). */
      readonly nodeFlags?: readonly string[];
      /** Why this runner, in words for the output channel. */
      readonly why: string;
    }
  | { readonly kind: "builtin"; readonly why: string };

/** What detection reads; the real file system by default. */
export interface DetectIO {
  readFile(file: string): string | undefined;
  exists(file: string): boolean;
  /** The runner package's folder as resolved from `fromDir`, or undefined when not installed there. */
  resolvePackage(name: string, fromDir: string): string | undefined;
  /** The version of the `node` that will run the runner (not the editor's own), for type stripping. */
  nodeVersion(): string;
}

export const realIO: DetectIO = {
  readFile(file) {
    try {
      return fs.readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
  },
  exists: (file) => fs.existsSync(file),
  resolvePackage(name, fromDir) {
    try {
      return path.dirname(createRequire(path.join(fromDir, "package.json")).resolve(`${name}/package.json`));
    } catch {
      return undefined;
    }
  },
  nodeVersion: () => nodeVersionOf(nodeExecutable()),
};

const versions = new Map<string, string>();

/** `node --version` of that executable, once per path ("0.0.0" when it cannot be run: no type stripping assumed). */
function nodeVersionOf(node: { path: string; env?: Record<string, string> }): string {
  let v = versions.get(node.path);
  if (v === undefined) {
    try {
      v = execFileSync(node.path, ["--version"], {
        encoding: "utf8",
        timeout: 5000,
        env: { ...process.env, ...node.env },
      })
        .trim()
        .replace(/^v/, "");
    } catch {
      v = "0.0.0";
    }
    versions.set(node.path, v);
  }
  return v;
}

const CONFIG_EXT = ["ts", "mts", "cts", "js", "mjs", "cjs"];
const CONFIG_FILES: Record<Exclude<ExternalRunner, "node">, readonly string[]> = {
  vitest: [
    ...CONFIG_EXT.map((e) => `vitest.config.${e}`),
    ...CONFIG_EXT.map((e) => `vitest.workspace.${e}`),
    "vitest.workspace.json",
  ],
  jest: [...CONFIG_EXT.map((e) => `jest.config.${e}`), "jest.config.json"],
  mocha: [
    ".mocharc.js",
    ".mocharc.cjs",
    ".mocharc.mjs",
    ".mocharc.yaml",
    ".mocharc.yml",
    ".mocharc.json",
    ".mocharc.jsonc",
  ],
};
/** A test script's runner: the first of these it runs. */
const SCRIPT_RUNNERS: readonly [ExternalRunner, RegExp][] = [
  ["vitest", /(^|[\s/;&|])vitest(\s|$)/],
  ["jest", /(^|[\s/;&|])jest(\s|$)/],
  ["mocha", /(^|[\s/;&|])mocha(\s|$)/],
  ["node", /(^|[\s;&|])node\s[^;&|]*--test\b/],
];
const IMPORT_RUNNERS: Record<string, ExternalRunner> = {
  vitest: "vitest",
  "@jest/globals": "jest",
  // test.prop's entries import their runner: a file on them is that runner's, config file or not.
  "shrinkscope/vitest": "vitest",
  "shrinkscope/jest": "jest",
  "node:test": "node",
  mocha: "mocha",
};
const BINS: Record<Exclude<ExternalRunner, "node">, string> = {
  vitest: "vitest.mjs",
  jest: path.join("bin", "jest.js"),
  mocha: path.join("bin", "mocha.js"),
};

interface PackageJson {
  scripts?: Record<string, unknown>;
  jest?: unknown;
  mocha?: unknown;
}

function packageJson(io: DetectIO, dir: string): PackageJson | undefined {
  const text = io.readFile(path.join(dir, "package.json"));
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

function testScript(pkg: PackageJson | undefined): string | undefined {
  const s = pkg?.scripts?.test;
  return typeof s === "string" ? s : undefined;
}

/** The runners one folder configures, each with the file or field that says so. */
function configuredIn(io: DetectIO, dir: string): Map<ExternalRunner, string> {
  const found = new Map<ExternalRunner, string>();
  for (const runner of ["vitest", "jest", "mocha"] as const) {
    const file = CONFIG_FILES[runner].find((f) => io.exists(path.join(dir, f)));
    if (file !== undefined) found.set(runner, file);
  }
  const pkg = packageJson(io, dir);
  if (pkg?.jest !== undefined && !found.has("jest")) found.set("jest", 'package.json "jest"');
  if (pkg?.mocha !== undefined && !found.has("mocha")) found.set("mocha", 'package.json "mocha"');
  const script = testScript(pkg);
  if (script !== undefined)
    for (const [runner, re] of SCRIPT_RUNNERS)
      if (re.test(script) && !found.has(runner)) found.set(runner, `package.json's test script (${script})`);
  return found;
}

/** The folders from the file's up to the file system's root. */
function ancestors(file: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(path.resolve(file)); ; dir = path.dirname(dir)) {
    out.push(dir);
    if (path.dirname(dir) === dir) return out;
  }
}

/** The runner the file's own imports name, if any. */
export function importedRunner(source: string, fileName: string): ExternalRunner | undefined {
  try {
    for (const b of readSource(source, { fileName }).imports) {
      const r = IMPORT_RUNNERS[b.specifier];
      if (r !== undefined) return r;
    }
  } catch {
    // unreadable source: the configs decide
  }
  return undefined;
}

/** Node flags a test script passes before `--test` that load or strip TypeScript, or preload modules. */
export function nodeFlagsOf(script: string | undefined): string[] {
  if (script === undefined) return [];
  const m = /(?:^|[\s;&|])node\s+([^;&|]*?)--test\b/.exec(script);
  if (m === null) return [];
  const words = m[1]!
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.replace(/^(['"])(.*)\1$/, "$2"));
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (/^--(import|loader|experimental-loader|require)$/.test(w) || w === "-r") {
      if (words[i + 1] !== undefined) out.push(w, words[++i]!);
    } else if (
      /^--(import|loader|experimental-loader|require)=/.test(w) ||
      /^--(experimental-strip-types|experimental-transform-types|no-experimental-strip-types|enable-source-maps|no-warnings|conditions=.*|experimental-.*)$/.test(
        w,
      )
    ) {
      out.push(w);
    }
  }
  return out;
}

const TS_FILE = /\.(ts|mts|cts|tsx)$/;

function stripsTypesByDefault(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
}

/** The runner for `file` under `setting`; `source` is the file's text (for its imports). */
export function detectRunner(
  file: string,
  workspaceRoot: string,
  setting: RunnerSetting,
  source: string,
  io: DetectIO = realIO,
): RunnerPlan {
  if (setting === "builtin") return { kind: "builtin", why: "shrinkscope.runner is builtin" };
  const dirs = ancestors(file);
  let runner: ExternalRunner | undefined;
  let projectDir: string | undefined;
  let why = "";
  if (setting !== "auto") {
    runner = setting;
    projectDir =
      dirs.find((d) => configuredIn(io, d).has(setting)) ??
      dirs.find((d) => io.exists(path.join(d, "package.json"))) ??
      workspaceRoot;
    why = `shrinkscope.runner is ${setting}`;
  } else {
    const imported = importedRunner(source, file);
    if (imported === "node") {
      // node:test needs no runner installed: the project's own `node --test` matters only for its flags.
      const dir = dirs.find((d) => configuredIn(io, d).has("node"));
      if (dir === undefined)
        return { kind: "builtin", why: "a plain node:test file (no package.json test script runs node --test)" };
      runner = "node";
      projectDir = dir;
      why = `the file imports node:test; ${configuredIn(io, dir).get("node")} in ${dir}`;
    }
    for (const dir of runner === undefined ? dirs : []) {
      const found = configuredIn(io, dir);
      if (found.size === 0) continue;
      const script = testScript(packageJson(io, dir));
      const byScript =
        script === undefined ? undefined : SCRIPT_RUNNERS.find(([r, re]) => found.has(r) && re.test(script))?.[0];
      const pick =
        imported !== undefined && found.has(imported) ? imported : (imported ?? byScript ?? [...found.keys()][0]!);
      runner = pick;
      projectDir = dir;
      why =
        imported !== undefined
          ? `the file imports ${imported === "node" ? "node:test" : imported === "jest" ? "@jest/globals" : imported}`
          : `${found.get(pick)} in ${dir}`;
      break;
    }
    if (runner === undefined && imported !== undefined) {
      runner = imported;
      projectDir = dirs.find((d) => io.exists(path.join(d, "package.json"))) ?? path.dirname(file);
      why = `the file imports ${imported === "node" ? "node:test" : imported}`;
    }
    if (runner === undefined || projectDir === undefined)
      return {
        kind: "builtin",
        why: "no test runner is configured for this file (no vitest, jest or mocha config, no test script)",
      };
  }
  const dir = projectDir ?? workspaceRoot;
  // The bundled runner brings its own engine; the project's runner loads the project's.
  if (io.resolvePackage("shrinkscope", path.dirname(file)) === undefined)
    return {
      kind: "builtin",
      why: `${why}, but shrinkscope is not installed where the file is (npm install --save-dev shrinkscope); ran with the bundled runner, which brings its own`,
    };
  if (runner === "node") {
    const flags = nodeFlagsOf(testScript(packageJson(io, dir)));
    if (TS_FILE.test(file) && flags.length === 0 && !stripsTypesByDefault(io.nodeVersion())) {
      return {
        kind: "builtin",
        why: `${why}; node:test runs a TypeScript file only with a loader (e.g. "node --import tsx --test" in package.json's test script) and none is configured`,
      };
    }
    return { kind: "external", runner, projectDir: dir, nodeFlags: flags, why };
  }
  const pkg = io.resolvePackage(runner, dir);
  if (pkg === undefined)
    return {
      kind: "builtin",
      why: `${why}, but ${runner} is not installed in ${dir} (npm install --save-dev ${runner}); ran with the bundled runner instead`,
    };
  return { kind: "external", runner, projectDir: dir, bin: path.join(pkg, BINS[runner]), why };
}

/** A regular expression matching exactly this text. */
function exactly(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** vitest's, jest's and mocha's name filter for one test: its describe names and name, joined by spaces. */
export function fullNamePattern(testPath: readonly string[]): string {
  return `^${exactly(testPath.join(" "))}$`;
}

/** A glob (minimatch, as mocha's --ignore) matching exactly this path: each special character in a class. */
function globLiteral(file: string): string {
  return file.replace(/[*?[\]{}()+@]/g, "[$&]");
}

/** runnerCommand with the `node` the user's terminal would use (nodePath.ts), and the environment it needs. */
export function userRunnerCommand(
  plan: RunnerPlan & { kind: "external" },
  file: string,
  testPath: readonly string[],
): { execPath: string; args: string[]; cwd: string; env?: Record<string, string> } {
  const node = nodeExecutable();
  return { ...runnerCommand(plan, file, testPath, node.path), ...(node.env ? { env: node.env } : {}) };
}

/**
 * The command line that runs one test (its describe names, then its name) with the plan's runner. Every runner
 * but node:test matches its name filter against the describe names and the test name joined by spaces; Node 20
 * matches each test's own name (later versions the full name too), so both are allowed there.
 */
export function runnerCommand(
  plan: RunnerPlan & { kind: "external" },
  file: string,
  testPath: readonly string[],
  nodePath: string,
): { execPath: string; args: string[]; cwd: string } {
  const full = fullNamePattern(testPath);
  const abs = path.resolve(file);
  switch (plan.runner) {
    case "vitest":
      return { execPath: nodePath, args: [plan.bin!, "run", abs, "--testNamePattern", full], cwd: plan.projectDir };
    case "jest":
      return {
        execPath: nodePath,
        args: [plan.bin!, "--runTestsByPath", abs, "--testNamePattern", full, "--watchAll=false"],
        cwd: plan.projectDir,
      };
    case "mocha":
      // Mocha adds a file named on the command line to its config's `spec`, it does not replace it: every spec
      // file would load too (one with a syntax error fails the run, another test of the same name runs). No
      // flag removes a config's spec; an --ignore of everything but this file does (negated glob).
      return {
        execPath: nodePath,
        args: [plan.bin!, "--grep", full, "--ignore", `!${globLiteral(abs)}`, abs],
        cwd: plan.projectDir,
      };
    case "node": {
      const own = exactly(testPath[testPath.length - 1] ?? "");
      const pattern = testPath.length > 1 ? `^(?:${exactly(testPath.join(" "))}|${own})$` : full;
      return {
        execPath: nodePath,
        args: [...(plan.nodeFlags ?? []), "--test", `--test-name-pattern=${pattern}`, abs],
        cwd: plan.projectDir,
      };
    }
  }
}
