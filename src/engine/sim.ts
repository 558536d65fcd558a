/**
 * A deterministic simulated scheduler with virtual time, for async workloads (seed 001's "data from the
 * property, schedule from seeds").
 *
 * A workload is an async function that waits only on this module's primitives — `sim.sleep`, `sim.spawn`,
 * `sim.mutex()`, `sim.event()`, `sim.channel()`, `sim.timeout` — and on its own promises. Each primitive that can
 * make a task wait registers a *wakeup* (a task and the virtual instant it may run again) instead of a real
 * timer. The world then runs one loop:
 *
 *   drain microtasks (one real macrotask turn: every promise continuation that can run, runs)
 *   → no wakeup pending: finished (or, if the workload has not settled, a deadlock naming the blocked tasks)
 *   → the earliest instant's wakeups are the *ready* set, in the order they were registered (FIFO);
 *     with more than one, the chooser picks one: a *decision* (0 = the FIFO choice)
 *   → advance virtual time to that instant, resume the chosen task.
 *
 * So virtual time is free (an hour of sleeps takes milliseconds), and the only nondeterminism left is which
 * ready task runs first — which the seed decides. The decisions are the schedule: replaying them reproduces the
 * run exactly (same trace, same hash), and past its end the FIFO choice is taken, so a schedule prefix is a
 * schedule. Microtask order inside one turn is JavaScript's own, and is deterministic.
 *
 * Choosers: uniform random among the ready wakeups, or PCT (Burckhardt et al.'s probabilistic concurrency
 * testing, as in Coyote): each task gets a random priority, the highest-priority ready task runs, and at d − 1
 * random steps the running task drops to the lowest priority — an ordering bug of depth d is found with
 * probability ≥ 1 / (n · k^(d−1)) per seed. Both produce decisions, so replay and shrinking do not care which ran.
 *
 * After a seed fails, its decisions are a choice sequence: explore.ts hands them to Shrinkscope's own engine
 * (replayed from an in-memory database, then shrunk) with the workload fixed, so the schedule shrinks toward
 * FIFO — deleting and lowering decisions is exactly moving toward "the task that was ready first runs first".
 *
 * Timers: inside a simulated task, setTimeout/setInterval/clearTimeout/clearInterval and Date.now are the
 * virtual ones (installed on globalThis while any exploration runs; outside a simulated task they are the real
 * ones). Real I/O, setImmediate and process.nextTick are not simulated.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as timers from "node:timers";
import { Random } from "./random.ts";

const realSetImmediate = timers.setImmediate;

export interface TraceEvent {
  /** Virtual time (ms). */
  readonly t: number;
  /** The task: its id and name ("main", "task 2", a name given to spawn). */
  readonly task: string;
  readonly what: string;
}

/** Picks among the ready wakeups (at least two), in registration order; returns an index. */
export interface Chooser {
  choose(ready: readonly Wakeup[], world: World): number;
  /** Told of each step with a single ready wakeup (a chooser replaying per-step choices consumes one here). */
  single?(): void;
}

export class Task {
  state: "ready" | "running" | "waiting" | "done" | "failed" = "ready";
  /** What it waits for, while waiting on a primitive. */
  waitingFor: string | undefined;
  /** PCT's priority (higher runs first). */
  priority = 0;
  constructor(
    readonly id: number,
    readonly name: string,
  ) {}
  /** "main", "task 3", or "task 3 (writer)" for a task spawned with a name. */
  get label(): string {
    return this.id === 1 || this.name === `task ${this.id}` ? this.name : `task ${this.id} (${this.name})`;
  }
}

export interface Wakeup {
  readonly seq: number;
  readonly at: number;
  readonly task: Task;
  readonly what: string;
  readonly resume: () => void;
  cancelled: boolean;
}

interface Store {
  readonly world: World;
  readonly task: Task;
}

const storage = new AsyncLocalStorage<Store>();

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
}

