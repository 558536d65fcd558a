/**
 * The simulation's primitives, which a workload run by explore() or simTest() waits on instead of real time:
 * `sim.sleep`, `sim.spawn`, `sim.now`, `sim.random`, `sim.timeout`, and the mutexes, one-shot events and
 * channels `sim.mutex()`, `sim.event()` and `sim.channel()` make. Each that can make a task wait registers a
 * wakeup with the calling task's world (world.ts); the world decides who runs next. Inside a simulated task
 * setTimeout, setInterval, their clear functions and Date.now are virtual too, taking their arguments as Node's
 * do (virtualTimers.ts); real I/O, setImmediate and process.nextTick are not simulated.
 *
 * Outside a simulated task each throws naming itself. A callback that outlives its run keeps the run's
 * context: there the primitives throw, as do primitives made in another run (one kept between runs would carry
 * the last run's state into the next seed).
 */
import type { Store, World } from "./world.ts";
import { SimulationError, storage } from "./world.ts";

function here(api: string): Store {
  const s = storage.getStore();
  if (s === undefined)
    throw new SimulationError(
      `${api} works only inside a simulated workload (run it with explore(...) or simTest(...))`,
    );
  // A callback that outlived its run keeps the run's context: waiting on that world would never end.
  if (s.world.ended)
    throw new SimulationError(
      `${api}: its run has ended — called from a callback that outlived its workload (a promise or timer the workload did not wait for)`,
    );
  return s;
}

/**
 * here(), for a primitive made in `world`: one kept between runs (a module-level lock) would carry the last
 * run's state into the next seed, so the next seed's outcome would depend on the seeds before it.
 */
function owned(api: string, world: World, name: string): Store {
  const s = here(api);
  if (s.world !== world)
    throw new SimulationError(
      `${api}: ${name} belongs to another run (kept between runs, in a variable outside the workload?); create it inside the workload`,
    );
  return s;
}

function finiteMs(api: string, ms: unknown): number {
  if (typeof ms !== "number" || !(ms >= 0) || !Number.isFinite(ms))
    throw new SimulationError(`${api}: ms must be a finite number ≥ 0, got ${String(ms)}`);
  return ms;
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

/**
 * Wait `ms` of virtual time. `label` names the step in the trace and the schedule's decisions ("wake: write a
 * (slept 0 ms)"), so that two sleeps of one task read apart.
 */
function sleep(ms: number, label?: string): Promise<void> {
  finiteMs("sim.sleep", ms);
  if (label !== undefined && typeof label !== "string")
    throw new SimulationError(`sim.sleep: label must be a string, got ${typeof label}`);
  return wait("sim.sleep", ms, label === undefined ? `wake (slept ${ms} ms)` : `wake: ${label} (slept ${ms} ms)`);
}

/** Run `fn` as a new task (it starts at the current instant, when the scheduler picks it); its promise. */
function spawn<T>(fn: () => T | Promise<T>, name?: string): Promise<T> {
  if (typeof fn !== "function") throw new SimulationError(`sim.spawn: expects a function, got ${typeof fn}`);
  const { world, task: parent } = here("sim.spawn");
  const task = world.newTask(name);
  world.record(parent, `spawn ${task.label}`);
  const p = world.launch(task, fn);
  // The rejection is the run's to report: not an unhandled rejection that would end the process.
  p.catch((e: unknown) => world.fail(task, e));
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
  constructor(
    private readonly world: World,
    private readonly id: number,
  ) {}
  /** Wait until the lock is free, take it; resolves to a release function. */
  async acquire(): Promise<() => void> {
    const { world, task } = owned("mutex.acquire", this.world, `mutex#${this.id}`);
    if (this.held) {
      task.state = "waiting";
      task.waitingFor = `mutex#${this.id}`;
      await new Promise<void>((resolve) =>
        this.waiters.push(() => world.schedule(task, world.now, `acquire mutex#${this.id}`, resolve)),
      );
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
  constructor(
    private readonly world: World,
    private readonly id: number,
  ) {}
  set(): void {
    owned("event.set", this.world, `event#${this.id}`);
    if (this.isSet) return;
    this.isSet = true;
    for (const w of this.waiters.splice(0)) w();
  }
  async wait(): Promise<void> {
    const { world, task } = owned("event.wait", this.world, `event#${this.id}`);
    if (this.isSet) return;
    task.state = "waiting";
    task.waitingFor = `event#${this.id}`;
    await new Promise<void>((resolve) =>
      this.waiters.push(() => world.schedule(task, world.now, `event#${this.id} set`, resolve)),
    );
  }
  get isSetNow(): boolean {
    return this.isSet;
  }
}

/** An unbounded FIFO channel: send() never waits, receive() waits for a value. */
class Channel<T> {
  private readonly values: T[] = [];
  private readonly receivers: ((v: T) => void)[] = [];
  constructor(
    private readonly world: World,
    private readonly id: number,
  ) {}
  send(value: T): void {
    owned("channel.send", this.world, `channel#${this.id}`);
    const r = this.receivers.shift();
    if (r !== undefined) r(value);
    else this.values.push(value);
  }
  async receive(): Promise<T> {
    const { world, task } = owned("channel.receive", this.world, `channel#${this.id}`);
    if (this.values.length > 0) return this.values.shift()!;
    task.state = "waiting";
    task.waitingFor = `channel#${this.id}`;
    return new Promise<T>((resolve) =>
      this.receivers.push((v) => world.schedule(task, world.now, `receive from channel#${this.id}`, () => resolve(v))),
    );
  }
  get size(): number {
    return this.values.length;
  }
}

/** Rejects with a TimeoutError if `promise` has not settled within `ms` of virtual time. */
function timeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  // A function here (`sim.timeout(() => call(), 5)`) would otherwise resolve at once, to the function.
  if (typeof (promise as { then?: unknown } | null)?.then !== "function")
    throw new SimulationError(`sim.timeout: expects a promise, got ${typeof promise}`);
  // Infinity would schedule a wakeup no run reaches: reported as the virtual-time budget, not as a timeout.
  finiteMs("sim.timeout", ms);
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
    const settle = (then: () => void) => {
      if (done) return;
      done = true;
      world.cancel(w);
      then();
    };
    Promise.resolve(promise).then(
      (v) => settle(() => resolve(v)),
      (e: unknown) => settle(() => reject(e)),
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
    const { world } = here("sim.mutex");
    return new Mutex(world, world.nextMutexId());
  },
  event(): SimEvent {
    const { world } = here("sim.event");
    return new SimEvent(world, world.nextMutexId());
  },
  channel<T>(): Channel<T> {
    const { world } = here("sim.channel");
    return new Channel<T>(world, world.nextMutexId());
  },
};
