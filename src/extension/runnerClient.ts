/**
 * The host's side of the runner (Node only, no vscode import — the extension and the tests share it):
 * fork dist/runner.js, send one RunRequest, pass the validated messages on, and always end with exactly one
 * result — the runner's own `done`, or one made here when the runner cannot say it:
 *
 *   - stop(): interrupt the runner — over IPC, and with a byte on its stdin, which reaches even a synchronous
 *     property between two test cases (channel.ts) — so it unwinds, sends what it queued and answers
 *     "stopped". If it goes quiet for the grace period instead (a test case that never returns), SIGKILL:
 *     "stopped" either way, with everything received kept;
 *   - timeout (the property hangs or runs too long): the same interrupt-then-kill, reported as "error";
 *   - idle timeout (optional): no message for that long — the same, for long runs that should keep talking;
 *   - a crash (exit code, signal, abort) before `done`: "error", with the tail of the process's output.
 *
 * Cold start is dominated by esbuild-wasm's start-up in the runner; prewarmRunner() forks a runner ahead of
 * time (it starts esbuild and waits for a request) so the click-to-first-case path skips it.
 *
 * The runner's messages come on a pipe of their own (fd 4, written by its I/O worker, so they flow during a
 * synchronous property); the IPC channel carries the request and `stop`.
 *
 * @example
 *   let warm = prewarmRunner(runnerPath);                  // on activation, and again after each run
 *   const run = startRun({ runnerPath, warm, request, timeoutMs: 120_000, onMessage: (m) => panel.post(m) });
 *   warm = prewarmRunner(runnerPath);
 *   stopButton.onClick = () => run.stop();
 *   const result = await run.done;                         // exactly one, whatever happened
 */
import { fork, type ChildProcess } from "node:child_process";
import { FrameDecoder } from "../shared/frames.ts";
import { isRunnerMessage, type DoneMessage, type RunnerMessage, type RunRequest } from "../shared/protocol.ts";
import { EVENTS_FD_ENV } from "../runner/channel.ts";

export interface RunResult extends DoneMessage {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The last part of the runner's stderr (user output included). */
  readonly stderr: string;
}

export interface RunnerProcessOptions {
  /** Defaults to process.execPath (in VS Code: its Electron, run as Node with ELECTRON_RUN_AS_NODE). */
  readonly execPath?: string;
  /** Defaults to none: the host's flags (--inspect, loaders) are not the runner's business. */
  readonly execArgv?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

export interface StartRunOptions extends RunnerProcessOptions {
  /** Absolute path of dist/runner.js. */
  readonly runnerPath: string;
  readonly request: RunRequest;
  /** The whole run's budget (ms); beyond it the runner is killed and the run reported as hanging. */
  readonly timeoutMs: number;
  /** Optional: kill the runner when it has sent nothing for this long (ms). */
  readonly idleTimeoutMs?: number;
  /** How long stop() waits for the runner to exit by itself before killing it (default 1000 ms). */
  readonly stopGraceMs?: number;
  /** Every validated message except `done` (which resolves `done`), in order. */
  readonly onMessage: (message: Exclude<RunnerMessage, DoneMessage>) => void;
  /** A runner from prewarmRunner(), used if it is still alive; otherwise a fresh one is forked. */
  readonly warm?: WarmRunner;
}

export interface RunHandle {
  readonly done: Promise<RunResult>;
  stop(): void;
  readonly pid: number | undefined;
}

const TAIL_CHARS = 16 * 1024;

/** The runner's pipe carries framed messages (frames.ts). */
function readFrames(stream: NodeJS.ReadableStream | null, onMessage: (message: unknown) => void): void {
  if (stream === null) return;
  const frames = new FrameDecoder();
  stream.on("error", () => {});
  stream.on("data", (chunk: Buffer) => frames.push(chunk).forEach(onMessage));
}

/** A forked runner with its output captured from the start (a crash's explanation may be printed early). */
class RunnerProcess {
  readonly child: ChildProcess;
  private stdoutTail = "";
  private stderrTail = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>;
  claimed = false;
  /** Receives every message from the runner, whichever way it came; set by startRun. */
  deliver: (message: unknown) => void = () => {};

