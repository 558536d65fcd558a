/**
 * The virtual clock's side of the simulation (world.ts): setTimeout, setInterval, their clear functions and
 * Date.now route to the simulation inside simulated tasks while any exploration runs, and a task's unhandled
 * rejections become its run's failures. Everything else in the process keeps the globals it had.
 */
import { createRequire, syncBuiltinESMExports } from "node:module";
import { promisify } from "node:util";
import type { Wakeup } from "./task.ts";
import type { RunTimer, Store, World } from "./world.ts";
import { liveStore, storage } from "./world.ts";

const EPOCH = Date.UTC(2000, 0, 1);
/** Node's longest timer delay; outside [1, this] a delay is 1 ms. */
const TIMEOUT_MAX = 2 ** 31 - 1;

export class VirtualTimer implements RunTimer {
  wakeup: Wakeup | undefined;
  cancelled = false;
  constructor(
    readonly world: World,
    readonly id: number,
  ) {}
  /** Node's timers turn into their id, which clearTimeout takes too. */
  [Symbol.toPrimitive](): number {
    return this.id;
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
  // As Node: a callback that is not a function throws (rather than never being called) …
  if (typeof fn !== "function") {
    throw Object.assign(
      new TypeError(`The "callback" argument must be of type function. Received ${fn === null ? "null" : typeof fn}`),
      { code: "ERR_INVALID_ARG_TYPE" },
    );
  }
  // … and the delay is `ms * 1`, 1 ms outside [1, TIMEOUT_MAX] (lib/internal/timers.js): setTimeout(f, 0)
  // runs after setTimeout(g, 1) made before it, and "100" waits 100 ms.
  const asNumber = Number(ms);
  const delay = asNumber >= 1 && asNumber <= TIMEOUT_MAX ? asNumber : 1;
  const { world, task } = store;
  const timer = new VirtualTimer(world, world.nextTimerId++);
  world.timers.set(timer.id, timer);
  const arm = () => {
    timer.wakeup = world.schedule(
      task,
      world.now + delay,
      repeat ? `interval ${delay} ms` : `setTimeout ${delay} ms`,
      () => {
        if (timer.cancelled) return;
        if (repeat) arm();
        else world.timers.delete(timer.id);
        storage.run(store, () => (fn as (...a: unknown[]) => void)(...args));
      },
    );
  };
  arm();
  return timer;
}

/** Clear a virtual timer, given itself or its id (in the calling task's run); false when it is not one. */
function clearVirtual(t: unknown): boolean {
  const timer =
    t instanceof VirtualTimer
      ? t
      : typeof t === "number" || typeof t === "string"
        ? storage.getStore()?.world.timers.get(Number(t))
        : undefined;
  if (timer === undefined) return false;
  timer.cancelled = true;
  timer.world.timers.delete(timer.id);
  if (timer.wakeup !== undefined) timer.world.cancel(timer.wakeup);
  return true;
}

/**
 * An unhandled rejection: Node runs this listener in the rejected promise's async context, so a simulated
 * task's rejection is its run's failure (not a pass, with the process blaming whatever test runs next).
 * A run that has ended was reported already. Any other rejection is the process's: when nothing else listens
 * and the mode is Node's default ("throw": raise it unless a listener is set), it is raised as Node would have
 * (the other modes warn or stay silent whether a listener is set or not).
 */
function onUnhandledRejection(reason: unknown): void {
  const s = storage.getStore();
  if (s !== undefined) {
    if (!s.world.ended) s.world.fail(s.task, reason, "unhandled rejection");
    return;
  }
  const mode =
    /--unhandled-rejections=(\S+)/.exec(`${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`)?.[1] ??
    "throw";
  if (mode === "throw" && process.listenerCount("unhandledRejection") === 1) throw reason;
}

type Globals = {
  setTimeout: unknown;
  setInterval: unknown;
  clearTimeout: unknown;
  clearInterval: unknown;
  dateNow: () => number;
};
let installed = 0;
/** The globals found when the first exploration started (restored after the last), and the ones put in their place. */
let found: Globals | undefined;
let ours: Globals | undefined;

function readGlobals(): Globals {
  const g = globalThis as Record<string, unknown>;
  return {
    setTimeout: g.setTimeout,
    setInterval: g.setInterval,
    clearTimeout: g.clearTimeout,
    clearInterval: g.clearInterval,
    dateNow: Date.now,
  };
}

function writeGlobals(values: Globals, onlyIf?: Globals): void {
  const g = globalThis as Record<string, unknown>;
  for (const k of ["setTimeout", "setInterval", "clearTimeout", "clearInterval"] as const)
    if (onlyIf === undefined || g[k] === onlyIf[k]) g[k] = values[k];
  if (onlyIf === undefined || Date.now === onlyIf.dateNow) Date.now = values.dateNow;
}

/**
 * Route timers and Date.now to the simulation inside simulated tasks while any exploration runs, and catch
 * their unhandled rejections. Outside simulated tasks the calls go to the globals found at install — fake
 * timers a test installed included — and those are put back afterwards, unless someone replaced ours meanwhile.
 */
export function installVirtualTimers(): () => void {
  if (installed++ === 0) {
    const real = (found = readGlobals()) as Record<keyof Globals, (...a: unknown[]) => unknown>;
    ours = {
      setTimeout: (fn: unknown, ms?: unknown, ...args: unknown[]) => {
        const s = liveStore();
        return s === undefined ? real.setTimeout(fn, ms, ...args) : virtualTimer(fn, ms, args, false, s);
      },
      setInterval: (fn: unknown, ms?: unknown, ...args: unknown[]) => {
        const s = liveStore();
        return s === undefined ? real.setInterval(fn, ms, ...args) : virtualTimer(fn, ms, args, true, s);
      },
      clearTimeout: (t: unknown) => void (clearVirtual(t) || real.clearTimeout(t)),
      clearInterval: (t: unknown) => void (clearVirtual(t) || real.clearInterval(t)),
      // Whole milliseconds, as Node's (a sim.sleep(0.5) would make the virtual one fractional).
      dateNow: () => {
        const s = liveStore();
        return s === undefined ? (real.dateNow() as number) : Math.floor(EPOCH + s.world.now);
      },
    };
    Object.defineProperty(ours.setTimeout, "name", { value: "setTimeout" });
    // util.promisify(setTimeout) reads this: without it, promisify(setTimeout) would throw "callback must be a
    // function" anywhere in the process while an exploration runs. In a simulated task it waits on the virtual clock.
    const promised = (real.setTimeout as { [promisify.custom]?: (...a: unknown[]) => Promise<unknown> })[
      promisify.custom
    ];
    Object.defineProperty(ours.setTimeout, promisify.custom, {
      value: (ms?: unknown, value?: unknown, ...rest: unknown[]) => {
        const s = liveStore();
        if (s !== undefined) return new Promise((resolve) => virtualTimer(resolve, ms, [value], false, s));
        return promised !== undefined
          ? promised(ms, value, ...rest)
          : new Promise((resolve) => real.setTimeout(resolve, ms, value));
      },
    });
    Object.defineProperty(ours.setInterval, "name", { value: "setInterval" });
    writeGlobals(ours);
    installTimersPromises();
    process.on("unhandledRejection", onUnhandledRejection);
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--installed === 0) {
      writeGlobals(found!, ours);
      uninstallTimersPromises();
      process.off("unhandledRejection", onUnhandledRejection);
      found = ours = undefined;
    }
  };
}

