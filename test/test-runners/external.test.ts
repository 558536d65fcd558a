/**
 * "Run property" through the user's own test runner, against the real runners: the four fixture
 * projects under test/test-runners/projects/ are configured the way their users configure them (vitest with an
 * alias, vi.mock, fake timers, a setup file and jsdom; jest with moduleNameMapper, jest.mock and a custom
 * matcher; mocha with a .mocharc; node:test with a TypeScript loader), and each has a property that fails only
 * with that configuration in effect. For each project this checks, with the same code the extension runs
 * (src/extension/runnerDetect.ts, src/extension/externalRun.ts, dist/tap.cjs):
 *   (a) detection on the real file system picks the project's runner, and says why;
 *   (b) the runner's own command, run as in a terminal (no tap), fails with the minimal example;
 *   (c) the same command with the tap: "failed" with the same minimal example and error, the events streamed,
 *       the failure located in the test file;
 *   (d) a passing property: "passed", run with the editor's maxExamples (it sets none of its own);
 *   (e) a name that matches no test: "not-found";
 *   (f) a file with a syntax error: "error", with the runner's own message and, where the runner names the
 *       position (all but mocha), a compile-error at the unexpected token (the broken files are in their
 *       projects' test globs, so (b)–(h) also check that running one file loads no other: mocha's .mocharc
 *       spec is added to the command line's file, runnerCommand keeps it out);
 *   (g) Stop during a long synchronous property: "stopped" by the tap (not a kill), the events kept, and no
 *       process of the runner left;
 *   (h) a rare failure that only the property's own maxExamples (300) finds: it wins over the editor's (20).
 *
 * The fixtures import "shrinkscope": a symlink test/runners/projects/node_modules/shrinkscope → the repository
 * (made here, gitignored) resolves it to the built dist/ through package.json's exports, as an installed
 * package would. Needs `npm run build` first (`npm test` does it). The runs start together, a few at a time.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { startExternalRun } from "../../src/extension/externalRun.ts";
import {
  detectRunner,
  fullNamePattern,
  runnerCommand,
  type ExternalRunner,
  type RunnerPlan,
} from "../../src/extension/runnerDetect.ts";
import { RunnerServer } from "../../src/extension/runnerServer.ts";
import type {
  CompileError,
  EngineEvent,
  FailureReport,
  RunnerMessage,
  RunSettings,
} from "../../src/shared/protocol.ts";
import type { RunResult } from "../../src/extension/runnerClient.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const PROJECTS = path.join(__dirname, "projects");
const TAP_MODULE = path.join(ROOT, "dist", "tap.cjs");
/** For a hang only: a run that works takes seconds. */
const RUN_TIMEOUT_MS = 90_000;
/** Runner processes at once: each is a Node process with its own start-up (jsdom's alone takes seconds). */
const PARALLEL = 4;
/** The editor's maxExamples: below the case at which each rare failure is first found (see the fixtures). */
const EDITOR_MAX_EXAMPLES = 20;
const RARE_MAX_EXAMPLES = 300;

interface Fixture {
  readonly project: string;
  readonly runner: ExternalRunner;
  readonly why: RegExp;
  /** The test file, relative to the project. */
  readonly file: string;
  /** The failing property that depends on the project's configuration, its minimal example and error. */
  readonly failing: { readonly testPath: readonly string[]; readonly minimal: string; readonly error: RegExp };
  readonly passing: readonly string[];
  /** The property with maxExamples: 300 whose failure is rare. */
  readonly rare: { readonly testPath: readonly string[]; readonly minimal: string };
  /** The long synchronous property (runs only with SLOW_PROPERTIES=1). */
  readonly slow: readonly string[];
  /** A test file with a syntax error, and what the runner says about it. */
  readonly broken: {
    readonly file: string;
    readonly message: RegExp;
    readonly at?: { readonly line: number; readonly column: number; readonly message: RegExp };
  };
}

