/**
 * The runner: a child process the extension forks (never the extension host itself: user code may hang,
 * crash or call process.exit) to run ONE property test from a user's test file and stream what the engine
 * does over IPC. One process per run; runnerClient.ts is the host's side.
 *
 *   host ──RunRequest──▶ runner:  bundle the file (bundle.ts: esbuild-wasm, TS/JS, ESM/CJS, tsconfig paths,
 *                                 framework imports served by shim.ts) → pick the engine (link.ts: the
 *                                 workspace's shrinkscope, else dist/engine.cjs) → install the settings hook
 *                                 → load the bundle (tests register into registry.ts) → run the chosen test
 *                                 with its describe-level hooks
 *   runner ──events/log──▶ host:   batched by outbox.ts (time- and size-based, inline so a synchronous
 *                                 property that blocks the event loop still streams; beyond ~5000 test
 *                                 cases a second, or under back-pressure, it keeps each batch's first and
 *                                 last cases and counts the rest — other events are never dropped), and
 *                                 written by channel.ts's I/O worker to a pipe of their own (IPC when the
 *                                 host provided none), so they flow even while a synchronous property runs
 *   runner ──compile-error──▶ host: esbuild's errors with 1-based file positions
 *   runner ──done──▶ host:          passed | failed (failureReport.ts: repro, seed, mapped location) | error |
 *                                 not-found (with the registered test names) | stopped; then the runner exits
 *
 * Stop: a synchronous property never yields to the event loop, so the IPC `stop` would wait until the run
 * ends. So stop also arrives as a byte on stdin, which the I/O worker turns into a flag that the engine's
 * event tap checks between test cases (channel.ts): the engine unwinds, done "stopped", everything kept.
 * A case that never returns emits no events: the host kills the runner after a grace period (runnerClient.ts),
 * keeping what had reached it. Hangs are the host's to detect for the same reason (its timeout interrupts,
 * then kills); crashes (process.exit in user code, abort, a fatal error) are reported by the host from the
 * exit code and the captured output. Uncaught exceptions and unhandled rejections (e.g. thrown in a timer)
 * are caught here and reported as an error with their stack: they escaped the engine, so it cannot shrink
 * them.
 */
import * as path from "node:path";
import { isHostToRunner, type DoneMessage, type RunRequest } from "../shared/protocol.ts";
import { bundleTestFile, startBundler } from "./bundle.ts";
import { openChannel, StopRun } from "./channel.ts";
import { aliasShrinkscope, chooseEngine, installRunnerHook, loadBundle } from "./link.ts";
import { Outbox, type Sink } from "./outbox.ts";
import { captureOutput } from "./output.ts";
import { Registry } from "./registry.ts";
import { errorText, failureReport } from "./failureReport.ts";
import { contextFactory, installShim } from "./shim.ts";

// Stack traces (failure locations, and the engine's database key, which comes from the caller's frame) must
// name the user's original files, not the bundle.
process.setSourceMapsEnabled(true);

// The bundler's cold start is most of the time to the first test case: begin before the request arrives.
const bundler = startBundler();
bundler.catch(() => {}); // reported by the run that needs it

const channel = openChannel();
let sendFailed = false;
const sink: Sink = {
  send(message) {
    try {
      channel.send(message);
    } catch (e) {
      // A value the serialiser refuses: say so once (through stderr, so also as a log), and carry on.
      if (sendFailed) return;
      sendFailed = true;
      process.stderr.write(`shrinkscope runner: a ${message.type} message could not be sent: ${errorText(e)}\n`);
    }
  },
  congested: () => channel.congested(),
};
const outbox = new Outbox(sink);
let started = false;
let finished = false;

function finish(done: DoneMessage): void {
  if (finished) return;
  finished = true;
  outbox.flush();
  sink.send(done);
  // Exit once everything is written; the timeout covers a host that stopped reading.
  void channel.drain(2000).then(() => process.exit(0));
}

process.on("message", (message: unknown) => {
  if (!isHostToRunner(message)) return;
  if (message.type === "stop") {
    channel.requestStop(); // an async property still running unwinds at its next event
    finish({ type: "done", outcome: "stopped", reason: "stopped on request" });
    return;
  }
  if (started) return;
  started = true;
  run(message).then(finish, (e: unknown) =>
    finish({ type: "done", outcome: "error", reason: `the runner failed: ${errorText(e)}` }),
  );
});

