/**
 * fc.scheduler(): a scheduler a predicate hands its promises to, which releases them in an order drawn from the
 * case's choices — each release one integer choice, the index among the tasks waiting, 0 the oldest. So the order
 * replays from the database, and shrinks toward first-in-first-out: a failing interleaving ends as close to the
 * order the code wrote as the bug allows. fc.scheduledModelRun runs model commands through it.
 *
 * Semantics follow fast-check's: `schedule(promise)` gives a promise settling as `promise` does once released;
 * `scheduleFunction(f)` schedules each call's result; `scheduleSequence(items)` schedules each item once the one
 * before it is done; `waitOne`, `waitAll`, `waitFor`, `waitNext`, `waitIdle` release tasks; `count`, `report` and
 * `toString` tell what happened. `act` (React's, say) wraps every release.
 */
import { InvalidArgument, st, toLiteral } from "./engine.ts";
import type { Arbitrary } from "./arbitrary.ts";
import { typeName, constraintsOf } from "./options.ts";
import { InBodyArbitrary } from "./inBody.ts";
import type { DataObject } from "./inBody.ts";
import { asyncModelRun } from "./commands.ts";
import { fastCheckRunning } from "./differential.ts";
import type { AsyncCommand } from "./commands.ts";

export type SchedulerAct = (f: () => Promise<void>) => Promise<unknown>;
type ModelSetup<Model, Real> = () => { model: Model; real: Real } | Promise<{ model: Model; real: Real }>;

/** One task as report() tells it. */
export interface SchedulerReportItem {
  status: "resolved" | "rejected" | "pending";
  schedulingType: "promise" | "function" | "sequence";
  taskId: number;
  label: string;
  metadata?: unknown;
  /** The value it settled with, printed. */
  outputValue?: string;
}

interface Task {
  readonly id: number;
  readonly type: SchedulerReportItem["schedulingType"];
  readonly label: string;
  readonly metadata: unknown;
  readonly act: SchedulerAct;
  /** Let the task settle: what it was given (or what its builder makes) runs on, and the promise handed out follows. */
  readonly release: () => Promise<unknown>;
}

/** One item of scheduleSequence: a function, or one with a label (and metadata) for the report. */
export type SchedulerSequenceItem =
  (() => Promise<unknown>) | { builder: () => Promise<unknown>; label: string; metadata?: unknown };

const noAct: SchedulerAct = (f) => f();
const ignore = () => {};
/** Microtask turns a wait lets pass before it releases a task: the work not handed to the scheduler runs on first. */
const TURNS = 50;

export class Scheduler {
  readonly #pending: Task[] = [];
  readonly #settled: SchedulerReportItem[] = [];
  /** Waits parked until a task is scheduled. */
  #parked: (() => void)[] = [];
  #lastId = 0;

  constructor(
    /** The index of the task to release among `count` waiting (a choice of the case). */
    private readonly pick: (count: number) => number,
    private readonly act: SchedulerAct,
  ) {}

  schedule<T>(task: PromiseLike<T>, label?: string, metadata?: unknown, customAct?: SchedulerAct): Promise<T> {
    return this.#add("promise", label ?? "", metadata, customAct, () => task);
  }

  scheduleFunction<A extends unknown[], T>(
    asyncFunction: (...args: A) => PromiseLike<T>,
    customAct?: SchedulerAct,
  ): (...args: A) => Promise<T> {
    if (typeof asyncFunction !== "function")
      throw new InvalidArgument(`scheduleFunction: expects a function, got ${typeName(asyncFunction)}`);
    return (...args: A) => {
      const running = asyncFunction(...args);
      const label = `${asyncFunction.name}(${args.map((a) => toLiteral(a)).join(",")})`;
      return this.#add("function", label, undefined, customAct, () => running);
    };
  }