const FIXTURES: readonly Fixture[] = [
  {
    project: "vitest-app",
    runner: "vitest",
    why: /^the file imports vitest$/,
    file: "test/cart.test.ts",
    failing: {
      testPath: ["shows the total in cents"],
      minimal: "[1]",
      error: /^expected the total to show 0\.03 \(3 cents\), it shows "0\.30"$/,
    },
    passing: ["updates the total once per burst of changes"],
    rare: { testPath: ["every cart weight has a shipping fee"], minimal: "5000" },
    slow: ["totals of very long carts"],
    broken: {
      file: "test/broken.test.ts",
      message: /Transform failed[\s\S]*Unexpected token[\s\S]*test\/broken\.test\.ts:6:22/,
      at: { line: 6, column: 22, message: /^Unexpected token$/ },
    },
  },
  {
    project: "jest-app",
    runner: "jest",
    why: /^jest\.config\.cjs in .*jest-app$/,
    file: "test/shipping.test.js",
    failing: {
      testPath: ["charges every started kilogram"],
      minimal: "1",
      error: /^expected 0 cents at 450 per kg to cover 1 g, it covers 0 g$/,
    },
    passing: ["never charges more than a kilogram extra"],
    rare: { testPath: ["every weight has a parcel size"], minimal: "12000" },
    slow: ["quotes a very long list of parcels"],
    broken: {
      file: "test/broken.test.js",
      message: /SyntaxError: .*broken\.test\.js: Unexpected token \(4:21\)/,
      at: { line: 4, column: 22, message: /^SyntaxError: Unexpected token$/ },
    },
  },
  {
    project: "mocha-app",
    runner: "mocha",
    why: /^\.mocharc\.json in .*mocha-app$/,
    file: "test/discount.test.mjs",
    failing: {
      testPath: ["discounts", "applies the tier the amount reaches"],
      minimal: "100",
      error: /^amount 100\n\n5 !== 10\n?$/,
    },
    passing: ["discounts", "never gives more than the top tier"],
    rare: { testPath: ["discounts", "delivers to every postcode"], minimal: "45000" },
    slow: ["discounts", "discounts a very long order"],
    broken: { file: "test/broken.test.mjs", message: /SyntaxError\[ @.*broken\.test\.mjs \]: Unexpected token ';'/ },
  },
  {
    project: "node-app",
    runner: "node",
    why: /^the file imports node:test; package\.json's test script \(node --import tsx --test [^)]*\) in .*node-app$/,
    file: "test/invoice.test.ts",
    failing: {
      testPath: ["instalments add up to the total"],
      minimal: "1, 2",
      error: /^Expected values to be strictly equal:\n\n0 !== 1\n?$/,
    },
    passing: ["instalments differ by at most a cent"],
    rare: { testPath: ["every amount has a tax bracket"], minimal: "40000" },
    slow: ["taxes a very long invoice"],
    broken: {
      file: "test/broken.test.ts",
      message: /broken\.test\.ts:6:29: ERROR: Unexpected ";"/,
      at: { line: 6, column: 30, message: /^Unexpected ";"$/ },
    },
  },
];

// ------------------------------------------------------------------------------------------------ runs

/** At most PARALLEL runner processes at once; the rest wait their turn. */
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * The environment of every run, with and without the tap: ours minus what would change the fixtures' runs —
 * a seed override, and NODE_TEST_CONTEXT (set by our own `node --test`: a child `node --test` would report to
 * us in its binary format instead of printing).
 */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.FORCE_COLOR;
  delete env.SHRINKSCOPE_SEED;
  delete env.NODE_TEST_CONTEXT;
  for (const k of Object.keys(env)) if (k.startsWith("SHRINKSCOPE_TAP")) delete env[k];
  return env;
}