// The host went away: there is no one to report to.
process.on("disconnect", () => process.exit(0));

process.on("uncaughtException", (error) => {
  process.stderr.write(`Uncaught exception: ${errorText(error)}\n`);
  finish({
    type: "done",
    outcome: "error",
    reason: `uncaught exception, outside the test's own control flow (e.g. thrown in a timer or an unawaited promise): ${errorText(error)}`,
  });
});

// User code calling process.exit: send what is queued (best effort; the host reports the exit code).
process.on("exit", () => outbox.flush());

async function run(request: RunRequest): Promise<DoneMessage> {
  const file = path.resolve(request.file);
  const root = path.resolve(request.workspaceRoot);
  try {
    process.chdir(root); // where the user's runner would run: relative paths, the default example database
  } catch {
    // keep the current folder
  }
  captureOutput((stream, text) => outbox.log(stream, text));

  const esbuild = await bundler;
  const built = await bundleTestFile(esbuild, file, root);
  void esbuild.stop(); // its service process holds the wasm's memory; this process bundles only once
  if (!built.ok) {
    outbox.flush();
    sink.send({ type: "compile-error", errors: built.errors });
    const first = built.errors[0];
    const where = first?.location
      ? ` (${path.relative(root, first.location.file)}:${first.location.line}:${first.location.column})`
      : "";
    return {
      type: "done",
      outcome: "error",
      reason: `the test file does not compile: ${first?.message ?? "unknown error"}${where}`,
    };
  }

  aliasShrinkscope(chooseEngine(file, root, path.join(__dirname, "engine.cjs")));
  const stopIfAsked = () => {
    if (channel.stopRequested()) throw new StopRun();
  };
  installRunnerHook(request.settings, (e) => (outbox.event(e), stopIfAsked()), outbox.observer(stopIfAsked));
  const registry = new Registry(contextFactory);
  installShim(registry);
  try {
    loadBundle(built.code, file);
  } catch (e) {
    return { type: "done", outcome: "error", reason: `the test file threw while loading: ${errorText(e)}` };
  }

  const entry = registry.find(request.testPath);
  if (entry === undefined) {
    const tests = registry.paths();
    return {
      type: "done",
      outcome: "not-found",
      reason: `no test ${JSON.stringify(request.testPath.join(" > "))} in ${path.relative(root, file)} (it registers ${tests.length})`,
      tests,
    };
  }
  const failure = await registry.run(entry);
  // Interrupted: whatever the test ended with (StopRun, or what the interruption caused) is not its result.
  if (channel.stopRequested() || failure?.error instanceof StopRun)
    return { type: "done", outcome: "stopped", reason: "stopped on request" };
  if (failure === undefined) return { type: "done", outcome: "passed" };
  return { type: "done", outcome: "failed", failure: failureReport(failure, entry, file, root, __dirname) };
}

/**
 * Command-line mode, for Debug property: `node dist/runner.js --request <file.json>` runs the request with no
 * host attached (the debugger launches it), printing the outcome. Breakpoints in the test file bind through
 * the bundle's source maps.
 */
const requestFlag = process.argv.indexOf("--request");
if (requestFlag >= 0) {
  started = true;
  void (async () => {
    const fs = await import("node:fs");
    const parsed: unknown = JSON.parse(fs.readFileSync(process.argv[requestFlag + 1] ?? "", "utf8"));
    if (!isHostToRunner(parsed) || parsed.type !== "run")
      throw new Error("--request: the file does not hold a run request");
    const done = await run(parsed);
    outbox.flush();
    if (done.outcome === "failed" && done.failure) process.stderr.write(`\n${done.failure.message}\n`);
    else process.stdout.write(`\n${done.outcome}${done.reason ? `: ${done.reason}` : ""}\n`);
    process.exit(done.outcome === "passed" ? 0 : 1);
  })().catch((e: unknown) => {
    process.stderr.write(`shrinkscope runner: ${errorText(e)}\n`);
    process.exit(2);
  });
}
