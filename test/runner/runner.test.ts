/**
 * The runner end to end: the built dist/runner.js forked through src/extension/runnerClient.ts (as the extension does)
 * against the fixture workspaces in test/runner/projects/, each copied to a temp folder first. A copy has no
 * node_modules (the runner must fall back to its bundled engine), a symlink to this repository as its own
 * `shrinkscope`, or a fake `shrinkscope` that announces itself (to prove the workspace's copy wins).
 *
 * Needs `npm run build` first. Run: npm run build && node --import tsx --test test/runner/*.test.ts
 */
import assert from "node:assert/strict";
import { fork } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, describe, test } from "node:test";
import type {
  CompileError,
  DoneMessage,
  EngineEvent,
  ResultEvent,
  RunnerMessage,
  RunSettings,
  TestCaseEvent,
} from "../../src/shared/protocol.ts";
import {
  prewarmRunner,
  startRun,
  type RunHandle,
  type RunResult,
  type WarmRunner,
} from "../../src/extension/runnerClient.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const RUNNER = path.join(ROOT, "dist", "runner.js");
const FIXTURES = path.join(ROOT, "test", "runner", "projects");
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-runner-"));
after(() => fs.rmSync(TMP, { recursive: true, force: true }));

type EngineSource = "bundled" | "linked" | "fake";

/** A fresh copy of a fixture workspace, with the chosen kind of `shrinkscope` (or none). */
function workspace(fixture: string, engine: EngineSource = "bundled"): string {
  const dir = fs.mkdtempSync(path.join(TMP, `${fixture}-`));
  fs.cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
  for (const f of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (f.endsWith(".ts.txt")) fs.renameSync(path.join(dir, f), path.join(dir, f.slice(0, -4)));
  }
  if (engine === "bundled") return dir;
  const modules = path.join(dir, "node_modules");
  fs.mkdirSync(modules);
  if (engine === "linked") {
    fs.symlinkSync(ROOT, path.join(modules, "shrinkscope"), "junction");
  } else {
    const pkg = path.join(modules, "shrinkscope");
    fs.mkdirSync(pkg);
    fs.writeFileSync(
      path.join(pkg, "package.json"),
      JSON.stringify({ name: "shrinkscope", version: "0.0.0-fake", main: "index.js" }),
    );
    fs.writeFileSync(
      path.join(pkg, "index.js"),
      `process.stdout.write("[workspace shrinkscope]\\n");\nmodule.exports = require(${JSON.stringify(path.join(ROOT, "dist", "engine.cjs"))});\n`,
    );
  }
  return dir;
}

/** The 1-based line of the `// @mark:<name>` comment in a fixture file. */
function markLine(file: string, mark: string): number {
  const index = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .findIndex((l) => l.includes(`@mark:${mark}`));
  assert.ok(index >= 0, `no @mark:${mark} in ${file}`);
  return index + 1;
}

interface Run {
  result: RunResult;
  events: EngineEvent[];
  dropped: number;
  logs: string;
  compileErrors: CompileError[];
  /** From startRun to the first streamed test-case event, and to `done`. */
  firstCaseMs: number | undefined;
  totalMs: number;
}

interface RunOptions {
  timeoutMs?: number;
  stopGraceMs?: number;
  settings?: RunSettings;
  warm?: WarmRunner;
  /** Called after each events message (e.g. to stop the run part-way). */
  onEvents?: (events: readonly EngineEvent[], handle: RunHandle) => void;
}