  constructor(runnerPath: string, o: RunnerProcessOptions) {
    const env: NodeJS.ProcessEnv = { ...(o.env ?? process.env), [EVENTS_FD_ENV]: "4" };
    // Under Electron (the VS Code extension host) the executable is Electron itself: make it act as Node.
    if (process.versions.electron !== undefined) env.ELECTRON_RUN_AS_NODE = "1";
    this.child = fork(runnerPath, [], {
      serialization: "advanced",
      // fd 3: IPC, host → runner (the request, stop); fd 4: the runner's messages, written by its I/O worker.
      stdio: ["pipe", "pipe", "pipe", "ipc", "pipe"],
      execArgv: [...(o.execArgv ?? [])],
      ...(o.execPath !== undefined ? { execPath: o.execPath } : {}),
      env,
    });
    this.child.on("message", (m: unknown) => this.deliver(m)); // a runner without the pipe falls back to IPC
    readFrames(this.child.stdio[4] as NodeJS.ReadableStream | null, (m) => this.deliver(m));
    // stdin stays open: a byte on it interrupts a synchronous property (see channel.ts).
    this.child.stdin?.on("error", () => {}); // EPIPE once the runner is gone
    this.child.stdout
      ?.setEncoding("utf8")
      .on("data", (d: string) => (this.stdoutTail = (this.stdoutTail + d).slice(-TAIL_CHARS)));
    this.child.stderr
      ?.setEncoding("utf8")
      .on("data", (d: string) => (this.stderrTail = (this.stderrTail + d).slice(-TAIL_CHARS)));
    this.exited = new Promise((resolve) => {
      // 'error' also reports failed sends and kills (always listened to: unhandled, it would throw in the
      // host); only a spawn failure means no 'exit' will follow.
      this.child.on("error", (error) => {
        if (this.child.pid === undefined) resolve({ code: null, signal: null, error });
      });
      // 'close' comes after the output is drained; a grandchild holding the pipes must not delay us long.
      this.child.once("exit", (code, signal) => {
        const t = setTimeout(() => resolve({ code, signal }), 300);
        this.child.once("close", () => (clearTimeout(t), resolve({ code, signal })));
      });
    });
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && this.child.connected;
  }

  output(): { stdout: string; stderr: string } {
    return { stdout: this.stdoutTail, stderr: this.stderrTail };
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }

  /** Ask the runner to stop: over IPC (heard between async steps) and on stdin (heard between test cases). */
  interrupt(): void {
    try {
      this.child.stdin?.write("stop\n");
      if (this.child.connected) this.child.send({ type: "stop" });
    } catch {
      // already exiting
    }
  }
}

export interface WarmRunner {
  /** Kill it if it was not used. */
  dispose(): void;
}

const warmProcesses = new WeakMap<WarmRunner, RunnerProcess>();

/** Fork a runner now, to be passed as `warm` to a later startRun (each runner serves one run). */
export function prewarmRunner(runnerPath: string, options: RunnerProcessOptions = {}): WarmRunner {
  const proc = new RunnerProcess(runnerPath, options);
  const warm: WarmRunner = { dispose: () => proc.claimed || proc.kill() };
  warmProcesses.set(warm, proc);
  return warm;
}

function tail(text: string, max: number): string {
  const t = text.trimEnd();
  return t.length <= max ? t : `…${t.slice(-max)}`;
}

/**
 * What a run's supervisor keeps and does, whichever runner it watches — the bundled one (startRun) or the
 * user's (externalRun.ts superviseRun): the runner's `done`, a timeout's verdict, a requested stop, and the
 * escalation from interrupting to killing. `interrupt` asks the runner to unwind; `kill` ends it.
 */
export class Supervision {
  done: DoneMessage | undefined;
  /** Set by the timeouts: wins over whatever the runner says after being interrupted. */
  verdict: { outcome: "error"; reason: string } | undefined;
  stopRequested = false;
  lastMessage = Date.now();
  private interruptedAt = 0;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    readonly grace: number,
    private readonly interrupt: () => void,
    private readonly kill: () => void,
  ) {}

  /** Hand `m` to the host's handler; one that throws must not end the run. */
  static deliver<M extends RunnerMessage>(onMessage: (m: M) => void, m: M): void {
    try {
      onMessage(m);
    } catch (e) {
      console.error("shrinkscope: a runner message handler threw:", e);
    }
  }

  /** Keep a timer, cleared by end(). */
  keep(timer: NodeJS.Timeout): void {
    this.timers.push(timer);
  }

