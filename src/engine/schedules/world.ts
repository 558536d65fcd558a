/**
 * The simulated world: one run of a workload in virtual time, on a deterministic scheduler.
 *
 * Each primitive that can make a task wait (sim.ts, and the virtual timers of virtualTimers.ts) registers a
 * *wakeup* (a task and the virtual instant it may run again) instead of a real timer. The world then runs one
 * loop:
 *
 *   drain microtasks (one real macrotask turn: every promise continuation that can run, runs)
 *   → no wakeup pending: finished (or, if the workload has not settled, a deadlock naming the blocked tasks)
 *   → the earliest instant's wakeups are the *ready* set, in the order they were registered (FIFO);
 *     with more than one, the chooser (choosers.ts) picks one: a *decision* (0 = the FIFO choice)
 *   → advance virtual time to that instant, resume the chosen task.
 *
 * So virtual time is free (an hour of sleeps takes milliseconds), and the only nondeterminism left is which
 * ready task runs first — which the seed decides. The decisions are the schedule: replaying them reproduces the
 * run exactly (same trace, same hash), and past its end the FIFO choice is taken, so a schedule prefix is a
 * schedule. Microtask order inside one turn is JavaScript's own, and is deterministic.
 *
 * After a seed fails, its decisions are what explore.ts shrinks toward FIFO.
 *
 * Failures: main's own rejection ends the run at once; a spawned task's rejection, an unhandled rejection in a
 * task and a timer callback's throw end it once main has settled (or at a deadlock or budget). The run throws
 * main's error first, else the first task's, else the fault, and keeps the others for the report.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { Random } from "../util/random.ts";
import { setRealImmediate } from "../util/realTimers.ts";
import type { Chooser } from "./choosers.ts";
import type { Act } from "./exploreOptions.ts";
import { mixSeed } from "./choosers.ts";
import type { Failure, TraceEvent, Wakeup } from "./task.ts";
import { Task } from "./task.ts";
import { TraceHash } from "./traceHash.ts";
import { errorLine } from "../print/errorLine.ts";

/** The simulated task running now, and its run. */
export interface Store {
  readonly world: World;
  readonly task: Task;
}

/** The simulated task running now, and its world (virtualTimers.ts reads it too). */
export const storage = new AsyncLocalStorage<Store>();

/** Events a run keeps whole, for the timeline (the hash covers all of them, the tail the last few). */
export const TIMELINE_EVENTS = 2000;

/** Thrown when a run must stop: a budget, or a deadlock. */
export class SimulationError extends Error {
  override name = "SimulationError";
}

export interface WorldOptions {
  readonly seed: number;
  readonly chooser: Chooser;
  /** Budgets: scheduling steps, and virtual time (ms). */
  readonly maxSteps: number;
  readonly maxTime: number;
  /** Trace events kept for the report (the hash covers them all). */
  readonly traceTail: number;
  /** The UI library's act(): each scheduling step runs inside it (exploreOptions.ts). */
  readonly act?: Act;
}

/** Real turns of the event loop given to work outside the simulation before a run is called deadlocked. */
const OUTSIDE_TURNS = 8;

/** How many waiting tasks, and scheduled wakeups, an error names before it counts the rest. */
const NAMED = 10;

/** A virtual timer as its run keeps it (virtualTimers.ts makes them): what clearTimeout(id) cancels. */
export interface RunTimer {
  readonly id: number;
  readonly world: World;
  cancelled: boolean;
  wakeup: Wakeup | undefined;
}

/** One simulated run of a workload. */
export class World {
  now = 0;
  steps = 0;
  private seq = 0;
  private nextTask = 1;
  readonly tasks: Task[] = [];
  /**
   * The wakeups by instant, each list in registration order, and the instants in ascending order: a step takes
   * the earliest list as it is, never scanning every pending wakeup (with ten thousand tasks, a scan per step
   * would take minutes).
   */
  private readonly queue = new Map<number, Wakeup[]>();
  private readonly instants: number[] = [];
  /** The schedule: one decision per point where more than one wakeup was ready. */
  readonly decisions: number[] = [];
  /** How many wakeups were ready at each decision. */
  readonly widths: number[] = [];
  /** The index chosen at every scheduling step and how many were ready (single-choice steps included). */
  readonly stepChoices: number[] = [];
  readonly stepWidths: number[] = [];
  /** What each decision chose, and what FIFO would have (for the report). */
  readonly choices: { readonly t: number; readonly chosen: string; readonly fifo: string }[] = [];
  readonly tail: TraceEvent[] = [];
  /** Every event, up to TIMELINE_EVENTS (for the panel's timeline); `dropped` counts the rest. */
  readonly events: TraceEvent[] = [];
  dropped = 0;
  private readonly hash = new TraceHash();
  traceLength = 0;
  /** Failures besides main's own, in order: a spawned task's rejection, an unhandled rejection, a timer callback's throw. */
  private readonly failures: Failure[] = [];
  /** The failures the run ended with besides the one it threw (each a different error): the report lists them. */
  also: readonly Failure[] = [];
  /**
   * Points where nothing was scheduled and main had not finished, yet real work moved the run on after `turns`
   * real turns of the event loop (a setImmediate, I/O): what the seed does not order, for the report.
   */
  readonly outsideWaits: { readonly t: number; readonly turns: number }[] = [];
  /** Set when the run is over: a primitive or timer called later (a leaked callback) must not wait on it. */
  ended = false;
  /** Virtual timers by id, for clearTimeout(id). */
  readonly timers = new Map<number, RunTimer>();
  nextTimerId = 1;
  readonly random: Random;
  private mutexes = 0;