async function run(root: string, file: string, testPath: string[], o: RunOptions = {}): Promise<Run> {
  const events: EngineEvent[] = [];
  const compileErrors: CompileError[] = [];
  let logs = "";
  let dropped = 0;
  let firstCaseMs: number | undefined;
  const t0 = performance.now();
  const handle: RunHandle = startRun({
    runnerPath: RUNNER,
    request: {
      type: "run",
      file: path.join(root, file),
      testPath,
      workspaceRoot: root,
      settings: o.settings ?? { database: null, seed: 1 },
    },
    timeoutMs: o.timeoutMs ?? 20_000,
    ...(o.stopGraceMs !== undefined ? { stopGraceMs: o.stopGraceMs } : {}),
    ...(o.warm ? { warm: o.warm } : {}),
    onMessage(m) {
      if (m.type === "events") {
        if (firstCaseMs === undefined && m.events.some((e) => e.type === "test-case"))
          firstCaseMs = performance.now() - t0;
        events.push(...m.events);
        dropped += m.dropped;
        o.onEvents?.(events, handle);
      } else if (m.type === "log") logs += m.text;
      else compileErrors.push(...m.errors);
    },
  });
  const result = await handle.done;
  return { result, events, dropped, logs, compileErrors, firstCaseMs, totalMs: performance.now() - t0 };
}

const cases = (r: Run) => r.events.filter((e): e is TestCaseEvent => e.type === "test-case");
const resultEvent = (r: Run) => r.events.find((e): e is ResultEvent => e.type === "result");

/** Assert a failed run with the expected minimal example, located at the marked line of the test file. */
function assertFailure(r: Run, root: string, file: string, repro: string, mark: string): void {
  assert.equal(r.result.outcome, "failed", r.result.reason ?? r.result.stderr);
  const f = r.result.failure;
  assert.ok(f !== undefined);
  assert.equal(f.repro, repro);
  assert.deepEqual(
    { file: f.location?.file, line: f.location?.line },
    { file: path.join(root, file), line: markLine(path.join(root, file), mark) },
  );
}

/**
 * Every test case the engine ran (ids are sequential) arrived, or was counted as dropped: none lost. A
 * synchronous run's batches each end on their newest case, so the count is the last id + 1. An async run's
 * timer may send a batch ending on a case the sample dropped (its view is gone by then), counted but not sent:
 * the count may pass the last id received (seen under load in a 100-case async run: 52 received, 48 dropped,
 * the last received id 87).
 */
function assertAllAccountedFor(r: Run, async = false): void {
  const received = cases(r);
  assert.ok(received.length > 0, "some test cases arrived");
  const last = Math.max(...received.map((c) => c.id));
  assert.equal(new Set(received.map((c) => c.id)).size, received.length, "no case arrived twice");
  const message = `${received.length} received + ${r.dropped} dropped, last id ${last}`;
  if (async) assert.ok(received.length + r.dropped >= last + 1, message);
  else assert.equal(received.length + r.dropped, last + 1, message);
}

test("time from fork to the first streamed test case (printed, not asserted)", async () => {
  const root = workspace("esm-vitest");
  const cold = await run(root, "test/props.test.ts", ["math", "double is even"]);
  assert.equal(cold.result.outcome, "passed", cold.result.reason);
  const warm = prewarmRunner(RUNNER);
  await new Promise((r) => setTimeout(r, 2500)); // the runner starts esbuild while the user reads the code
  const hot = await run(root, "test/props.test.ts", ["math", "double is even"], { warm });
  assert.equal(hot.result.outcome, "passed", hot.result.reason);
  console.log(
    `fork → first test case: cold ${cold.firstCaseMs?.toFixed(0)} ms (done ${cold.totalMs.toFixed(0)} ms); prewarmed runner ${hot.firstCaseMs?.toFixed(0)} ms (done ${hot.totalMs.toFixed(0)} ms)`,
  );
});