/** One simulated run of a workload. */
export class World {
  now = 0;
  steps = 0;
  private seq = 0;
  private nextTask = 1;
  readonly tasks: Task[] = [];
  private pending: Wakeup[] = [];
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
  private hashState = 0xcbf29ce484222325n;
  traceLength = 0;
  /** The first spawned task that rejected (reported when nothing else failed first). */
  taskFailure: { task: Task; error: unknown } | undefined;
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
    for (const ch of `${e.t}|${e.task}|${e.what}\n`) {
      this.hashState ^= BigInt(ch.codePointAt(0)!);
      this.hashState = (this.hashState * 0x100000001b3n) & 0xffffffffffffffffn;
    }
    this.traceLength++;
    if (this.events.length < TIMELINE_EVENTS) this.events.push(e);
    else this.dropped++;
    this.tail.push(e);
    if (this.tail.length > this.options.traceTail) this.tail.shift();
  }

  get traceHash(): string {
    return this.hashState.toString(16).padStart(16, "0");
  }

  /** Register a wakeup: `task` may run `resume` at virtual time `at`. */
  schedule(task: Task, at: number, what: string, resume: () => void): Wakeup {
    const w: Wakeup = { seq: this.seq++, at, task, what, resume, cancelled: false };
    this.pending.push(w);
    return w;
  }

  /** Run the workload to the end: resolves with its outcome, never hangs (budgets, deadlock). */
  async run(workload: () => unknown): Promise<void> {
    const main = this.newTask();
    let settled = false;
    let failure: { error: unknown } | undefined;
    this.schedule(main, 0, "start", () => {
      main.state = "running";
      let out: unknown;
      try {
        out = storage.run({ world: this, task: main }, workload);
      } catch (e) {
        settled = true;
        failure = { error: e };
        main.state = "failed";
        return;
      }
      Promise.resolve(out).then(
        () => {
          settled = true;
          main.state = "done";
          this.record(main, "done");
        },
        (e: unknown) => {
          settled = true;
          failure = { error: e };
          main.state = "failed";
          this.record(main, `rejected: ${errorLine(e)}`);
        },
      );
    });
    for (;;) {
      await drain();
      if (failure !== undefined) throw failure.error;
      const live = this.pending.filter((w) => !w.cancelled);
      this.pending = live;
      if (live.length === 0) {
        if (this.taskFailure !== undefined) throw this.taskFailure.error;
        if (settled) return;
        const waiting = this.tasks.filter((t) => t.state !== "done" && t.state !== "failed");
        throw new SimulationError(`deadlock at t=${this.now} ms: every task is waiting and nothing is scheduled — ${waiting.map((t) => `${t.label} waits for ${t.waitingFor ?? "another task's promise"}`).join("; ")}`);
      }
      if (this.taskFailure !== undefined && settled) throw this.taskFailure.error;
      if (++this.steps > this.options.maxSteps) throw new SimulationError(`the workload did not finish within ${this.options.maxSteps} scheduling steps (the maxSteps option of explore; at t=${this.now} ms)`);
      let at = Infinity;
      for (const w of live) if (w.at < at) at = w.at;
      if (at > this.options.maxTime) throw new SimulationError(`the workload did not finish within ${this.options.maxTime} ms of virtual time (the maxTime option of explore)`);
      const ready = live.filter((w) => w.at === at);
      let i = 0;
      if (ready.length === 1) this.options.chooser.single?.();
      else {
        i = this.options.chooser.choose(ready, this);
        if (!Number.isInteger(i) || i < 0 || i >= ready.length) i = 0;
        this.decisions.push(i);
        this.widths.push(ready.length);
        this.choices.push({ t: at, chosen: `${ready[i]!.task.label} (${ready[i]!.what})`, fifo: `${ready[0]!.task.label} (${ready[0]!.what})` });
      }
      this.stepChoices.push(i);
      this.stepWidths.push(ready.length);
      const w = ready[i]!;
      this.pending.splice(this.pending.indexOf(w), 1);
      this.now = at;
      w.task.state = "running";
      w.task.waitingFor = undefined;
      this.record(w.task, w.what);
      w.resume();
    }
  }
}

/**
 * A well-mixed 32-bit seed from an exploration seed and a purpose: xoroshiro seeded with 0, 1, 2, … starts
 * out nearly alike, and explorations use exactly such seeds (`seeds: 100` is 0..99) — unmixed, every one of
 * them made the same first decisions. murmur3's finaliser, over both halves of the seed.
 */
