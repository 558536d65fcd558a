/**
 * Running a property through the user's own test runner (a command from runnerDetect.ts), with the panel fed
 * out of band: the engine inside loads the tap (src/runner/tap.ts) named in the environment, and the tap
 * appends the same RunnerMessages the bundled runner sends to files in a folder made for this run. Node only,
 * no vscode import: the extension and the tests share it, and it answers with runnerClient.ts's RunHandle, so the
 * rest of the host does not care which path ran.
 *
 * Always exactly one result, as with the bundled runner:
 *   - the tap's `done` (passed, failed with the shrunk example, error for a give-up, stopped), checked against
 *     the runner's exit: a property that passed in a run the runner failed (a hook, a matching second test)
 *     is an error naming the runner's output;
 *   - no `done` and the runner exited 0: nothing ran ("not-found" — the name filter matched no property);
 *   - no `done` and a non-zero exit or a signal: an error with the tail of the runner's output (a compile
 *     error, a missing config, a crash);
 *   - stop(): `stop` is created in the folder (the tap throws StopRun between test cases), and when the runner
 *     goes quiet for the grace period, its whole process group is killed; timeout: the same, as an error.
 * The runner is started in a process group of its own, so its workers (vitest's forks, jest's workers) go too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FrameDecoder } from "../shared/frames.ts";
import { isRunnerMessage, TAP_ENV, type DoneMessage, type RunnerMessage, type RunRequest } from "../shared/protocol.ts";
import { Supervision, type RunHandle, type RunResult } from "./runnerClient.ts";
import { ANSI, compileErrorsIn } from "./runnerErrors.ts";

/** A runner's command line for one test: `execPath args…` in `cwd`. */
export interface RunnerCommand {
  readonly execPath: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
}

export interface StartExternalRunOptions {
  readonly command: RunnerCommand;
  readonly request: RunRequest;
  /** Absolute path of dist/tap.cjs. */
  readonly tapModule: string;
  readonly timeoutMs: number;
  /** How long stop() waits for the runner to go quiet before killing it (default 1000 ms). */
  readonly stopGraceMs?: number;
  /** Every validated message except `done`, in order; the runner's own output arrives as `log` messages. */
  readonly onMessage: (message: Exclude<RunnerMessage, DoneMessage>) => void;
  readonly baseEnv?: NodeJS.ProcessEnv;
}

const TAIL_CHARS = 16 * 1024;
const POLL_MS = 40;

/** Reads the tap's message files as they grow: framed messages (src/shared/frames.ts), a file per process. */
class TapReader {
  private readonly offsets = new Map<string, number>();
  private readonly decoders = new Map<string, FrameDecoder>();
  constructor(
    private readonly dir: string,
    private readonly onMessage: (m: unknown) => void,
  ) {}

  /** Reads what was appended since the last poll; true when anything arrived. */
  poll(): boolean {
    let names: string[];
    try {
      names = fs
        .readdirSync(this.dir)
        .filter((n) => n.startsWith("messages-"))
        .sort();
    } catch {
      return false;
    }
    let any = false;
    for (const name of names) {
      const file = path.join(this.dir, name);
      const from = this.offsets.get(name) ?? 0;
      let chunk: Buffer;
      try {
        const size = fs.statSync(file).size;
        if (size <= from) continue;
        chunk = Buffer.alloc(size - from);
        const fd = fs.openSync(file, "r");
        try {
          fs.readSync(fd, chunk, 0, chunk.length, from);
        } finally {
          fs.closeSync(fd);
        }
      } catch {
        continue;
      }
      any = true;
      this.offsets.set(name, from + chunk.length);
      let decoder = this.decoders.get(name);
      if (decoder === undefined) this.decoders.set(name, (decoder = new FrameDecoder()));
      decoder.push(chunk).forEach(this.onMessage);
    }
    return any;
  }
}

function tail(text: string, max: number): string {
  const t = condenseStacks(text.replace(ANSI, "")).trimEnd();
  return t.length <= max ? t : `…${t.slice(-max)}`;
}

const FRAME = /^\s+at\s/;
const FRAMES_KEPT = 3;