describe("runner", { concurrency: 3 }, () => {
  const esm = workspace("esm-vitest");
  const esmLinked = workspace("esm-vitest", "linked");
  const ESM_FILE = "test/props.test.ts";

  test("ESM .ts with vitest imports and a tsconfig paths alias: passes, streaming run-start, test cases and the result", async () => {
    const r = await run(esm, ESM_FILE, ["math", "double is even"], {
      settings: { database: null, seed: 7, maxExamples: 50 },
    });
    assert.equal(r.result.outcome, "passed", r.result.reason ?? r.result.failure?.message);
    assert.equal(r.result.exitCode, 0);
    const start = r.events[0];
    assert.ok(start?.type === "run-start");
    assert.equal(start.seed, 7);
    assert.equal(start.settings.maxExamples, 50, "the host's settings reach the engine");
    assert.equal(cases(r).filter((c) => c.status === "valid").length, 50);
    assert.equal(resultEvent(r)?.outcome, "passed");
    assert.equal(r.dropped, 0);
  });

  test("failing property: the minimal example, the seed, and the throw line in the original .ts", async () => {
    const r = await run(esm, ESM_FILE, ["math", "small numbers only"]);
    assertFailure(r, esm, ESM_FILE, "10", "throw");
    const f = r.result.failure!;
    assert.equal(f.seed, 1);
    assert.equal(f.error.name, "Error");
    assert.equal(f.error.message, "too big: 10");
    assert.equal(f.flaky, false);
    assert.match(f.message, /Minimal failing arguments/);
    assert.ok(
      r.events.some((e) => e.type === "shrink-candidate"),
      "shrinking is streamed",
    );
    assert.equal(resultEvent(r)?.repro, "10");
  });

  test("the workspace's own shrinkscope (a symlink to this package) is used, with the same results", async () => {
    const pass = await run(esmLinked, ESM_FILE, ["math", "double is even"]);
    assert.equal(pass.result.outcome, "passed", pass.result.reason);
    const fail = await run(esmLinked, ESM_FILE, ["math", "small numbers only"]);
    assertFailure(fail, esmLinked, ESM_FILE, "10", "throw");
  });

  test("the workspace's shrinkscope wins over the bundled engine", async () => {
    const root = workspace("esm-vitest", "fake");
    const r = await run(root, ESM_FILE, ["math", "double is even"]);
    assert.equal(r.result.outcome, "passed", r.result.reason);
    assert.match(r.logs, /\[workspace shrinkscope\]/, "the user's stdout is forwarded as log messages");
  });

  test("async property, and import.meta.url naming the original file", async () => {
    const r = await run(esm, ESM_FILE, ["math", "async double"]);
    assert.equal(r.result.outcome, "passed", r.result.reason);
    // Every case reached the host or was counted as dropped: on a loaded machine the outbox's time budget
    // (src/runner/outbox/budget.ts) may thin even an async run's stream (fewer than 100 received on a busy machine).
    assertAllAccountedFor(r, true);
    assert.ok(cases(r).length + r.dropped >= 100, `${cases(r).length} received + ${r.dropped} dropped`);
    const where = await run(esm, ESM_FILE, ["math", "knows where it is"]);
    assert.equal(where.result.outcome, "passed", where.result.failure?.message);
  });

  test("a plain test's failing expect: failed, no repro, located at the expect line", async () => {
    const r = await run(esm, ESM_FILE, ["expect fails"]);
    assertFailure(r, esm, ESM_FILE, "", "expect");
    assert.equal(r.result.failure?.error.name, "Error", "jest's expect throws a plain-named Error, as under jest");
    assert.match(r.result.failure!.error.message, /expect\(received\)\.toEqual\(expected\)/);
  });

  test("a hanging property is killed at the timeout and reported", async () => {
    // 8 s, not 3: on a cold, loaded machine the runner can take 3 s to bundle and start, and an interrupt that
    // arrives before the property runs is (rightly) obeyed without a kill.
    const r = await run(esm, ESM_FILE, ["hangs"], { timeoutMs: 8000 });
    assert.equal(r.result.outcome, "error");
    assert.match(r.result.reason ?? "", /timed out after 8000 ms: the property hangs/);
    assert.equal(r.result.signal, "SIGKILL", "interrupted first, but a case that never returns has to be killed");
    assert.ok(
      r.events.some((e) => e.type === "run-start"),
      "what was streamed before the hang is kept",
    );
    assert.ok(r.totalMs < 12_000);
  });

  test("a long synchronous run reaching the timeout is interrupted between cases, not killed: nothing is lost", async () => {
    // 8 s, not 4: on a loaded machine the runner could still be bundling and starting at 4 s, interrupted before
    // the property streamed a single case (as for the hanging property above).
    const r = await run(esm, ESM_FILE, ["sync forever"], { timeoutMs: 8000 });
    assert.equal(r.result.outcome, "error");
    assert.match(r.result.reason ?? "", /timed out after 8000 ms/);
    assert.equal(r.result.signal, null, "it exited by itself");
    assertAllAccountedFor(r);
  });

  test("thrown non-Errors: a string from a test, a number from a property", async () => {
    const s = await run(esm, ESM_FILE, ["throws a string"]);
    assert.equal(s.result.outcome, "failed");
    assert.deepEqual(s.result.failure?.error, { name: "thrown value", message: '"boom"' });
    assert.match(s.result.failure!.message, /not an Error: "boom"/);
    assert.ok(s.result.failure?.location?.line, "falls back to where the test is declared");
    const n = await run(esm, ESM_FILE, ["property throws a number"]);
    assert.equal(n.result.outcome, "failed");
    assert.equal(n.result.failure?.repro, "4");
    assert.deepEqual(n.result.failure?.error, { name: "thrown value", message: "42" });
  });

  test("a failed health check travels like a give-up: the result event names the check, the report carries the FailedHealthCheck", async () => {
    const r = await run(esm, ESM_FILE, ["filters too much"]);
    assert.equal(r.result.outcome, "failed", r.result.reason);
    const f = r.result.failure;
    assert.equal(f?.error.name, "FailedHealthCheck");
    assert.match(f?.message ?? "", /^FailedHealthCheck: Health check filterTooMuch failed/);
    assert.ok(f?.message.includes('settings: { suppressHealthCheck: ["filterTooMuch"] }'), f?.message);
    const result = resultEvent(r);
    assert.equal(result?.outcome, "gave-up");
    assert.equal(result?.healthCheck, "filterTooMuch");
    assert.match(result?.message ?? "", /Health check filterTooMuch failed/);
  });

  test("process.exit in a property: error with the exit code and the output", async () => {
    const r = await run(esm, ESM_FILE, ["exits"]);
    assert.equal(r.result.outcome, "error");
    assert.equal(r.result.exitCode, 3);
    assert.match(r.result.reason ?? "", /exited with code 3 before the test finished/);
    assert.match(r.result.reason ?? "", /about to exit/);
  });

  test("an exception thrown in a timer: error with its stack", async () => {
    const r = await run(esm, ESM_FILE, ["uncaught in a timer"]);
    assert.equal(r.result.outcome, "error");
    assert.match(r.result.reason ?? "", /uncaught exception/);
    assert.match(r.result.reason ?? "", /late boom/);
    assert.match(r.result.reason ?? "", /props\.test\.ts:\d+/, "the stack names the original file");
  });

  test("an unknown test name: not-found, with the tests the file registers", async () => {
    const r = await run(esm, ESM_FILE, ["math", "no such test"]);
    assert.equal(r.result.outcome, "not-found");
    assert.ok(r.result.tests?.some((t) => t.join("/") === "math/double is even"));
    assert.ok(r.result.tests?.some((t) => t.join("/") === "hangs"));
    assert.equal(r.events.length, 0);
  });

  test("stop during a long async property: the runner answers 'stopped' and exits, keeping the events", async () => {
    let stoppedAt = 0;
    const r = await run(esm, ESM_FILE, ["slow forever"], {
      stopGraceMs: 5000, // generous, so that a loaded machine cannot turn "exited by itself" into a kill
      onEvents(events, handle) {
        if (stoppedAt === 0 && events.filter((e) => e.type === "test-case").length >= 5) {
          stoppedAt = performance.now();
          handle.stop();
        }
      },
    });
    assert.equal(r.result.outcome, "stopped");
    assert.equal(r.result.signal, null, "it exited by itself, not killed");
    assert.ok(cases(r).length >= 5);
    assert.ok(performance.now() - stoppedAt < 2500);
  });

  test("stop during a long synchronous run: the runner unwinds between cases and answers 'stopped' itself", async () => {
    let stopped = false;
    const r = await run(esm, ESM_FILE, ["sync forever"], {
      stopGraceMs: 5000,
      onEvents(events, handle) {
        if (!stopped && events.filter((e) => e.type === "test-case").length >= 200) {
          stopped = true;
          handle.stop();
        }
      },
    });
    assert.equal(r.result.outcome, "stopped");
    assert.equal(r.result.signal, null, "it exited by itself, not killed");
    assert.equal(r.result.exitCode, 0);
    assert.ok(cases(r).length >= 200);
    assertAllAccountedFor(r);
  });

  test("stop during a synchronous hang: killed after the grace period, still 'stopped'", async () => {
    let stopping = false;
    const r = await run(esm, ESM_FILE, ["hangs"], {
      onEvents(events, handle) {
        // Not at once: stopped before its first case starts, the run would unwind cleanly instead.
        if (!stopping && events.some((e) => e.type === "run-start")) setTimeout(() => handle.stop(), 300);
        stopping = true;
      },
    });
    assert.equal(r.result.outcome, "stopped");
    assert.equal(r.result.signal, "SIGKILL");
  });

  test("a runner forked plainly (IPC only, no events pipe) still works: messages come over IPC", async () => {
    const child = fork(RUNNER, [], { serialization: "advanced", stdio: ["pipe", "pipe", "pipe", "ipc"], execArgv: [] });
    const messages: RunnerMessage[] = [];
    const done = new Promise<DoneMessage>((resolve) =>
      child.on("message", (m: RunnerMessage) => (m.type === "done" ? resolve(m) : messages.push(m))),
    );
    child.send({
      type: "run",
      file: path.join(esm, ESM_FILE),
      testPath: ["math", "small numbers only"],
      workspaceRoot: esm,
      settings: { database: null, seed: 1 },
    });
    const result = await done;
    await new Promise((resolve) => child.once("exit", resolve));
    assert.equal(result.outcome, "failed");
    assert.equal(result.failure?.repro, "10");
    assert.ok(messages.some((m) => m.type === "events" && m.events.some((e) => e.type === "test-case")));
  });

  test("CJS .ts with jest globals: nested describes, each level's hooks in order, only the chosen test", async () => {
    const root = workspace("cjs-jest");
    const file = "test/nested.test.ts";
    const r = await run(root, file, ["outer", "inner", "sum is commutative"]);
    assert.equal(r.result.outcome, "passed", r.result.reason ?? r.result.failure?.message);
    assert.match(
      r.logs,
      /hooks: root beforeAll, outer beforeAll, outer beforeEach, inner beforeEach, inner afterEach, outer afterEach, outer afterAll, root afterAll\n/,
    );
    const fail = await run(root, file, ["outer", "inner", "lists have no 3"]);
    assertFailure(fail, root, file, "[3]", "contain");
    assert.match(fail.result.failure!.error.message, /not\.toContain\(expected\)[^]*Expected value: not 3/);
  });

  test("process.abort(): error naming the signal", async () => {
    const root = workspace("cjs-jest");
    const r = await run(root, "test/nested.test.ts", ["aborts"]);
    assert.equal(r.result.outcome, "error");
    assert.equal(r.result.signal, "SIGABRT");
    assert.match(r.result.reason ?? "", /killed by SIGABRT/);
  });

  test("node:test style .mjs: default import, a context with a subtest, (t, done), async failure", async () => {
    const root = workspace("node-test", "linked");
    const file = "test/props.test.mjs";
    const pass = await run(root, file, ["reverse twice"]);
    assert.equal(pass.result.outcome, "passed", pass.result.reason ?? pass.result.failure?.message);
    const sub = await run(root, file, ["with context"]);
    assertFailure(sub, root, file, "1000", "subtest");
    const done = await run(root, file, ["suite", "done style"]);
    assert.equal(done.result.outcome, "passed", done.result.reason ?? done.result.failure?.message);
    const async = await run(root, file, ["suite", "fails async"]);
    assert.equal(async.result.outcome, "failed");
    assert.equal(async.result.failure?.repro, "0, 5");
  });

  test("mocha style .js: globals, this.timeout, before/beforeEach(done)", async () => {
    const root = workspace("mocha");
    const file = "test/props.spec.js";
    const hooks = await run(root, file, ["mocha suite", "has run its hooks"]);
    assert.equal(hooks.result.outcome, "passed", hooks.result.reason ?? hooks.result.failure?.message);
    const pass = await run(root, file, ["mocha suite", "strings round-trip"]);
    assert.equal(pass.result.outcome, "passed", pass.result.reason ?? pass.result.failure?.message);
    const fail = await run(root, file, ["mocha suite", "no long strings"]);
    assertFailure(fail, root, file, '"000"', "long");
  });

  test("a syntax error: compile-error at the right 1-based line, then done 'error'", async () => {
    const root = workspace("syntax-error");
    const file = path.join(root, "test/broken.test.ts");
    const r = await run(root, "test/broken.test.ts", ["fine"]);
    assert.equal(r.result.outcome, "error");
    assert.match(r.result.reason ?? "", /does not compile/);
    assert.equal(r.compileErrors.length, 1);
    const [e] = r.compileErrors;
    assert.equal(e.location?.file, file);
    assert.equal(e.location?.line, markLine(file, "syntax"));
    assert.equal(e.location?.column, "const y: number = ".length + 1);
    assert.match(e.message, /Unexpected ";"/);
  });
});