/**
 * node:timers/promises' setTimeout (`await setTimeout(10)`), which does not go through the global: on the virtual
 * clock inside simulated tasks too, or a workload using it would read as a deadlock. Its module object is patched
 * while explorations run, and ES module imports of it follow (syncBuiltinESMExports).
 */
type TimersPromises = { setTimeout: (ms?: unknown, value?: unknown, options?: unknown) => Promise<unknown> };
let timersPromises:
  { module: TimersPromises; real: TimersPromises["setTimeout"]; ours: TimersPromises["setTimeout"] } | undefined;

function installTimersPromises(): void {
  try {
    const load = createRequire(import.meta.url);
    const module = load("node:timers/promises") as TimersPromises;
    const real = module.setTimeout;
    const ours: TimersPromises["setTimeout"] = (ms, value, options) => {
      const s = liveStore();
      return s === undefined
        ? real(ms, value, options)
        : new Promise((resolve) => virtualTimer(resolve, ms, [value], false, s));
    };
    module.setTimeout = ours;
    syncBuiltinESMExports();
    timersPromises = { module, real, ours };
  } catch {
    timersPromises = undefined; // the global timers are virtual still
  }
}

function uninstallTimersPromises(): void {
  const t = timersPromises;
  timersPromises = undefined;
  if (t === undefined || t.module.setTimeout !== t.ours) return;
  t.module.setTimeout = t.real;
  syncBuiltinESMExports();
}
