/**
 * The extension's tap inside the user's own test runner (vitest, jest, mocha, node:test): the runner owns the
 * process, so the engine itself loads this module when SHRINKSCOPE_TAP_MODULE names it (src/engine/property/runnerLayer.ts,
 * runnerLayer) and asks it for the hook the bundled runner would have set: the editor's settings, and an event
 * tap that streams to the host out of band, whatever the runner's reporter prints.
 *
 * The channel is a folder (SHRINKSCOPE_TAP): each process that runs a property appends length-prefixed,
 * v8-serialised RunnerMessages to a file of its own, with synchronous writes. A file, not a pipe or socket:
 * the runner's worker processes inherit no descriptor of ours, a synchronous write needs no event loop (a
 * synchronous property holds it for the whole run) and nothing queued is lost when the runner exits at once
 * after its last test. The host (src/extension/externalRun.ts) reads the files as they grow.
 *
 * A warm runner (one vitest kept running for many runs, src/runner/vitestServer.ts) is started once with the
 * folder in its environment; each run is then described by the folder's current.json (its id, settings, file),
 * read when a property starts, and its messages go to a subfolder named by the id.
 *
 * Stop: the host creates `stop` in the folder; the tap looks for it between test cases (at most every 50 ms)
 * and throws StopRun, which unwinds the engine like the bundled runner's stop.
 *
 * The engine's `result` event carries the failure (repro, presentation, error, seed): the tap turns it into a
 * `done` message, so the host needs nothing from the runner's own output.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { now as clock } from "../engine/internals.ts";
import { encodeFrame } from "../shared/frames.ts";
import {
  CURRENT_RUN_FILE,
  TAP_ENV,
  type DoneMessage,
  type EngineEvent,
  type RunnerHook,
  type RunnerMessage,
  type RunSettings,
} from "../shared/protocol.ts";
import { StopRun } from "./channel.ts";
import { validSettings } from "./link.ts";
import { Outbox } from "./outbox.ts";
import { failureFromResult } from "./failureReport.ts";

const STOP_CHECK_MS = 50;

/** One hook per run (a warm runner's workers serve many runs); the current one. */
let current: { readonly run: string; readonly hook: RunnerHook; readonly outbox: Outbox } | undefined;
// Whatever the current run has queued is written when the runner exits (sync writes: nothing is lost).
process.on("exit", () => current?.outbox.flush());

/** What one run is: from the environment (a runner started for it), or from the folder's current.json (a warm runner). */
interface RunSpec {
  readonly run: string;
  /** Where this run's messages and its stop file go. */
  readonly dir: string;
  readonly settings: RunSettings;
  readonly file: string;
  readonly root: string;
}

function runSpec(dir: string): RunSpec {
  const fromEnv = (): RunSpec => ({
    run: "",
    dir,
    settings: parseSettings(process.env[TAP_ENV.settings]),
    file: process.env[TAP_ENV.file] ?? "",
    root: process.env[TAP_ENV.root] ?? process.cwd(),
  });
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, CURRENT_RUN_FILE), "utf8");
  } catch {
    return fromEnv();
  }
  try {
    const c = JSON.parse(text) as { run?: unknown; settings?: unknown; file?: unknown; root?: unknown };
    if (typeof c.run !== "string" || !/^[\w-]+$/.test(c.run)) return fromEnv();
    return {
      run: c.run,
      dir: path.join(dir, c.run),
      settings: validSettings((c.settings ?? {}) as RunSettings),
      file: String(c.file ?? ""),
      root: String(c.root ?? process.cwd()),
    };
  } catch {
    return fromEnv();
  }
}

function parseSettings(json: string | undefined): RunSettings {
  try {
    return validSettings(JSON.parse(json ?? "{}") as RunSettings);
  } catch {
    return {}; // the property's own settings apply
  }
}

/** Called by the engine for each property run in this process. */
export function runnerHook(): RunnerHook | undefined {
  const dir = process.env[TAP_ENV.dir];
  if (dir === undefined || dir === "") return undefined;
  const spec = runSpec(dir);
  if (current?.run === spec.run) return current.hook;
  current?.outbox.flush();
  current = { run: spec.run, ...makeHook(spec) };
  return current.hook;
}

function makeHook({ dir, settings, file, root }: RunSpec): { hook: RunnerHook; outbox: Outbox } {
  let fd: number | undefined;
  const send = (message: RunnerMessage) => {
    const frame = encodeFrame(message);
    fd ??= fs.openSync(path.join(dir, `messages-${process.pid}-${Date.now()}.bin`), "a");
    fs.writeSync(fd, frame);
  };
  const outbox = new Outbox({ send, congested: () => false });
  const stopFile = path.join(dir, "stop");
  let lastCheck = 0;
  let calls = 0;
  const checkStop = () => {
    // (the clock on the first call and every eighth after it: a call comes with every test case)
    if ((calls++ & 7) !== 0) return;
    const now = clock();
    if (now - lastCheck < STOP_CHECK_MS) return;
    lastCheck = now;
    if (fs.existsSync(stopFile)) {
      outbox.flush();
      send({ type: "done", outcome: "stopped", reason: "stopped on request" });
      throw new StopRun();
    }
  };
  const onEvent = (e: EngineEvent) => {
    outbox.event(e);
    if (e.type === "result") {
      outbox.flush();
      send(doneOf(e, file, root));
      return;
    }
    checkStop();
  };
  const observer = { ...outbox.observer(checkStop), event: onEvent };
  return { hook: { settings: { ...settings, onEvent, observer } }, outbox };
}

function doneOf(e: EngineEvent & { type: "result" }, file: string, root: string): DoneMessage {
  switch (e.outcome) {
    case "passed":
    case "exhausted":
      return { type: "done", outcome: "passed" };
    case "gave-up":
      return { type: "done", outcome: "error", reason: e.message };
    case "failed":
      return { type: "done", outcome: "failed", failure: failureFromResult(e, file, root, __dirname) };
  }
}