describe("machines", { concurrency: 3 }, () => {
  const root = workspace("machines");
  const FILE = "test/ledger.test.ts";
  /** The rule steps of each test case the engine streamed (machine cases present their steps). */
  const ruleSteps = (r: Run) =>
    cases(r).map((c) =>
      c.presentation?.kind === "steps" ? c.presentation.steps.filter((s) => s.kind === "rule").length : -1,
    );

  test("a failing machine: the FailureReport presents the minimal steps, the Explanation and the state, located at the invariant's assertion", async () => {
    const r = await run(root, FILE, ["ledger"]);
    const repro = [
      "const state = new LedgerMachine();",
      'const accounts_0 = state.open({ name: "a" });',
      "state.transfer({ src: accounts_0, dst: accounts_0, amount: 1 });",
      "state.totalsMatch();",
    ].join("\n");
    assertFailure(r, root, FILE, repro, "invariant");
    const f = r.result.failure!;
    assert.equal(f.error.name, "AssertionError");
    assert.match(f.error.message, /the ledger made money/);
    const p = f.presentation;
    assert.ok(p.kind === "steps", JSON.stringify(p));
    assert.equal(p.className, "LedgerMachine");
    assert.deepEqual(
      p.steps.map((s) => [s.kind, s.name, s.args, s.target]),
      [
        ["rule", "open", '{ name: "a" }', "accounts_0"],
        ["rule", "transfer", "{ src: accounts_0, dst: accounts_0, amount: 1 }", undefined],
        ["invariant", "totalsMatch", "", undefined],
      ],
    );
    assert.deepEqual(p.steps.map((s) => s.code).join("\n"), repro.split("\n").slice(1).join("\n"));
    assert.deepEqual(
      p.steps.map((s) => s.free ?? []),
      [["name"], [], []],
      "the explain phase's free step arguments reach the host",
    );
    assert.deepEqual(p.failedIn, { kind: "invariant", name: "totalsMatch" });
    assert.equal(p.explanation, "Explanation: assertion failed in invariant totalsMatch");
    assert.equal(p.state, 'balances [["a",101]]');
    assert.equal(resultEvent(r)?.presentation?.kind, "steps", "the result event presents it too");
    assert.ok(
      ruleSteps(r).every((n) => n >= 0),
      "every streamed case of a machine presents its steps",
    );
  });

  test("stepCount from RunSettings bounds a machine that sets none; a machine's own stepCount wins (the editor agrees with CI)", async () => {
    const settings = { database: null, seed: 1, maxExamples: 40 };
    const bounded = await run(root, FILE, ["counter without its own stepCount"], {
      settings: { ...settings, stepCount: 3 },
    });
    assert.equal(bounded.result.outcome, "passed", bounded.result.reason ?? bounded.result.failure?.message);
    assert.equal(Math.max(...ruleSteps(bounded)), 3, "sequences reach the runner's stepCount and never pass it");
    const own = await run(root, FILE, ["counter"], { settings: { ...settings, stepCount: 3 } });
    assert.equal(own.result.outcome, "passed", own.result.reason);
    const longest = Math.max(...ruleSteps(own));
    assert.ok(
      longest > 3 && longest <= 20,
      `the machine's own stepCount (20) bounds them, not the editor's 3: longest ${longest}`,
    );
    const invalid = await run(root, FILE, ["counter without its own stepCount"], {
      settings: { ...settings, stepCount: 0 },
    });
    assert.ok(
      Math.max(...ruleSteps(invalid)) > 3,
      "a stepCount that is not a positive integer is dropped (the default 50 applies)",
    );
  });
});