  scheduleSequence(
    items: SchedulerSequenceItem[],
    customAct?: SchedulerAct,
  ): { done: boolean; faulty: boolean; task: Promise<{ done: boolean; faulty: boolean }> } {
    const status = { done: false, faulty: false };
    let finish = ignore;
    const task = new Promise<{ done: boolean; faulty: boolean }>((resolve) => {
      finish = () => resolve({ done: status.done, faulty: status.faulty });
    });
    const next = (i: number): void => {
      if (i >= items.length) {
        status.done = true;
        return finish();
      }
      const item = items[i];
      const [builder, label, metadata] =
        typeof item === "function" ? [item, item.name, undefined] : [item.builder, item.label, item.metadata];
      this.#add("sequence", label, metadata, customAct, () => builder()).then(
        () => next(i + 1),
        () => {
          status.faulty = true;
          finish();
        },
      );
    };
    next(0);
    return Object.assign(status, { task });
  }

  /** How many tasks wait to be released. */
  count(): number {
    return this.#pending.length;
  }

  /** Release one task, picked by the case's choices; an error if none waits. */
  waitOne(customAct?: SchedulerAct): Promise<void> {
    // (An act's result may be a thenable whose then() returns nothing, as React's: each is made a promise before it
    // is chained, or the wait would not wait.)
    return Promise.resolve(
      this.act(() => Promise.resolve((customAct ?? noAct)(() => this.#releaseOne())).then(ignore)),
    ).then(ignore);
  }

  /** Release tasks until none waits (those they schedule included). */
  async waitAll(customAct?: SchedulerAct): Promise<void> {
    while (this.#pending.length > 0) await this.waitOne(customAct);
  }

  /** Release tasks until `task` (not itself scheduled) settles; settles as it does. */
  async waitFor<T>(task: PromiseLike<T>, customAct?: SchedulerAct): Promise<T> {
    let settled = false;
    const done = Promise.resolve(task).then(
      () => void (settled = true),
      () => void (settled = true),
    );
    for (;;) {
      for (let i = 0; i < TURNS && !settled; i++) await Promise.resolve();
      if (settled) return task;
      if (this.#pending.length === 0) await Promise.race([done, this.#scheduled()]);
      else await this.waitOne(customAct);
    }
  }

  /** Release the next `count` tasks, waiting for them to be scheduled. */
  async waitNext(count: number, customAct?: SchedulerAct): Promise<void> {
    for (let k = 0; k < count; k++) {
      while (this.#pending.length === 0) await this.#scheduled();
      await this.waitOne(customAct);
    }
  }

  /** Release tasks until none waits and none is scheduled while the work runs on by itself. */
  async waitIdle(customAct?: SchedulerAct): Promise<void> {
    for (;;) {
      for (let i = 0; i < TURNS; i++) await Promise.resolve();
      if (this.#pending.length === 0) return;
      await this.waitOne(customAct);
    }
  }

  /** Every task: those settled, in the order they settled, then those waiting. */
  report(): SchedulerReportItem[] {
    return [
      ...this.#settled,
      ...this.#pending.map((t): SchedulerReportItem => ({
        status: "pending",
        schedulingType: t.type,
        taskId: t.id,
        label: t.label,
        metadata: t.metadata,
      })),
    ];
  }

  toString(): string {
    const line = (r: SchedulerReportItem) =>
      `-> [task\${${r.taskId}}] ${r.label === "" ? r.schedulingType : `${r.schedulingType}::${r.label}`} ${r.status}` +
      (r.outputValue === undefined ? "" : ` with value ${r.outputValue}`);
    return `schedulerFor()\`\n${this.report().map(line).join("\n")}\``;
  }

  #add<T>(
    type: Task["type"],
    label: string,
    metadata: unknown,
    customAct: SchedulerAct | undefined,
    produce: () => PromiseLike<T>,
  ): Promise<T> {
    const id = ++this.#lastId;
    let release: () => Promise<unknown> = () => Promise.resolve();
    const handedOut = new Promise<T>((resolve, reject) => {
      release = () => {
        const running = Promise.resolve(produce());
        running.then(
          (v) => {
            this.#log(id, type, label, metadata, "resolved", v);
            resolve(v);
          },
          (e: unknown) => {
            this.#log(id, type, label, metadata, "rejected", e);
            reject(e);
          },
        );
        return running;
      };
    });
    this.#pending.push({ id, type, label, metadata, act: customAct ?? noAct, release: () => release() });
    const parked = this.#parked;
    this.#parked = [];
    for (const wake of parked) wake();
    return handedOut;
  }

  #releaseOne(): Promise<void> {
    if (this.#pending.length === 0) throw new Error("No task scheduled");
    const [task] = this.#pending.splice(this.pick(this.#pending.length), 1);
    return Promise.resolve(task.act(() => task.release().then(ignore, ignore))).then(ignore);
  }

  /** A promise settling once a task is scheduled. */
  #scheduled(): Promise<void> {
    return new Promise((wake) => this.#parked.push(wake));
  }

  #log(id: number, type: Task["type"], label: string, metadata: unknown, status: "resolved" | "rejected", v: unknown) {
    let printed: string | undefined;
    try {
      printed = v === undefined ? undefined : toLiteral(v);
    } catch {
      printed = String(v);
    }
    this.#settled.push({ status, schedulingType: type, taskId: id, label, metadata, outputValue: printed });
  }
}

class SchedulerArbitrary extends InBodyArbitrary<Scheduler> {
  constructor(readonly actOf: SchedulerAct) {
    super();
  }
  valueFor(data: DataObject): Scheduler {
    return new Scheduler((count) => data.draw(st.integers({ min: 0, max: count - 1 }), "scheduler"), this.actOf);
  }
  override noteOf(s: Scheduler): string {
    return `Scheduler: ${s.toString()}`;
  }
}

/** A scheduler per case; `act` wraps every release (React's act, for components). */
export function scheduler(constraints?: { act?: SchedulerAct }): Arbitrary<Scheduler> {
  const api = "fc.scheduler";
  const o = constraintsOf(api, constraints, ["act"]);
  if (o.act !== undefined && typeof o.act !== "function")
    throw new InvalidArgument(`${api}: act must be a function, got ${typeName(o.act)}`);
  return new SchedulerArbitrary((o.act as SchedulerAct | undefined) ?? noAct);
}

/**
 * Run model commands whose check() and run() go through the scheduler, each a one-item sequence: the model starts
 * once the scheduler releases it, and the order of everything the commands schedule is the scheduler's.
 */
export async function scheduledModelRun<Model extends object, Real, CheckAsync extends boolean>(
  s: Scheduler,
  setup: ModelSetup<Model, Real>,
  cmds: Iterable<AsyncCommand<Model, Real, CheckAsync>>,
): Promise<void> {
  // While fast-check runs the predicate to compare (SHRINKSCOPE_FC_DIFF=1), its scheduler and its own model run.
  if (!(s instanceof Scheduler) && fastCheckRunning !== null)
    return fastCheckRunning.scheduledModelRun(s, setup, cmds) as Promise<void>;
  if (!(s instanceof Scheduler))
    throw new InvalidArgument(
      `fc.scheduledModelRun: the first argument must be fc.scheduler()'s value, got ${typeName(s)}`,
    );
  const through = <T>(label: string, f: () => T | PromiseLike<T>): Promise<T> => {
    let out: { value: T } | { error: unknown } | undefined;
    const run = s.scheduleSequence([
      {
        label,
        builder: async () => {
          try {
            out = { value: await f() };
          } catch (error) {
            out = { error };
            throw error;
          }
        },
      },
    ]);
    return run.task.then(() => {
      if (out !== undefined && "error" in out) throw out.error;
      return (out as { value: T }).value;
    });
  };
  const scheduled = [...cmds].map((c): AsyncCommand<Model, Real, true> => ({
    check: (m) => through(`check@${String(c)}`, () => c.check(m) as boolean | Promise<boolean>),
    run: (m, r) => through(`run@${String(c)}`, () => c.run(m, r)),
    toString: () => String(c),
  }));
  const running = s.schedule(Promise.resolve(), "startModel").then(() => asyncModelRun(setup, scheduled));
  await s.waitFor(running);
  await s.waitAll();
}