export function mixSeed(seed: number, purpose: number): number {
  let h = (Math.floor(seed / 2 ** 32) ^ Math.imul(purpose, 0x9e3779b1)) >>> 0;
  for (const part of [seed >>> 0, h]) {
    h = Math.imul(h ^ part ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** One real macrotask turn: every microtask that can run, runs (virtual time does not move). */
function drain(): Promise<void> {
  return new Promise((r) => realSetImmediate(r));
}

export function errorLine(e: unknown): string {
  try {
    if (e instanceof Error) return `${e.name}: ${e.message.split("\n")[0]}`;
    return String(e);
  } catch {
    return "(unprintable)";
  }
}

// ------------------------------------------------------------------------------------------------ the primitives

function here(api: string): Store {
  const s = storage.getStore();
  if (s === undefined) throw new SimulationError(`${api} works only inside a simulated workload (run it with explore(...) or simTest(...))`);
  return s;
}

/** Park the current task until `at`, then resolve. */
function wait(api: string, ms: number, what: string): Promise<void> {
  const { world, task } = here(api);
  task.state = "waiting";
  task.waitingFor = `${api}(${ms}) until t=${world.now + ms} ms`;
  return new Promise<void>((resolve) => {
    world.schedule(task, world.now + ms, what, resolve);
  });
}

function sleep(ms: number): Promise<void> {
  if (typeof ms !== "number" || !(ms >= 0) || !Number.isFinite(ms)) throw new SimulationError(`sim.sleep: ms must be a finite number ≥ 0, got ${String(ms)}`);
  return wait("sim.sleep", ms, `wake (slept ${ms} ms)`);
}

/** Run `fn` as a new task (it starts at the current instant, when the scheduler picks it); its promise. */
function spawn<T>(fn: () => T | Promise<T>, name?: string): Promise<T> {
  if (typeof fn !== "function") throw new SimulationError(`sim.spawn: expects a function, got ${typeof fn}`);
  const { world, task: parent } = here("sim.spawn");
  const task = world.newTask(name);
  world.record(parent, `spawn ${task.label}`);
  const p = new Promise<T>((resolve, reject) => {
    world.schedule(task, world.now, "start", () => {
      task.state = "running";
      let out: T | Promise<T>;
      try {
        out = storage.run({ world, task }, fn);
      } catch (e) {
        out = Promise.reject(e);
      }
      Promise.resolve(out).then(
        (v) => {
          task.state = "done";
          world.record(task, "done");
          resolve(v);
        },
        (e: unknown) => {
          task.state = "failed";
          world.record(task, `rejected: ${errorLine(e)}`);
          world.taskFailure ??= { task, error: e };
          reject(e);
        },
      );
    });
  });
  // The rejection is the run's to report (above): not an unhandled rejection that would end the process.
  p.catch(() => {});
  return p;
}

function now(): number {
  return here("sim.now").world.now;
}

/** A number in [0, 1) from the run's seed: the same seed gives the same numbers. */
function random(): number {
  return here("sim.random").world.random.double();
}

class Mutex {
  private held = false;
  private readonly waiters: (() => void)[] = [];
  constructor(private readonly id: number) {}
  /** Wait until the lock is free, take it; resolves to a release function. */
  async acquire(): Promise<() => void> {
    const { world, task } = here("mutex.acquire");
    if (this.held) {
      task.state = "waiting";
      task.waitingFor = `mutex#${this.id}`;
      await new Promise<void>((resolve) => this.waiters.push(() => world.schedule(task, world.now, `acquire mutex#${this.id}`, resolve)));
    } else world.record(task, `acquire mutex#${this.id}`);
    this.held = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held = false;
      const next = this.waiters.shift();
      if (next !== undefined) {
        this.held = true; // handed over: nobody can barge in between
        next();
      }
    };
  }
  async runExclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
  get locked(): boolean {
    return this.held;
  }
}

/** A one-shot event: wait() resolves once set() has been called. */
class SimEvent {
  private isSet = false;
  private readonly waiters: (() => void)[] = [];
  constructor(private readonly id: number) {}
  set(): void {
    here("event.set");
    if (this.isSet) return;
    this.isSet = true;
    for (const w of this.waiters.splice(0)) w();
  }
  async wait(): Promise<void> {
    const { world, task } = here("event.wait");
    if (this.isSet) return;
    task.state = "waiting";
    task.waitingFor = `event#${this.id}`;
    await new Promise<void>((resolve) => this.waiters.push(() => world.schedule(task, world.now, `event#${this.id} set`, resolve)));
  }
  get isSetNow(): boolean {
    return this.isSet;
  }
}

/** An unbounded FIFO channel: send() never waits, receive() waits for a value. */
class Channel<T> {
  private readonly values: T[] = [];
  private readonly receivers: ((v: T) => void)[] = [];
  constructor(private readonly id: number) {}
  send(value: T): void {
    here("channel.send");
    const r = this.receivers.shift();
    if (r !== undefined) r(value);
    else this.values.push(value);
  }
  async receive(): Promise<T> {
    const { world, task } = here("channel.receive");
    if (this.values.length > 0) return this.values.shift()!;
    task.state = "waiting";
    task.waitingFor = `channel#${this.id}`;
    return new Promise<T>((resolve) => this.receivers.push((v) => world.schedule(task, world.now, `receive from channel#${this.id}`, () => resolve(v))));
  }
  get size(): number {
    return this.values.length;
  }
}

/** Rejects with a TimeoutError if `promise` has not settled within `ms` of virtual time. */
function timeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  if (typeof ms !== "number" || !(ms >= 0)) throw new SimulationError(`sim.timeout: ms must be a number ≥ 0, got ${String(ms)}`);
  const { world, task } = here("sim.timeout");
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const w = world.schedule(task, world.now + ms, `timeout ${ms} ms`, () => {
      if (done) return;
      done = true;
      const e = new Error(`sim.timeout: not settled within ${ms} ms of virtual time`);
      e.name = "TimeoutError";
      reject(e);
    });
    promise.then(
      (v) => {
        if (done) return;
        done = true;
        w.cancelled = true;
        resolve(v);
      },
      (e: unknown) => {
        if (done) return;
        done = true;
        w.cancelled = true;
        reject(e);
      },
    );
  });
}