describe("schema integrations (shrinkscope/zod, shrinkscope/json-schema)", { concurrency: 2 }, () => {
  const FILE = "test/user.test.ts";
  /** The zod fixture with the repository's zod beside it, and the engine bundled or the workspace's own. */
  const zodWorkspace = (engine: EngineSource): string => {
    const root = workspace("zod", engine);
    fs.mkdirSync(path.join(root, "node_modules"), { recursive: true });
    fs.symlinkSync(path.join(ROOT, "node_modules", "zod"), path.join(root, "node_modules", "zod"), "junction");
    return root;
  };

  for (const engine of ["bundled", "linked"] as const) {
    test(`with the ${engine} engine, a fromZod property fails with the schema's output and carries the input it parsed, for Convert`, async () => {
      const root = zodWorkspace(engine);
      const r = await run(root, FILE, ["nobody is retired"]);
      assertFailure(r, root, FILE, '{ name: "", age: { years: 65 } }', "retired");
      assert.deepEqual(r.result.failure!.presentation, {
        kind: "arguments",
        text: '{ name: "", age: { years: 65 } }',
        inputs: ['{ name: "", age: 65 }'],
      });
      assert.deepEqual(resultEvent(r)?.presentation, r.result.failure!.presentation, "the result event carries it too");
      const tags = await run(root, FILE, ["tags are short"]);
      assertFailure(tags, root, FILE, '["", ""]', "tags");
    });
  }
});