  /**
   * Interrupt, then kill if the runner goes quiet for the grace period (a test case that never returns).
   * While messages keep arriving it is draining what it had queued: let it.
   */
  interruptThenKill(): void {
    if (this.done !== undefined || this.interruptedAt !== 0) return;
    this.interruptedAt = Date.now();
    this.interrupt();
    const deadline = this.interruptedAt + Math.max(10_000, 10 * this.grace);
    this.keep(
      setInterval(
        () => {
          const now = Date.now();
          if (now - Math.max(this.lastMessage, this.interruptedAt) > this.grace || now > deadline) this.kill();
        },
        Math.min(100, this.grace),
      ),
    );
  }

  /** End the run as an error with `reason`, unless it is already over. */
  timeOut(reason: string): void {
    if (this.done !== undefined || this.verdict !== undefined) return;
    this.verdict = { outcome: "error", reason };
    this.interruptThenKill();
  }

  /** The run's own time limit. */
  limit(timeoutMs: number): void {
    this.keep(
      setTimeout(
        () =>
          this.timeOut(
            `timed out after ${timeoutMs} ms: the property hangs, or runs longer than the time allowed; the run was stopped (events received so far are kept)`,
          ),
        timeoutMs,
      ),
    );
  }

  /** stop(): interrupt-then-kill, once, while the run can still be stopped. */
  stop(running: boolean): void {
    if (this.done !== undefined || this.stopRequested || !running) return;
    this.stopRequested = true;
    this.interruptThenKill();
  }

  /** The reason of a requested stop: `killed` when the runner did not answer the interrupt. */
  stoppedReason(killed: boolean): string {
    return killed
      ? `stopped on request; the runner did not respond within ${this.grace} ms (a test case that never returns) and was killed`
      : "stopped on request";
  }

  /** The run is over: no timer fires any more. */
  end(): void {
    this.timers.forEach((t) => clearTimeout(t));
  }
}

export function startRun(o: StartRunOptions): RunHandle {
  const warm = o.warm === undefined ? undefined : warmProcesses.get(o.warm);
  const proc = warm !== undefined && !warm.claimed && warm.alive ? warm : new RunnerProcess(o.runnerPath, o);
  if (warm !== undefined && warm !== proc) warm.kill();
  proc.claimed = true;
  const child = proc.child;

  const run = new Supervision(
    o.stopGraceMs ?? 1000,
    () => proc.interrupt(),
    () => proc.kill(),
  );

  proc.deliver = (m: unknown) => {
    run.lastMessage = Date.now();
    if (!isRunnerMessage(m)) return;
    if (m.type === "done") {
      if (run.verdict === undefined) run.done ??= m;
      run.keep(setTimeout(() => proc.kill(), 2000)); // it exits by itself right after `done`
      return;
    }
    Supervision.deliver(o.onMessage, m);
  };

  run.limit(o.timeoutMs);
  if (o.idleTimeoutMs !== undefined) {
    const idle = o.idleTimeoutMs;
    run.keep(
      setInterval(
        () => {
          if (Date.now() - run.lastMessage > idle)
            run.timeOut(
              `no progress for ${idle} ms: the property hangs (a test case never returns); the run was stopped`,
            );
        },
        Math.max(50, Math.min(1000, idle / 4)),
      ),
    );
  }

  try {
    child.send(o.request);
  } catch {
    // the runner is already gone: its exit explains why
  }

  const result = proc.exited.then(({ code, signal, error }): RunResult => {
    run.end();
    const { stdout, stderr } = proc.output();
    const base = { exitCode: code, signal, stderr };
    if (run.done !== undefined) return { ...run.done, ...base };
    if (run.verdict !== undefined) return { type: "done", ...run.verdict, ...base };
    if (run.stopRequested)
      return { type: "done", outcome: "stopped", reason: run.stoppedReason(signal === "SIGKILL"), ...base };
    const how =
      error !== undefined
        ? `could not be started (${error.message})`
        : signal !== null
          ? `was killed by ${signal}`
          : `exited with code ${code}`;
    const output = [stderr && `stderr:\n${tail(stderr, 4000)}`, stdout && `stdout:\n${tail(stdout, 2000)}`]
      .filter(Boolean)
      .join("\n\n");
    return {
      type: "done",
      outcome: "error",
      reason: `the runner process ${how} before the test finished${output ? `\n\n${output}` : " (it printed nothing)"}`,
      ...base,
    };
  });

  return {
    done: result,
    pid: child.pid,
    stop: () => run.stop(proc.alive),
  };
}