function plan(f: Fixture, file = f.file): RunnerPlan & { kind: "external" } {
  const abs = path.join(PROJECTS, f.project, file);
  const p = detectRunner(abs, ROOT, "auto", fs.readFileSync(abs, "utf8"));
  assert.equal(p.kind, "external", `${f.project}: ${p.why}`);
  return p as RunnerPlan & { kind: "external" };
}

interface TerminalExit {
  readonly code: number | null;
  readonly output: string;
}

/** The command runnerCommand gives, run as in a terminal: no tap. */
function terminalRun(f: Fixture, testPath: readonly string[]): Promise<TerminalExit> {
  const cmd = runnerCommand(plan(f), path.join(PROJECTS, f.project, f.file), testPath, process.execPath);
  return slot(
    () =>
      new Promise((resolve, reject) => {
        const child = spawn(cmd.execPath, cmd.args, {
          cwd: cmd.cwd,
          env: baseEnv(),
          stdio: ["ignore", "pipe", "pipe"],
          detached: true,
        });
        let output = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
        child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, "SIGKILL");
          } catch {
            // already gone
          }
        }, RUN_TIMEOUT_MS);
        child.on("error", reject);
        child.on("close", (code) => {
          clearTimeout(timer);
          resolve({ code, output });
        });
      }),
  );
}

interface TapRun {
  readonly result: RunResult;
  readonly compileErrors: readonly CompileError[];
  readonly events: readonly EngineEvent[];
  readonly log: string;
  readonly pid: number | undefined;
}

/** The extension's way: the same command, with the tap; `onEvents` may stop the run. */
function tapRun(
  f: Fixture,
  testPath: readonly string[],
  o: {
    file?: string;
    settings?: RunSettings;
    env?: Record<string, string>;
    onEvents?: (events: readonly EngineEvent[], stop: () => void) => void;
  } = {},
): Promise<TapRun> {
  const file = path.join(PROJECTS, f.project, o.file ?? f.file);
  const cmd = runnerCommand(plan(f, o.file), file, testPath, process.execPath);
  return slot(async () => {
    const events: EngineEvent[] = [];
    const compileErrors: CompileError[] = [];
    let log = "";
    let stop = () => {};
    const handle = startExternalRun({
      command: { ...cmd, ...(o.env ? { env: o.env } : {}) },
      request: {
        type: "run",
        file,
        testPath,
        workspaceRoot: path.join(PROJECTS, f.project),
        settings: { maxExamples: EDITOR_MAX_EXAMPLES, database: null, ...o.settings },
      },
      tapModule: TAP_MODULE,
      timeoutMs: RUN_TIMEOUT_MS,
      baseEnv: baseEnv(),
      onMessage: (m: Exclude<RunnerMessage, { type: "done" }>) => {
        if (m.type === "events") {
          events.push(...m.events);
          o.onEvents?.(events, stop);
        } else if (m.type === "log") log += m.text;
        else if (m.type === "compile-error") compileErrors.push(...m.errors);
      },
    });
    stop = () => handle.stop();
    return { result: await handle.done, compileErrors, events, log, pid: handle.pid };
  });
}

function minimalIn(output: string): string | undefined {
  return /Minimal failing arguments \(TypeScript\):\r?\n[ \t]*([^\r\n]*)/.exec(output)?.[1]?.trim();
}

function context(r: TapRun | TerminalExit): string {
  if ("output" in r) return `\n--- exit ${r.code}, output:\n${r.output.slice(-6000)}`;
  return `\n--- ${r.result.outcome}: ${r.result.reason ?? ""}\n--- runner output:\n${r.log.slice(-6000)}`;
}

function resultEvent(events: readonly EngineEvent[]): EngineEvent & { type: "result" } {
  const r = events.find((e): e is EngineEvent & { type: "result" } => e.type === "result");
  assert.ok(r, "no result event was streamed");
  return r;
}

function runStart(events: readonly EngineEvent[]): EngineEvent & { type: "run-start" } {
  const r = events.find((e): e is EngineEvent & { type: "run-start" } => e.type === "run-start");
  assert.ok(r, "no run-start event was streamed");
  return r;
}