  constructor(readonly options: WorldOptions) {
    this.random = new Random(mixSeed(options.seed, 0x5eed));
  }

  newTask(name?: string): Task {
    const id = this.nextTask++;
    const t = new Task(id, name ?? (id === 1 ? "main" : `task ${id}`));
    this.tasks.push(t);
    return t;
  }

  nextMutexId(): number {
    return ++this.mutexes;
  }

  record(task: Task, what: string): void {
    const e = { t: this.now, task: task.label, what };
    // FNV-1a over the whole trace: the hash pins every event, the tail keeps only the last few.
    this.hash.add(`${e.t}|${e.task}|${e.what}\n`);
    this.traceLength++;
    if (this.events.length < TIMELINE_EVENTS) this.events.push(e);
    else this.dropped++;
    this.tail.push(e);
    if (this.tail.length > this.options.traceTail) this.tail.shift();
  }

  get traceHash(): string {
    return this.hash.hex;
  }

  /** Register a wakeup: `task` may run `resume` at virtual time `at`. */
  schedule(task: Task, at: number, what: string, resume: () => void): Wakeup {
    const w: Wakeup = { seq: this.seq++, at, task, what, resume, cancelled: false };
    let list = this.queue.get(at);
    if (list === undefined) {
      this.queue.set(at, (list = []));
      let i = this.instants.length; // usually the latest instant: search from the end
      while (i > 0 && this.instants[i - 1]! > at) i--;
      this.instants.splice(i, 0, at);
    }
    list.push(w);
    return w;
  }

  /** Withdraw a wakeup that has not run (a timeout whose promise settled, a cleared timer). */
  cancel(w: Wakeup): void {
    w.cancelled = true;
    const list = this.queue.get(w.at);
    const i = list?.indexOf(w) ?? -1;
    if (i >= 0) this.take(list!, i);
  }

  private take(list: Wakeup[], i: number): void {
    const at = list[i]!.at;
    list.splice(i, 1);
    if (list.length > 0) return;
    this.queue.delete(at);
    this.instants.splice(this.instants.indexOf(at), 1);
  }

  /** A failure other than main's own; `what`, when given, goes into the trace ("unhandled rejection"). */
  fail(task: Task, error: unknown, what?: string): void {
    if (what !== undefined) this.record(task, `${what}: ${errorLine(error)}`);
    if (this.failures.length < 100) this.failures.push({ by: `${task.label} ${what ?? "rejected"}`, error });
  }