describe("fast-check suites (shrinkscope/fc)", { concurrency: 2 }, () => {
  const FILE = "test/sort.test.ts";
  for (const engine of ["bundled", "linked"] as const) {
    test(`with the ${engine} engine, a test's fc.assert runs on the engine: its minimal failure, where it failed, and its cases`, async () => {
      const root = workspace("fc", engine);
      const r = await run(root, FILE, ["sorting puts numbers in order"]);
      assertFailure(r, root, FILE, "[-1, -2]", "order");
      assert.ok(cases(r).length > 0, "the panel gets the run's test cases");
    });
  }
});

describe("schedules (simTest)", { concurrency: 3 }, () => {
  const root = workspace("schedules");
  const FILE = "test/log.test.ts";

  test("a schedule failure: the FailureReport carries the minimal workload and the failing seed's schedule, as the result event does", async () => {
    const r = await run(root, FILE, ["the log keeps every append"]);
    assertFailure(r, root, FILE, '2, ["a"], 0', "lost");
    const f = r.result.failure!;
    // The explain phase's marks travel with it: the payloads and the delay do not matter, the writer count does.
    assert.deepEqual(f.presentation, {
      kind: "arguments",
      text: '2, ["a"], 0',
      args: [
        { text: "2", free: false },
        { text: '["a"]', free: true },
        { text: "0", free: true },
      ],
    });
    assert.equal(f.error.name, "ScheduleFailure");
    assert.match(f.error.message, /lost 1 appends/);
    const s = f.schedule;
    assert.ok(s !== undefined, "the report carries the schedule");
    assert.ok(Number.isSafeInteger(s.seed) && s.seed >= 0 && s.seed < 8);
    assert.deepEqual(
      s.passedBefore,
      Array.from({ length: s.passedBefore.length }, (_, i) => i),
      "the seeds before it passed, in order",
    );
    assert.equal(s.strategy, "random");
    assert.match(s.traceHash, /^[0-9a-f]{16}$/);
    assert.deepEqual(s.tasks, ["main", "task 2", "task 3"]);
    assert.ok(s.events.length > 0 && s.events.every((e) => s.tasks.includes(e.task) && Number.isSafeInteger(e.t)));
    assert.deepEqual(s.events[s.events.length - 1], {
      t: 0,
      task: "main",
      what: "rejected: AssertionError: lost 1 appends",
    });
    assert.equal(s.truncated, 0);
    assert.ok(s.schedule.length > 0 && s.schedule.every((d) => Number.isSafeInteger(d) && d >= 0));
    assert.equal(s.deviations.length, s.schedule.filter((d) => d !== 0).length);
    assert.match(s.text, new RegExp(`^explore: failed at seed ${s.seed} `));
    assert.deepEqual(resultEvent(r)?.schedule, s, "the result event carries the same schedule");
    // The same run again: the same seed, schedule and trace (exploration is deterministic).
    const again = await run(root, FILE, ["the log keeps every append"]);
    assert.deepEqual(
      [
        again.result.failure?.schedule?.seed,
        again.result.failure?.schedule?.schedule,
        again.result.failure?.schedule?.traceHash,
      ],
      [s.seed, s.schedule, s.traceHash],
    );
  });

  test("a schedule that differs from FIFO arrives whole: the deviation, which task ran before which, named tasks", async () => {
    const r = await run(root, FILE, ["readers never see a missing config"]);
    assertFailure(r, root, FILE, "1", "config");
    const s = r.result.failure!.schedule!;
    assert.deepEqual(s.tasks, ["main", "task 2 (reader 1)", "task 3 (reload)"]);
    assert.equal(s.deviations.length, 1);
    const d = s.deviations[0]!;
    assert.equal(
      s.schedule[d.decision - 1],
      s.schedule.find((x) => x !== 0),
    );
    assert.match(`${d.chosen} / ${d.fifo}`, /^task 3 \(reload\) \(.+\) \/ task 2 \(reader 1\) \(.+\)$/);
  });

  test("a simTest property that holds passes, with no schedule anywhere", async () => {
    const r = await run(root, FILE, ["the guarded log keeps every append"], {
      settings: { database: null, seed: 1, maxExamples: 30 },
    });
    assert.equal(r.result.outcome, "passed", r.result.reason ?? r.result.failure?.message);
    assert.equal(r.result.failure, undefined);
    assert.equal(resultEvent(r)?.schedule, undefined);
  });
});