/** 1-based line of the fixture's `// the failing line` marker. */
function failingLine(f: Fixture): number {
  const lines = fs.readFileSync(path.join(PROJECTS, f.project, f.file), "utf8").split("\n");
  const i = lines.findIndex((l) => l.includes("// the failing line"));
  assert.ok(i >= 0, `${f.file} has no "// the failing line" marker`);
  return i + 1;
}

/** Whether any process of the group is left (signal 0 only checks). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid of a process whose parent is `parent` and whose command line has the spare worker's preload. */
function spareOf(parent: number): number | undefined {
  for (const entry of fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent && fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("spare-preload.cjs"))
        return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

async function waitFor<T>(get: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const v = get();
    if (v !== undefined) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

// ----------------------------------------------------------------------------------------------- tests

const runs = new Map<string, Promise<unknown>>();
function started<T>(key: string, make: () => Promise<T>): Promise<T> {
  // A throw (detection found no runner) fails the tests that read this run, not the whole file's `before`.
  if (!runs.has(key)) runs.set(key, Promise.resolve().then(make));
  return runs.get(key) as Promise<T>;
}

/** Every run of a fixture, started at once (each waits for a slot), so the four runners overlap. */
function startAll(f: Fixture): void {
  started(`${f.project} terminal`, () => terminalRun(f, f.failing.testPath));
  started(`${f.project} failing`, () => tapRun(f, f.failing.testPath));
  started(`${f.project} passing`, () => tapRun(f, f.passing));
  started(`${f.project} not-found`, () => tapRun(f, ["no test has this name"]));
  started(`${f.project} broken`, () => tapRun(f, ["never runs"], { file: f.broken.file }));
  started(`${f.project} stop`, () =>
    tapRun(f, f.slow, {
      env: { SLOW_PROPERTIES: "1" },
      // Stop once test cases stream: the property is then inside its synchronous loop.
      onEvents: (events, stop) => {
        if (events.some((e) => e.type === "test-case")) stop();
      },
    }),
  );
  started(`${f.project} rare`, () => tapRun(f, f.rare.testPath));
}

before(() => {
  for (const f of ["engine.mjs", "engine.cjs", "tap.cjs", "vitest-server.cjs", "jest-server.cjs"]) {
    assert.ok(fs.existsSync(path.join(ROOT, "dist", f)), `dist/${f} is missing: run \`npm run build\` first`);
  }
  // "shrinkscope" for the fixtures: this repository, through its package.json's exports (dist/).
  const link = path.join(PROJECTS, "node_modules", "shrinkscope");
  fs.mkdirSync(path.dirname(link), { recursive: true });
  if (!fs.existsSync(path.join(link, "package.json"))) {
    fs.rmSync(link, { force: true });
    fs.symlinkSync(path.relative(path.dirname(link), ROOT), link, "junction");
  }
  for (const f of FIXTURES) startAll(f);
});

after(async () => {
  await Promise.allSettled(runs.values()); // never leave a runner behind (each is bounded by RUN_TIMEOUT_MS)
});

const TEST_TIMEOUT = { timeout: 4 * RUN_TIMEOUT_MS };

for (const f of FIXTURES) {
  const file = path.join(PROJECTS, f.project, f.file);
  const terminal = () => runs.get(`${f.project} terminal`) as Promise<TerminalExit>;
  const tap = (kind: string) => runs.get(`${f.project} ${kind}`) as Promise<TapRun>;

  describe(f.project, () => {
    test("detection picks the project's runner and says why", () => {
      const p = plan(f);
      assert.equal(p.runner, f.runner);
      assert.equal(p.projectDir, path.join(PROJECTS, f.project));
      assert.match(p.why, f.why);
    });

    test("the runner's command in a terminal fails with the minimal example", TEST_TIMEOUT, async () => {
      const r = await terminal();
      assert.notEqual(r.code, 0, `the failing property should fail the run${context(r)}`);
      assert.equal(minimalIn(r.output), f.failing.minimal, `wrong minimal example${context(r)}`);
    });

    test(
      "with the tap: failed, the same minimal example and error as the terminal, events streamed, located",
      TEST_TIMEOUT,
      async () => {
        const [r, t] = await Promise.all([tap("failing"), terminal()]);
        assert.equal(r.result.outcome, "failed", context(r));
        const failure: FailureReport = r.result.failure!;
        assert.equal(failure.repro, f.failing.minimal);
        assert.equal(failure.repro, minimalIn(t.output), "the editor and the terminal disagree on the minimal example");
        assert.match(failure.error.message, f.failing.error);
        for (const line of failure.error.message
          .split("\n")
          .map((l) => l.trim())
          .filter(Boolean)) {
          assert.ok(
            t.output.includes(line),
            `the terminal's output lacks the error's line ${JSON.stringify(line)}${context(t)}`,
          );
        }
        const types = new Set(r.events.map((e) => e.type));
        for (const type of ["run-start", "test-case", "result"])
          assert.ok(types.has(type as EngineEvent["type"]), `no ${type} event was streamed`);
        assert.equal(resultEvent(r.events).outcome, "failed");
        assert.deepEqual(failure.location && { file: failure.location.file, line: failure.location.line }, {
          file,
          line: failingLine(f),
        });
      },
    );

    test("a passing property passes, with the editor's maxExamples", TEST_TIMEOUT, async () => {
      const r = await tap("passing");
      assert.equal(r.result.outcome, "passed", context(r));
      assert.equal(runStart(r.events).settings.maxExamples, EDITOR_MAX_EXAMPLES);
      assert.equal(resultEvent(r.events).statistics.valid, EDITOR_MAX_EXAMPLES);
    });

    test("a name that matches no test is not-found", TEST_TIMEOUT, async () => {
      const r = await tap("not-found");
      assert.equal(r.result.outcome, "not-found", context(r));
      assert.equal(r.events.length, 0);
    });

    test(
      "a file with a syntax error is an error carrying the runner's message, and its position where the runner names one",
      TEST_TIMEOUT,
      async () => {
        const r = await tap("broken");
        assert.equal(r.result.outcome, "error", context(r));
        assert.match(r.result.reason ?? "", f.broken.message, context(r));
        // Plain text: no colour codes, even from a runner that ignores NO_COLOR (vitest's parse errors).
        assert.doesNotMatch(r.result.reason ?? "", /\x1b\[/, context(r));
        // Where the runner names the position, the editor gets it (a squiggle, as the bundled runner's esbuild gives);
        // mocha names none (Node's ESM error, wrapped), and its error stays text.
        const file = path.join(PROJECTS, f.project, f.broken.file);
        if (f.broken.at === undefined) assert.deepEqual(r.compileErrors, [], context(r));
        else {
          assert.equal(r.compileErrors.length, 1, `${JSON.stringify(r.compileErrors)}${context(r)}`);
          const [e] = r.compileErrors;
          assert.deepEqual(e!.location, { file, line: f.broken.at.line, column: f.broken.at.column });
          assert.match(e!.message, f.broken.at.message);
          assert.equal(
            fs.readFileSync(file, "utf8").split("\n")[f.broken.at.line - 1]![f.broken.at.column - 1],
            ";",
            "the column is the unexpected ';'",
          );
        }
      },
    );

    test(
      "stop during a long synchronous property: stopped by the tap, events kept, no process left",
      TEST_TIMEOUT,
      async () => {
        const r = await tap("stop");
        assert.equal(r.result.outcome, "stopped", context(r));
        // The tap answered (a kill would say the runner did not respond).
        assert.equal(r.result.reason, "stopped on request", context(r));
        assert.ok(
          r.events.some((e) => e.type === "test-case"),
          "the events streamed before Stop were not kept",
        );
        assert.ok(r.pid !== undefined);
        // The group's last processes may still be exiting: wait (bounded) for it to be gone.
        for (let i = 0; i < 200 && groupAlive(r.pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.ok(!groupAlive(r.pid), `a process of the runner's group ${r.pid} is still running`);
      },
    );

    test("a property's own maxExamples wins over the editor's: its rare failure is found", TEST_TIMEOUT, async () => {
      const r = await tap("rare");
      assert.equal(r.result.outcome, "failed", context(r));
      assert.equal(r.result.failure!.repro, f.rare.minimal);
      assert.equal(runStart(r.events).settings.maxExamples, RARE_MAX_EXAMPLES);
      // Found after more valid cases than the editor's maxExamples would have run.
      assert.ok(
        resultEvent(r.events).statistics.valid > EDITOR_MAX_EXAMPLES,
        `found after ${resultEvent(r.events).statistics.valid} cases`,
      );
    });
  });
}

// ------------------------------------------------------------------------------- runners kept running

/** vitest through its Node API, jest through runCLI: one server per project, many runs. */
const SERVED = [
  { runner: "vitest", packageDir: path.join(ROOT, "node_modules", "vitest"), config: "vitest.config.ts" },
  { runner: "jest", packageDir: path.join(ROOT, "node_modules", "jest"), config: "jest.config.cjs" },
] as const;

for (const served of SERVED) {
  describe(`${served.runner} kept running (src/extension/runnerServer.ts)`, () => {
    const f = FIXTURES.find((x) => x.runner === served.runner)!;
    const project = path.join(PROJECTS, f.project);
    const file = path.join(project, f.file);

    /** A server for the project, as the extension makes one. */
    const newServer = () =>
      new RunnerServer({
        projectDir: project,
        packageDir: served.packageDir,
        serverScript: path.join(ROOT, "dist", `${served.runner}-server.cjs`),
        tapModule: TAP_MODULE,
        node: { path: process.execPath },
        baseEnv: baseEnv(),
      });

    /** One run on the server, as the extension makes it. */
    async function served1(
      server: RunnerServer,
      testPath: readonly string[],
      settings: RunSettings = {},
    ): Promise<{ result: RunResult; events: EngineEvent[]; log: string }> {
      const events: EngineEvent[] = [];
      let log = "";
      const handle = server.run(
        {
          type: "run",
          file,
          testPath,
          workspaceRoot: project,
          settings: { maxExamples: EDITOR_MAX_EXAMPLES, database: null, ...settings },
        },
        fullNamePattern(testPath),
        {
          timeoutMs: RUN_TIMEOUT_MS,
          onMessage: (m) => {
            if (m.type === "events") events.push(...m.events);
            if (m.type === "log") log += m.text;
          },
        },
      );
      return { result: await handle.done, events, log };
    }

    test(
      "warmUp loads the file with no test run (nothing left in the tap folder), once per file; the first run after it is served as usual",
      TEST_TIMEOUT,
      async () => {
        const server = newServer();
        try {
          await server.warmUp(file);
          // (vitest's spare worker's preload file may be there: spareWorker.ts)
          assert.deepEqual(
            fs.readdirSync(server.tapDir).filter((n) => n !== "spare-preload.cjs"),
            [],
            "no run folder and no run settings: no property ran",
          );
          const pid = server.pid;
          await server.warmUp(file);
          assert.equal(server.pid, pid, "the same server, not warmed again");
          const first = await served1(server, f.failing.testPath);
          assert.equal(first.result.outcome, "failed", first.result.reason);
          assert.equal(first.result.failure?.repro, f.failing.minimal);
        } finally {
          server.dispose();
        }
      },
    );

    if (served.runner === "vitest") {
      test(
        "after a run, the next worker waits with jsdom imported; the next run is served by it with the terminal's minimal example",
        TEST_TIMEOUT,
        async () => {
          // vitest named through a symlink, as in a pnpm project or a linked node_modules: vitest forks its worker by
          // the real path, and the spare must still stand in for it.
          const link = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-vitest-link-")), "vitest");
          fs.symlinkSync(served.packageDir, link);
          const server = new RunnerServer({
            projectDir: project,
            packageDir: link,
            serverScript: path.join(ROOT, "dist", "vitest-server.cjs"),
            tapModule: TAP_MODULE,
            node: { path: process.execPath },
            baseEnv: baseEnv(),
          });
          try {
            const first = await served1(server, f.failing.testPath);
            assert.equal(first.result.failure?.repro, f.failing.minimal, first.result.reason);
            assert.doesNotMatch(
              first.log,
              /worker started before the run/,
              "the first run's worker is vitest's own fork",
            );
            const spare = await waitFor(
              () => spareOf(server.pid!),
              "a spare worker of the server's, forked with the preload",
            );
            const second = await served1(server, f.failing.testPath);
            assert.match(second.log, /vitest runs this file in a worker started before the run/);
            assert.equal(second.result.outcome, "failed", second.result.reason);
            assert.equal(
              second.result.failure?.repro,
              f.failing.minimal,
              "the same minimal example as vitest's own worker gives",
            );
            assert.match(second.result.failure!.error.message, f.failing.error);
            assert.equal(
              fs
                .readFileSync(path.join(server.tapDir, "spare-preload.cjs"), "utf8")
                .includes(`${path.sep}jsdom${path.sep}`),
              true,
              "jsdom is what it imports",
            );
            await waitFor(
              () => (spareOf(server.pid!) ?? spare) !== spare || undefined,
              "the used spare replaced by the next one",
            );
          } finally {
            server.dispose();
            fs.rmSync(path.dirname(link), { recursive: true, force: true });
          }
        },
      );
    }

    test(
      "one server serves run after run with the terminal's results; a config change restarts it; nothing is left behind",
      TEST_TIMEOUT,
      async () => {
        const terminal = (await started(`${f.project} terminal`, () =>
          terminalRun(f, f.failing.testPath),
        )) as TerminalExit;
        const server = newServer();
        const config = path.join(project, served.config);
        try {
          server.ensureStarted();
          const first = await served1(server, f.failing.testPath);
          assert.equal(first.result.outcome, "failed", first.result.reason);
          assert.equal(
            first.result.failure?.repro,
            minimalIn(terminal.output),
            "the same minimal example as in a terminal",
          );
          assert.match(first.result.failure!.error.message, f.failing.error);
          const pid = server.pid;
          assert.ok(pid !== undefined, "the server outlives its run");
          const again = await served1(server, f.failing.testPath, { seed: 4 });
          assert.equal(
            again.result.failure?.repro,
            f.failing.minimal,
            "a second run, the editor's seed this time, on the same server",
          );
          assert.equal(
            runStart(again.events).seed,
            4,
            "each run's settings reach the runner's test code (current.json)",
          );
          assert.equal(server.pid, pid, "the same server");
          const passing = await served1(server, f.passing);
          assert.equal(passing.result.outcome, "passed", passing.result.reason);
          const missing = await served1(server, ["no test has this name"]);
          assert.equal(missing.result.outcome, "not-found", missing.result.reason);
          // The config is read at start (vitest): touching it restarts the server for the next run.
          const now = new Date();
          fs.utimesSync(config, now, new Date(now.getTime() + 1000));
          const restarted = await served1(server, f.failing.testPath);
          assert.equal(restarted.result.failure?.repro, f.failing.minimal);
          assert.notEqual(server.pid, pid, "a new server after the config changed");
        } finally {
          const pid = server.pid;
          server.dispose();
          if (pid !== undefined) {
            for (let i = 0; i < 50 && groupAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
            assert.ok(!groupAlive(pid), "dispose ends the server and the runner's workers");
          }
        }
      },
    );
  });
}