/**
 * Each stack trace cut to its first frames. A runner's compile error is a message followed by dozens of frames
 * of the runner's own parser (jest: babel's, ~4 KB), which would push the message itself out of the reason's
 * tail; the whole output still goes to the output channel.
 */
function condenseStacks(text: string): string {
  const out: string[] = [];
  let run = 0;
  let dropped = 0;
  const flush = () => {
    if (dropped > 0) out.push(`    … ${dropped} more frame${dropped === 1 ? "" : "s"}`);
    dropped = 0;
  };
  for (const line of text.split("\n")) {
    if (FRAME.test(line)) {
      if (++run > FRAMES_KEPT) dropped++;
      else out.push(line);
      continue;
    }
    flush();
    run = 0;
    out.push(line);
  }
  flush();
  return out.join("\n");
}

/**
 * The runner's environment: the user's (NODE_OPTIONS and the like are theirs: kept), the command's, and the
 * tap's variables, which are ours alone. Also used by Debug property.
 */
export function tapEnvironment(
  command: RunnerCommand,
  request: RunRequest,
  tapModule: string,
  dir: string,
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: NodeJS.ProcessEnv = { ...base };
  delete env.ELECTRON_RUN_AS_NODE; // the host's, under VS Code: not for the user's node (the command may set it)
  Object.assign(env, command.env);
  env.NO_COLOR = "1"; // the output channel shows text, not escape codes
  delete env.FORCE_COLOR;
  env[TAP_ENV.dir] = dir;
  env[TAP_ENV.module] = tapModule;
  env[TAP_ENV.settings] = JSON.stringify(request.settings);
  env[TAP_ENV.file] = path.resolve(request.file);
  env[TAP_ENV.root] = path.resolve(request.workspaceRoot);
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/**
 * Where one run's messages come from and how it ends: a runner process started for it (spawnRunner), or one
 * run of a warm runner (runnerServer.ts). `finished` resolves as a process exit would: code 0 when the runner
 * counted the run a success.
 */
export interface RunSource {
  /** The folder the tap writes this run's messages (and reads `stop`) in. */
  readonly dir: string;
  readonly pid: number | undefined;
  readonly finished: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>;
  /** The runner's output while this run lasts. */
  onOutput(listener: (stream: "stdout" | "stderr", text: string) => void): void;
  /** Kill what runs the property (a process group; for a warm runner, the whole runner). */
  kill(): void;
  /** After the result: remove the run's folder. */
  cleanup(): void;
}

/** A runner process for this one run, in a process group of its own (its workers die with it). */
export function spawnRunner(o: StartExternalRunOptions): RunSource {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-tap-"));
  const child = spawn(o.command.execPath, [...o.command.args], {
    cwd: o.command.cwd,
    env: tapEnvironment(o.command, o.request, o.tapModule, dir, o.baseEnv),
    stdio: ["ignore", "pipe", "pipe"],
    detached: process.platform !== "win32",
  });
  const listeners: ((stream: "stdout" | "stderr", text: string) => void)[] = [];
  child.stdout?.setEncoding("utf8").on("data", (d: string) => listeners.forEach((l) => l("stdout", d)));
  child.stderr?.setEncoding("utf8").on("data", (d: string) => listeners.forEach((l) => l("stderr", d)));
  const finished = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.on("error", (error) => {
      if (child.pid === undefined) resolve({ code: null, signal: null, error });
    });
    child.once("exit", (code, signal) => {
      const t = setTimeout(() => resolve({ code, signal }), 300);
      child.once("close", () => (clearTimeout(t), resolve({ code, signal })));
    });
  });
  return {
    dir,
    pid: child.pid,
    finished,
    onOutput: (l) => void listeners.push(l),
    kill: () => killGroup(child),
    cleanup() {
      // Workers the runner left behind share its process group, which outlives it.
      if (child.pid !== undefined && process.platform !== "win32") {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // none left
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** SIGKILL a detached child's whole process group (the runner and the workers it forked). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (process.platform === "win32") child.kill("SIGKILL");
    else process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

export function startExternalRun(o: StartExternalRunOptions): RunHandle {
  return superviseRun(spawnRunner(o), o);
}

/** One result from a run source, whatever happens: see the file's opening comment. */
export function superviseRun(
  source: RunSource,
  o: Pick<StartExternalRunOptions, "request" | "timeoutMs" | "stopGraceMs" | "onMessage">,
): RunHandle {
  const { dir } = source;
  let finished = false;
  let stdoutTail = "";
  let stderrTail = "";
  const run = new Supervision(
    o.stopGraceMs ?? 1000,
    () => {
      try {
        fs.writeFileSync(path.join(dir, "stop"), "");
      } catch {
        // the folder is gone: the kill that follows remains
      }
    },
    () => source.kill(),
  );
  const deliver = (m: Exclude<RunnerMessage, DoneMessage>) => Supervision.deliver(o.onMessage, m);
  const reader = new TapReader(dir, (m) => {
    if (!isRunnerMessage(m)) return;
    if (m.type === "done") {
      run.done ??= m;
      return;
    }
    deliver(m);
  });
  source.onOutput((stream, d) => {
    if (finished) return;
    if (stream === "stdout") stdoutTail = (stdoutTail + d).slice(-TAIL_CHARS);
    else stderrTail = (stderrTail + d).slice(-TAIL_CHARS);
    deliver({ type: "log", stream, text: d.replace(ANSI, "") });
  });

  const poll = () => {
    if (!finished && reader.poll()) run.lastMessage = Date.now();
  };
  run.keep(setInterval(poll, POLL_MS));
  // Read as soon as the tap writes (the run's first case sooner by up to a poll); the interval stays for file
  // systems that do not report changes.
  let watcher: fs.FSWatcher | undefined;
  try {
    watcher = fs.watch(dir, poll);
    watcher.on("error", () => watcher?.close());
  } catch {
    // out of inotify watches, or no such support: polling alone
  }
  run.limit(o.timeoutMs);

  const result = source.finished.then(({ code, signal, error }): RunResult => {
    finished = true;
    watcher?.close();
    run.end();
    reader.poll(); // what was written just before the end
    source.cleanup();
    const base = { exitCode: code, signal, stderr: stderrTail };
    const runnerOutput = () => {
      const out = [
        stderrTail && `stderr:\n${tail(stderrTail, 4000)}`,
        stdoutTail && `stdout:\n${tail(stdoutTail, 4000)}`,
      ]
        .filter(Boolean)
        .join("\n\n");
      return out ? `\n\n${out}` : " (it printed nothing)";
    };
    const done = run.done;
    if (run.verdict !== undefined) return { type: "done", ...run.verdict, ...base };
    if (run.stopRequested)
      return {
        type: "done",
        outcome: "stopped",
        reason: run.stoppedReason(done?.outcome !== "stopped" && signal !== null),
        ...base,
      };
    if (done !== undefined) {
      if (done.outcome === "passed" && code !== 0)
        return {
          type: "done",
          outcome: "error",
          reason: `the property passed, but the test runner reported a failure (exit code ${code}): a hook, or another test matching the name${runnerOutput()}`,
          ...base,
        };
      return { ...done, ...base };
    }
    if (error !== undefined)
      return {
        type: "done",
        outcome: "error",
        reason: `the test runner could not be started (${error.message})`,
        ...base,
      };
    if (code === 0)
      return {
        type: "done",
        outcome: "not-found",
        reason: `the test runner ran no property named ${JSON.stringify(o.request.testPath.join(" > "))} in ${path.basename(o.request.file)}${runnerOutput()}`,
        ...base,
      };
    // A test file that does not compile: the same squiggle the bundled runner's compile-error gives.
    const compileErrors = compileErrorsIn(`${stderrTail}\n${stdoutTail}`, o.request.file);
    if (compileErrors.length > 0) deliver({ type: "compile-error", errors: compileErrors });
    const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
    return {
      type: "done",
      outcome: "error",
      reason: `the test runner ${how} before the property ran${runnerOutput()}`,
      ...base,
    };
  });

  return {
    done: result,
    pid: source.pid,
    stop: () => run.stop(!finished),
  };
}