  /** Start `fn` as `task` when the scheduler picks it (at the current instant); settles with its outcome. */
  launch<T>(task: Task, fn: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.schedule(task, this.now, "start", () => {
        task.state = "running";
        let out: T | Promise<T>;
        try {
          out = storage.run({ world: this, task }, fn);
        } catch (e) {
          out = Promise.reject(e);
        }
        Promise.resolve(out).then(
          (v) => {
            task.state = "done";
            this.record(task, "done");
            resolve(v);
          },
          (e: unknown) => {
            task.state = "failed";
            this.record(task, `rejected: ${errorLine(e)}`);
            reject(e);
          },
        );
      });
    });
  }

  /** Run the workload to the end: resolves with its outcome, never hangs (budgets, deadlock). */
  async run(workload: () => unknown): Promise<void> {
    const main = this.newTask();
    let mainFailure: { error: unknown } | undefined;
    let returnedAt: number | undefined;
    this.launch(main, workload).then(
      () => void (returnedAt = this.now),
      (error: unknown) => void (mainFailure = { error }),
    );
    // A step run inside act() has had its turn of the event loop there (and act's own flushing after it).
    let turned = false;
    try {
      for (;;) {
        if (!turned) await drain();
        turned = false;
        if (mainFailure !== undefined) this.stop(mainFailure);
        if (this.instants.length === 0 && returnedAt === undefined && mainFailure === undefined) {
          // Nothing scheduled and main not done: real work the workload waits on (React's act() resolves on a
          // real setImmediate) may still move it. A few more real turns before calling it a deadlock.
          let turns = 0;
          while (++turns <= OUTSIDE_TURNS && this.instants.length === 0) {
            await drain();
            if (returnedAt !== undefined || mainFailure !== undefined) break;
          }
          if (turns <= OUTSIDE_TURNS) this.outsideWaits.push({ t: this.now, turns });
          if (mainFailure !== undefined) this.stop(mainFailure);
        }
        if (this.instants.length === 0) {
          if (returnedAt === undefined) this.stop(undefined, this.deadlock());
          if (this.failures.length > 0) this.stop(undefined);
          // Main finished, but tasks it did not await are stuck on each other (a lock-order deadlock): a failure.
          const stuck = this.blockedOnPrimitives();
          if (stuck.length > 0) this.stop(undefined, this.leftBlocked(stuck));
          return;
        }
        if (returnedAt !== undefined && this.failures.length > 0) this.stop(undefined);
        if (++this.steps > this.options.maxSteps)
          this.stop(
            undefined,
            this.overBudget(
              `${this.options.maxSteps} scheduling steps (the maxSteps option of explore; at t=${this.now} ms)`,
              returnedAt,
            ),
          );
        const at = this.instants[0]!;
        if (at > this.options.maxTime)
          this.stop(
            undefined,
            this.overBudget(`${this.options.maxTime} ms of virtual time (the maxTime option of explore)`, returnedAt),
          );
        const ready = this.queue.get(at)!;
        let i = 0;
        if (ready.length === 1) this.options.chooser.single?.();
        else {
          i = this.options.chooser.choose(ready);
          if (!Number.isInteger(i) || i < 0 || i >= ready.length) i = 0;
          this.decisions.push(i);
          this.widths.push(ready.length);
          this.choices.push({
            t: at,
            chosen: `${ready[i]!.task.label} (${ready[i]!.what})`,
            fifo: `${ready[0]!.task.label} (${ready[0]!.what})`,
          });
        }
        this.stepChoices.push(i);
        this.stepWidths.push(ready.length);
        const w = ready[i]!;
        this.take(ready, i);
        this.now = at;
        w.task.state = "running";
        w.task.waitingFor = undefined;
        this.record(w.task, w.what);
        if (this.options.act !== undefined) {
          await this.stepInAct(w, this.options.act);
          turned = true;
          continue;
        }
        try {
          w.resume();
        } catch (e) {
          // A timer callback that threw: in Node an uncaught exception; here the seed's failure, in its trace.
          this.fail(w.task, e, `threw in ${w.what}`);
        }
      }
    } finally {
      this.ended = true;
    }
  }

  /**
   * One step with the UI library's act(): the task resumed and its continuations given their turn as written
   * (the workload's own act() calls, through a testing library's render or fireEvent, flush as they always do),
   * then an empty act() awaited in the task's context, so the renders, commits and effects the step caused —
   * which React otherwise leaves to real macrotasks the world does not wait for — are done before the next step.
   * While the continuations run, React is told it is not in an act environment (as Testing Library's waitFor
   * does while it waits), so the updates they make, which the act at the step's end flushes, raise no warning.
   * An act that throws or rejects (an error a render raised) fails the step's task.
   */
  private async stepInAct(w: Wakeup, act: Act): Promise<void> {
    const restore = outsideActEnvironment();
    try {
      w.resume();
    } catch (e) {
      this.fail(w.task, e, `threw in ${w.what}`);
    }
    try {
      await drain();
    } finally {
      restore();
    }
    try {
      // Awaited in the task's context too: act flushes from the continuation its thenable is given.
      await storage.run({ world: this, task: w.task }, async () => {
        await act(async () => {});
      });
    } catch (e) {
      this.fail(w.task, e, `failed in act after ${w.what}`);
    }
  }

  /**
   * End the run. It throws main's own failure when there is one (what the workload asserts), else the first
   * task's, else the fault (deadlock, budget) — and keeps every other distinct error in `also`, so a worker's
   * crash is not lost behind main's assertion, nor behind the budget the crash made the run exceed.
   */
  private stop(main: { error: unknown } | undefined, fault?: SimulationError): never {
    const all: Failure[] = [
      ...(main !== undefined ? [{ by: "main rejected", error: main.error }] : []),
      ...this.failures,
      ...(fault !== undefined ? [{ by: "", error: fault }] : []),
    ];
    const shown = new Set<unknown>([all[0]!.error]);
    this.also = all.slice(1).filter((f) => !shown.has(f.error) && shown.add(f.error));
    throw all[0]!.error;
  }

  /** Tasks not done that wait on a simulation primitive (a mutex, an event, a channel): nothing will wake them. */
  private blockedOnPrimitives(): Task[] {
    return this.tasks.filter((t) => t.state !== "done" && t.state !== "failed" && t.waitingFor !== undefined);
  }

  private leftBlocked(stuck: readonly Task[]): SimulationError {
    const named = stuck.slice(0, NAMED).map((t) => `${t.label} waits for ${t.waitingFor}`);
    if (stuck.length > NAMED) named.push(`and ${stuck.length - NAMED} more waiting`);
    return new SimulationError(
      `deadlock at t=${this.now} ms: main finished, but tasks it did not await are blocked for good — ${named.join("; ")}`,
    );
  }

  private deadlock(): SimulationError {
    const waiting = this.tasks.filter((t) => t.state !== "done" && t.state !== "failed");
    const named = waiting
      .slice(0, NAMED)
      .map(
        (t) =>
          `${t.label} waits for ${t.waitingFor ?? "a promise outside the simulation's primitives (another task's result, real I/O, setImmediate, or a promise never settled)"}`,
      );
    if (waiting.length > NAMED) named.push(`and ${waiting.length - NAMED} more waiting`);
    return new SimulationError(
      `deadlock at t=${this.now} ms: every task is waiting and nothing is scheduled, also after ${OUTSIDE_TURNS} real turns of the event loop — ${named.join("; ")}`,
    );
  }

  /** The budget's error; once main has returned, it names what kept the run going (a timer never cleared). */
  private overBudget(limit: string, returnedAt: number | undefined): SimulationError {
    let text = `the workload did not finish within ${limit}`;
    if (returnedAt !== undefined) {
      const still: string[] = [];
      let count = 0;
      for (const list of this.queue.values()) {
        for (const w of list) if (count++ < NAMED) still.push(`${w.task.label}'s ${w.what}`);
      }
      if (count > NAMED) still.push(`and ${count - NAMED} more`);
      text += `: main returned at t=${returnedAt} ms, but ${count === 1 ? "this was" : "these were"} still scheduled: ${still.join(", ")} (a setInterval never cleared, or a task that never stops?)`;
    }
    return new SimulationError(text);
  }
}