/** The simulation's primitives. Outside a workload run by explore/simTest, each throws naming itself. */
export const sim = {
  sleep,
  spawn,
  now,
  random,
  timeout,
  mutex(): Mutex {
    return new Mutex(here("sim.mutex").world.nextMutexId());
  },
  event(): SimEvent {
    return new SimEvent(here("sim.event").world.nextMutexId());
  },
  channel<T>(): Channel<T> {
    return new Channel<T>(here("sim.channel").world.nextMutexId());
  },
};

// ------------------------------------------------------------------------------------------------ virtual timers

const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, setInterval: globalThis.setInterval, clearInterval: globalThis.clearInterval, dateNow: Date.now };
let installed = 0;
const EPOCH = Date.UTC(2000, 0, 1);

class VirtualTimer {
  wakeup: Wakeup | undefined;
  cancelled = false;
  [Symbol.toPrimitive](): number {
    return 0;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  hasRef(): boolean {
    return true;
  }
}

function virtualTimer(fn: unknown, ms: unknown, args: unknown[], repeat: boolean, store: Store): VirtualTimer {
  const { world, task } = store;
  const timer = new VirtualTimer();
  const delay = typeof ms === "number" && ms > 0 ? ms : 0;
  const arm = () => {
    timer.wakeup = world.schedule(task, world.now + (repeat ? Math.max(1, delay) : delay), repeat ? `interval ${delay} ms` : `setTimeout ${delay} ms`, () => {
      if (timer.cancelled) return;
      if (repeat) arm();
      if (typeof fn === "function") storage.run(store, () => (fn as (...a: unknown[]) => void)(...args));
    });
  };
  arm();
  return timer;
}

function clearVirtual(t: unknown): boolean {
  if (!(t instanceof VirtualTimer)) return false;
  t.cancelled = true;
  if (t.wakeup !== undefined) t.wakeup.cancelled = true;
  return true;
}

/** Route timers and Date.now to the simulation inside simulated tasks, while any exploration runs. */
export function installVirtualTimers(): () => void {
  if (installed++ === 0) {
    const g = globalThis as Record<string, unknown>;
    g.setTimeout = function (fn: unknown, ms?: unknown, ...args: unknown[]) {
      const s = storage.getStore();
      return s === undefined ? (real.setTimeout as (...a: unknown[]) => unknown)(fn, ms, ...args) : virtualTimer(fn, ms, args, false, s);
    };
    g.setInterval = function (fn: unknown, ms?: unknown, ...args: unknown[]) {
      const s = storage.getStore();
      return s === undefined ? (real.setInterval as (...a: unknown[]) => unknown)(fn, ms, ...args) : virtualTimer(fn, ms, args, true, s);
    };
    g.clearTimeout = (t: unknown) => void (clearVirtual(t) || (real.clearTimeout as (t: unknown) => void)(t));
    g.clearInterval = (t: unknown) => void (clearVirtual(t) || (real.clearInterval as (t: unknown) => void)(t));
    Date.now = () => {
      const s = storage.getStore();
      return s === undefined ? real.dateNow() : EPOCH + s.world.now;
    };
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--installed === 0) {
      const g = globalThis as Record<string, unknown>;
      g.setTimeout = real.setTimeout;
      g.setInterval = real.setInterval;
      g.clearTimeout = real.clearTimeout;
      g.clearInterval = real.clearInterval;
      Date.now = real.dateNow;
    }
  };
}
