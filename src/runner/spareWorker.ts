/**
 * A spare vitest worker, started while the user is not waiting.
 *
 * vitest (4.x, `pool: "forks"` with isolation, its default) forks a new worker process for every test file it
 * runs, and that worker imports the test environment (`jsdom` alone is ~1.1 s on a small machine) before the
 * first line of the test. In the warm server (vitestServer.ts) that was most of a click's wait. So when a run
 * ends we fork the next worker ourselves, with the same script, arguments, environment and options vitest used
 * for the last one, plus a `--require` of a file that imports the environment's package into Node's module cache
 * (vitest's own `import("jsdom")` then finds it there). When vitest forks its next worker with the same
 * arguments it gets the spare; with any other arguments (a changed config, another project) the spare is killed
 * and vitest's fork runs as it would have. The test runs in a process exactly like the one vitest would have
 * started, started earlier: the only trace is that `--require` in the worker's `process.execArgv`.
 *
 * vitest imports `fork` from `node:child_process` as an ES binding; `syncBuiltinESMExports` makes the replaced
 * function what that binding sees. vitest's worker speaks only when spoken to, so nothing it could say while it
 * waits (no listener yet) is lost; its output waits in its pipe until vitest reads it. A spare costs one idle
 * process (~100 MB with jsdom) while the server runs.
 */
import childProcess, { type ChildProcess, type ForkOptions } from "node:child_process";
import * as fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import * as path from "node:path";

interface ForkCall {
  readonly modulePath: string;
  readonly args: readonly string[];
  readonly options: ForkOptions;
}

export class SpareWorker {
  private last: ForkCall | undefined;
  private spare: { key: string; child: ChildProcess; listening: () => void } | undefined;
  private readonly realFork = childProcess.fork;
  /** Forks the spare has served (tests). */
  served = 0;

  /**
   * @param isWorker whether a fork is of vitest's worker script (the only forks a spare stands in for)
   * @param preloadFile where to write the file the spare `--require`s
   * @param onServed called when a spare is handed to vitest
   */
  constructor(
    private readonly isWorker: (modulePath: string) => boolean,
    private readonly preloadFile: string,
    private readonly onServed: () => void = () => {},
  ) {
    const self = this;
    const real = this.realFork;
    childProcess.fork = function fork(this: unknown, ...a: unknown[]): ChildProcess {
      const call = forkCall(a);
      if (call === undefined || !self.isWorker(call.modulePath))
        return (real as (...x: unknown[]) => ChildProcess).apply(this, a);
      self.last = call;
      return self.take(keyOf(call)) ?? real(call.modulePath, [...call.args], call.options);
    } as typeof childProcess.fork;
    syncBuiltinESMExports();
  }

  /**
   * Fork the next worker now, like vitest's last one, with `modules` (absolute paths) already imported. Does
   * nothing before vitest forked a worker or while a spare waits.
   */
  prepare(modules: readonly string[]): void {
    if (this.last === undefined || this.spare !== undefined) return;
    const call = this.last;
    fs.writeFileSync(this.preloadFile, preloadSource(modules));
    const execArgv = [...(call.options.execArgv ?? process.execArgv), "--require", this.preloadFile];
    const child = this.realFork(call.modulePath, [...call.args], { ...call.options, execArgv });
    // Until vitest takes it, a failure to start is ours to swallow: vitest then forks its own.
    const ignore = (): void => {};
    const exited = (): void => {
      if (this.spare?.child === child) this.spare = undefined;
    };
    child.on("error", ignore);
    child.on("exit", exited);
    const listening = (): void => {
      child.off("error", ignore);
      child.off("exit", exited);
    };
    this.spare = { key: keyOf(call), child, listening };
  }

  /** Kill the waiting spare and give `fork` back (the server closes). */
  dispose(): void {
    this.spare?.child.kill();
    this.spare = undefined;
    childProcess.fork = this.realFork;
    syncBuiltinESMExports();
  }

  private take(key: string): ChildProcess | undefined {
    const spare = this.spare;
    this.spare = undefined;
    if (spare === undefined) return undefined;
    const { child } = spare;
    if (spare.key !== key || child.exitCode !== null || child.signalCode !== null || !child.connected) {
      child.kill();
      return undefined;
    }
    spare.listening();
    this.served++;
    this.onServed();
    return child;
  }
}

/** fork(modulePath[, args][, options]) as one shape; undefined for a call we do not understand. */
function forkCall(a: unknown[]): ForkCall | undefined {
  const [modulePath, second, third] = a;
  if (typeof modulePath !== "string") return undefined;
  if (Array.isArray(second)) return { modulePath, args: second as string[], options: (third ?? {}) as ForkOptions };
  if (second === undefined || (typeof second === "object" && second !== null))
    return { modulePath, args: [], options: (second ?? {}) as ForkOptions };
  return undefined;
}

function keyOf(call: ForkCall): string {
  const { env, ...rest } = call.options;
  const sortedEnv =
    env === undefined
      ? undefined
      : Object.fromEntries(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify([path.resolve(call.modulePath), call.args, sortedEnv, rest]);
}

/** A module that requires each of `modules`; one that fails is left for vitest to report when it imports it. */
function preloadSource(modules: readonly string[]): string {
  return modules.map((m) => `try { require(${JSON.stringify(m)}); } catch {}\n`).join("");
}