/** Trace events a report shows: the tail of the run (the hash covers them all). */
export const TRACE_TAIL = 20;

/** One run of `workload` in a fresh world under `chooser`, within the budgets: the world, and how the run ended. */
export async function runOnce(
  workload: () => unknown,
  seed: number,
  chooser: Chooser,
  o: { readonly maxSteps: number; readonly maxTime: number; readonly act?: Act | undefined },
): Promise<{ world: World; error: unknown; failed: boolean }> {
  const world = new World({
    seed,
    chooser,
    maxSteps: o.maxSteps,
    maxTime: o.maxTime,
    traceTail: TRACE_TAIL,
    ...(o.act !== undefined ? { act: o.act } : {}),
  });
  try {
    await world.run(workload);
    return { world, error: undefined, failed: false };
  } catch (error) {
    return { world, error, failed: true };
  }
}

/**
 * React's act-environment flag (a global React reads, which testing libraries set) turned off until the returned
 * function restores it as it was.
 */
function outsideActEnvironment(): () => void {
  const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: unknown };
  const own = Object.prototype.hasOwnProperty.call(g, "IS_REACT_ACT_ENVIRONMENT");
  const was = g.IS_REACT_ACT_ENVIRONMENT;
  g.IS_REACT_ACT_ENVIRONMENT = false;
  return () => {
    if (own) g.IS_REACT_ACT_ENVIRONMENT = was;
    else delete g.IS_REACT_ACT_ENVIRONMENT;
  };
}

/** Set while the world makes its own real work (its turns), which outsideWork.ts does not count as the workload's. */
let makingOwnWork = false;

export function isOwnWork(): boolean {
  return makingOwnWork;
}

/** One real macrotask turn: every microtask that can run, runs (virtual time does not move). */
function drain(): Promise<void> {
  return new Promise((r) => {
    makingOwnWork = true;
    try {
      setRealImmediate(r);
    } finally {
      makingOwnWork = false;
    }
  });
}

/** The calling simulated task and its world, while its run is going (a leaked callback's run has ended). */
export function liveStore(): Store | undefined {
  const s = storage.getStore();
  return s !== undefined && !s.world.ended ? s : undefined;
}
