/**
 * explore() and simTest(): run an async workload under a range of seeds in the simulated scheduler (sim.ts),
 * report the first seed that fails, and shrink its schedule toward FIFO.
 *
 * The seeds are never a strategy (seed 001): a seed has no size, and drawing it would make "this workload
 * fails" depend on the draw. So the property's engine owns the workload, the seed range owns the schedules, and
 * the two shrinkers never meet: simTest explores the same seeds for every workload the property tries, which
 * keeps the property a function of its arguments.
 *
 * Shrinking a schedule: the failing seed's decisions are saved in an in-memory database and handed to
 * Shrinkscope's own engine as a property whose body replays the workload with decisions drawn from the test
 * case (integers 0..ready−1, toward 0 = FIFO). The engine replays that saved case first, then deletes and
 * lowers decisions — fewer deviations from FIFO, earlier — keeping only what still fails the same way. The
 * minimal schedule is replayed once more for the report's trace and hash. A schedule longer than the engine's
 * choice budget is cut down here instead (shrinkLong), in a bounded number of runs.
 *
 * Before any of that, the failing seed runs once more: a workload that fails differently on the same seed
 * (Math.random, real time, state kept between runs) is reported as flaky, unshrunk.
 */
import { invalid, InvalidArgument } from "../util/errors.ts";
import type { ChoiceValue } from "../choice/types.ts";
import { InMemoryDatabase } from "../databases/inMemory.ts";
import { PropertyFailure, runIsolated, SIM_BODY } from "../property/property.ts";
import { errorOrigin } from "../property/failureMessage.ts";
import type { PropertyDefinition } from "../property/property.ts";
import type { DomainPass } from "../core/shrinker.ts";
import { Random } from "../util/random.ts";
import { describe, Strategy } from "../strategies/strategy.ts";
import { TestCase } from "../core/testCase.ts";
import type { ScheduleInfo } from "../events/events.ts";
import type { Chooser, TraceEvent, Wakeup } from "./sim.ts";
import type { Failure } from "./sim.ts";
import { liveStore, mixSeed, World } from "./sim.ts";
import { errorLine } from "../print/errorLine.ts";
import { CaseHandle } from "../strategies/caseHandle.ts";
import { installVirtualTimers } from "./virtualTimers.ts";

export interface ExploreOptions {
  /** How many seeds (0..n−1), or the seeds themselves (required unless `schedule` is given). */
  readonly seeds?: number | readonly number[];
  /** How each seed picks among ready tasks: "random" (default) or "pct" (priorities with `depth` − 1 change points). */
  readonly strategy?: "random" | "pct";
  /** PCT's bug depth d (default 2). */
  readonly depth?: number;
  /** Replay exactly these decisions (FIFO after them) instead of exploring seeds: a schedule from a report. */
  readonly schedule?: readonly number[];
  /** Shrink a failing schedule toward FIFO (default true). */
  readonly shrink?: boolean;
  /** Budgets per run: scheduling steps (default 100,000) and virtual time in ms (default 1 day). */
  readonly maxSteps?: number;
  readonly maxTime?: number;
}

/** The first failing seed: what failed, how to replay it, and the schedule that makes it fail. */
export interface SeedReport {
  readonly seed: number;
  /** The seeds that passed before it. */
  readonly passedBefore: readonly number[];
  readonly error: unknown;
  /** Same workload and seed (or schedule) → same hash, every run and every machine. */
  readonly traceHash: string;
  /** The last events of the (shrunk) run: virtual time, task, what happened. */
  readonly trace: readonly TraceEvent[];
  /** The shrunk decisions, one per point where more than one task was ready; 0 is the FIFO choice. */
  readonly schedule: readonly number[];
  /** The decisions the seed itself made, before shrinking. */
  readonly seedSchedule: readonly number[];
  readonly strategy: "random" | "pct";
  /** The run's other failures, each a different error: a task that also rejected, the budget it then exceeded. */
  readonly alsoFailed: readonly Failure[];
  /** The seed did not fail the same way when run again: the report may not replay, and was not shrunk. */
  readonly flaky: boolean;
  /** The minimal run for a timeline: every event (up to a cap), the tasks, and the decisions that differ from FIFO. */
  readonly timeline: Omit<ScheduleInfo, "seed" | "passedBefore" | "strategy" | "traceHash" | "schedule" | "text">;
  /** The text a person reads: seed, seeds passed, how to replay, how the schedule differs from FIFO, the trace tail. */
  render(): string;
}

const API = "explore";
const TRACE_TAIL = 20;

class RandomChooser implements Chooser {
  private readonly r: Random;
  constructor(seed: number) {
    this.r = new Random(mixSeed(seed, 1));
  }
  choose(ready: readonly Wakeup[]): number {
    return this.r.int(0, ready.length - 1);
  }
}

/**
 * PCT: a random priority per task (drawn when first seen), the highest-priority ready task runs; at d − 1
 * decision numbers drawn from 1..k the task chosen then drops below every other. k is the number of decisions
 * seen so far in this exploration (at least 10): the next seed's change points spread over a run's length.
 */
class PctChooser implements Chooser {
  private readonly r: Random;
  private readonly priorities = new Map<number, number>();
  private readonly changes: number[];
  private step = 0;
  constructor(seed: number, depth: number, k: number) {
    this.r = new Random(mixSeed(seed, 2));
    this.changes = Array.from({ length: depth - 1 }, () => this.r.int(1, Math.max(1, k)));
  }
  choose(ready: readonly Wakeup[]): number {
    this.step++;
    let best = 0;
    for (let i = 0; i < ready.length; i++) {
      const p = this.priority(ready[i]!.task.id);
      if (p > this.priority(ready[best]!.task.id)) best = i;
    }
    const at = this.changes.indexOf(this.step);
    if (at >= 0) this.priorities.set(ready[best]!.task.id, -1 - at);
    return best;
  }
  private priority(task: number): number {
    let p = this.priorities.get(task);
    if (p === undefined) this.priorities.set(task, (p = this.r.double()));
    return p;
  }
}

/**
 * Replays a list of choices, FIFO past its end: one per decision (a report's schedule), or, with `perStep`,
 * one per scheduling step, single-choice steps included (what the long-schedule shrinker edits).
 */
class ReplayChooser implements Chooser {
  private i = 0;
  constructor(
    private readonly choices: readonly number[],
    private readonly perStep = false,
  ) {}
  choose(ready: readonly Wakeup[]): number {
    const d = this.choices[this.i++] ?? 0;
    return d < ready.length ? d : 0;
  }
  single(): void {
    if (this.perStep) this.i++;
  }
}

const ONLY = Object.freeze({ min: 0, max: 0, shrinkTowards: 0 });
const COIN = Object.freeze({ p: 0.5 });

/**
 * Decisions drawn from a test case: what the engine shrinks. Each step draws "deviate from FIFO?" (false is
 * simplest), and only a deviation draws which of the other ready tasks runs. So every deviation costs a choice,
 * and shortlex — shorter first — prefers fewer deviations before it compares where they are: the minimum is the
 * schedule closest to FIFO, not merely the lexicographically smallest list of indices (which can need two
 * small deviations where one larger one does). A step with one task ready still draws (a choice of one), so a
 * deviation that removes a later decision point does not make the sequence shorter for free.
 */
class CaseChooser implements Chooser {
  constructor(private readonly tc: TestCase) {}
  choose(ready: readonly Wakeup[]): number {
    if (!this.tc.draw("boolean", COIN)) return 0;
    return 1 + this.tc.draw("integer", ready.length === 2 ? ONLY : { min: 0, max: ready.length - 2, shrinkTowards: 0 });
  }
  single(): void {
    this.tc.draw("integer", ONLY);
  }
}

/** Per-step choices (index among the ready, and how many were ready) in CaseChooser's encoding. */
function encode(choices: readonly number[], widths: readonly number[]): ChoiceValue[] {
  const out: ChoiceValue[] = [];
  choices.forEach((i, k) => {
    if (widths[k] === 1) out.push(0);
    else if (i === 0) out.push(false);
    else out.push(true, i - 1);
  });
  return out;
}

/**
 * Schedule edits the generic passes cannot make: a deviation is a flag and an index, and turning it back into
 * FIFO (or keeping it alone) means removing both while every later step keeps its own choice — a deletion of
 * the pair shifts them all by one, a lowering leaves the index to be misread as the next step's flag.
 */
const SCHEDULE_PASSES: readonly DomainPass[] = [
  {
    name: "keep one deviation",
    *candidates(target) {
      const w = target.case?.trace;
      if (!(w instanceof World)) return;
      const deviations = w.stepChoices.flatMap((i, k) => (i !== 0 ? [k] : []));
      if (deviations.length < 2) return;
      for (const k of deviations) yield encode(w.stepChoices.map((i, j) => (j === k ? i : 0)), w.stepWidths);
    },
  },
  {
    // When no kept deviation works alone: one deviation anywhere, each decision point and each other task
    // (bounded: this is the search the issue's "exactly one non-FIFO decision" needs, not a general one).
    name: "one deviation anywhere",
    *candidates(target) {
      const w = target.case?.trace;
      if (!(w instanceof World)) return;
      if (w.stepChoices.filter((i) => i !== 0).length < 2) return;
      let budget = 300;
      for (let k = 0; k < w.stepChoices.length && budget > 0; k++) {
        for (let i = 1; i < w.stepWidths[k]! && budget-- > 0; i++) yield encode(w.stepChoices.map((_, j) => (j === k ? i : 0)), w.stepWidths);
      }
    },
  },
  {
    name: "drop a deviation",
    *candidates(target) {
      const w = target.case?.trace;
      if (!(w instanceof World)) return;
      for (let k = w.stepChoices.length - 1; k >= 0; k--) {
        if (w.stepChoices[k] !== 0) yield encode(w.stepChoices.map((i, j) => (j === k ? 0 : i)), w.stepWidths);
      }
    },
  },
];

function posInt(api: string, name: string, v: unknown, min = 1): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min) invalid(api, `${name} must be an integer ≥ ${min}, got ${describe(v)}`);
  return v;
}

/** A list of safe integers ≥ `min`, copied (so a caller changing it later changes nothing), or undefined. */
function integers(v: unknown, min: number): number[] | undefined {
  if (!Array.isArray(v)) return undefined;
  // Array.from turns holes into undefined: every() skips holes, so [, 1] used to pass as a list of integers.
  const copy = Array.from(v as unknown[]);
  return copy.every((x) => Number.isSafeInteger(x) && (x as number) >= min) ? (copy as number[]) : undefined;
}

/** PCT's depth at most: its d − 1 change points each cost an array slot (2^40 was a RangeError from inside). */
const MAX_DEPTH = 1000;

function readOptions(api: string, options: unknown): { seeds: number[]; strategy: "random" | "pct"; depth: number; schedule: number[] | undefined; shrink: boolean; maxSteps: number; maxTime: number } {
  if (typeof options !== "object" || options === null) invalid(api, `options must be an object ({ seeds, strategy?, … }), got ${describe(options)}`);
  const o = options as Record<string, unknown>;
  const known = ["seeds", "strategy", "depth", "schedule", "shrink", "maxSteps", "maxTime"];
  for (const k of Object.keys(o)) if (!known.includes(k)) invalid(api, `unknown option "${k}" (known: ${known.join(", ")})`);
  let seeds: number[] | undefined;
  if (typeof o.seeds === "number") {
    if (!Number.isSafeInteger(o.seeds) || o.seeds < 1 || o.seeds > 1_000_000) invalid(api, `seeds must be a count from 1 to 1,000,000 or a list of integers, got ${describe(o.seeds)}`);
    seeds = Array.from({ length: o.seeds }, (_, i) => i);
  } else if (o.seeds === undefined && o.schedule !== undefined) seeds = [0];
  else seeds = integers(o.seeds, Number.MIN_SAFE_INTEGER);
  if (seeds === undefined || seeds.length === 0) invalid(api, `seeds must be a count or a non-empty list of integers, got ${describe(o.seeds)}`);
  if (o.strategy !== undefined && o.strategy !== "random" && o.strategy !== "pct") invalid(api, `strategy must be "random" or "pct", got ${describe(o.strategy)}`);
  if (o.depth !== undefined) {
    if (typeof o.depth !== "number" || !Number.isSafeInteger(o.depth) || o.depth < 1 || o.depth > MAX_DEPTH) invalid(api, `depth must be an integer ≥ 1 and at most ${MAX_DEPTH}, got ${describe(o.depth)}`);
    // Ignored otherwise: the user would believe a depth-d search ran.
    if (o.strategy !== "pct") invalid(api, `depth applies only to strategy: "pct" (the strategy is ${describe(o.strategy ?? "random")})`);
  }
  const schedule = o.schedule === undefined ? undefined : integers(o.schedule, 0);
  if (o.schedule !== undefined && schedule === undefined) invalid(api, `schedule must be a list of integers ≥ 0 (a report's schedule), got ${describe(o.schedule)}`);
  if (o.shrink !== undefined && typeof o.shrink !== "boolean") invalid(api, `shrink must be a boolean, got ${describe(o.shrink)}`);
  return {
    seeds,
    strategy: (o.strategy as "random" | "pct" | undefined) ?? "random",
    depth: (o.depth as number | undefined) ?? 2,
    schedule,
    shrink: (o.shrink as boolean | undefined) ?? true,
    maxSteps: posInt(api, "maxSteps", o.maxSteps) ?? 100_000,
    maxTime: posInt(api, "maxTime", o.maxTime) ?? 86_400_000,
  };
}

type Options = ReturnType<typeof readOptions>;

async function runOnce(workload: () => unknown, seed: number, chooser: Chooser, o: Options): Promise<{ world: World; error: unknown; failed: boolean }> {
  const world = new World({ seed, chooser, maxSteps: o.maxSteps, maxTime: o.maxTime, traceTail: TRACE_TAIL });
  try {
    await world.run(workload);
    return { world, error: undefined, failed: false };
  } catch (error) {
    return { world, error, failed: true };
  }
}

/**
 * The minimal schedule that still fails the same way: the engine shrinks the decisions (see the top). Falls
 * back to the seed's own decisions if the inner run could not reproduce them.
 */
async function shrinkSchedule(workload: () => unknown, seed: number, first: World, error: unknown, o: Options): Promise<Chooser | undefined> {
  if (first.decisions.every((d) => d === 0)) return undefined; // FIFO already
  const db = new InMemoryDatabase({ warn: () => {} });
  const key = "shrinkscope.explore.schedule";
  const saved = encode(first.stepChoices, first.stepWidths);
  // Past the engine's choice budget the replay overran, and a long failing schedule came back with every one
  // of its thousands of deviations; the engine's generic passes also cost the square of such a length.
  if (saved.length > LONG) return shrinkLong(workload, seed, first, errorOrigin(error), o);
  db.save(key, saved);
  const def: PropertyDefinition = {
    strategies: [new CaseHandle() as Strategy<unknown>],
    body: async (tc: unknown) => {
      const world = new World({ seed, chooser: new CaseChooser(tc as TestCase), maxSteps: o.maxSteps, maxTime: o.maxTime, traceTail: TRACE_TAIL });
      (tc as TestCase).trace = world;
      await world.run(workload);
    },
    settings: undefined,
    key,
    passes: SCHEDULE_PASSES,
  };
  try {
    await runIsolated(def, { database: db, key, phases: ["reuse", "shrink"], deadline: null, timeout: null, seed: 0, derandomize: true, maxShrinkCalls: 2000 });
  } catch (e) {
    if (e instanceof PropertyFailure && !e.flaky) return new CaseChooser(new TestCase(e.choices as ChoiceValue[], null, Math.max(8192, e.choices.length + 1)));
  }
  return undefined;
}

/** Encoded schedules longer than this (the engine's default choice budget) are shrunk by shrinkLong, in at most LONG_RUNS runs. */
const LONG = 8192;
const LONG_RUNS = 200;

/**
 * A long schedule, cut down within a budget of runs: FIFO if it fails the same way (the same error origin, as
 * the engine's shrinker requires), else delta debugging over the deviations kept (the others turned FIFO):
 * keep one chunk alone, or drop one, while what is kept still fails; finer chunks when neither works. A bug
 * that needs one overtaking among thousands of deviations ends with one.
 */
async function shrinkLong(workload: () => unknown, seed: number, first: World, origin: string, o: Options): Promise<Chooser> {
  const keeping = (kept: readonly number[]) => {
    const set = new Set(kept);
    return new ReplayChooser(first.stepChoices.map((c, k) => (set.has(k) ? c : 0)), true);
  };
  let budget = LONG_RUNS;
  const fails = async (kept: readonly number[]) => {
    if (budget-- <= 0) return false;
    const r = await runOnce(workload, seed, keeping(kept), o);
    return r.failed && errorOrigin(r.error) === origin;
  };
  if (await fails([])) return keeping([]);
  let kept = first.stepChoices.flatMap((c, k) => (c !== 0 ? [k] : []));
  let n = 2;
  while (kept.length > 1 && budget > 0) {
    const size = Math.ceil(kept.length / n);
    const chunks = Array.from({ length: Math.ceil(kept.length / size) }, (_, i) => kept.slice(i * size, (i + 1) * size));
    let next: number[] | undefined;
    for (const chunk of chunks) if (next === undefined && (await fails(chunk))) next = chunk;
    if (next !== undefined) n = 2;
    else if (chunks.length > 2) {
      for (const chunk of chunks) {
        const rest = kept.filter((k) => k < chunk[0]! || k > chunk[chunk.length - 1]!);
        if (next === undefined && (await fails(rest))) next = rest;
      }
      if (next !== undefined) n = Math.max(n - 1, 2);
    }
    if (next !== undefined) kept = next;
    else if (n >= kept.length) break;
    else n = Math.min(2 * n, kept.length);
  }
  return keeping(kept);
}

/** `rerun`: what the same seed did when run again, when that was not the same failure (a flaky workload). */
function render(r: Omit<SeedReport, "render">, world: World, shrunkFrom: number, rerun: string | undefined): string {
  const lines: string[] = [];
  const passed = r.passedBefore.length;
  lines.push(`explore: failed at seed ${r.seed} (${passed} seed${passed === 1 ? "" : "s"} passed first${passed > 0 && passed <= 10 ? `: ${r.passedBefore.join(", ")}` : ""}; strategy ${r.strategy})`);
  lines.push(`error: ${errorLine(r.error)}`);
  for (const f of r.alsoFailed) lines.push(`also: ${f.by === "" ? "" : `${f.by}: `}${errorLine(f.error)}`);
  if (rerun !== undefined) lines.push(`flaky: seed ${r.seed} failed, then ${rerun} when run again with the same seed: the workload depends on something the simulation does not control (Math.random, the real clock or I/O, state kept between runs), so replaying it may pass; its schedule was not shrunk`);
  lines.push(`replay: explore(workload, { seeds: [${r.seed}]${r.strategy === "pct" ? ', strategy: "pct"' : ""} }), or this exact schedule: explore(workload, { seeds: [${r.seed}], schedule: [${r.schedule.join(", ")}] })`);
  const deviations = world.choices.filter((_, i) => (r.schedule[i] ?? 0) !== 0);
  const n = r.schedule.length;
  lines.push(
    `schedule: ${n} decision${n === 1 ? "" : "s"} (points where more than one task was ready), ${deviations.length === 0 ? "all FIFO: the plain first-come order fails" : `${deviations.length} differ${deviations.length === 1 ? "s" : ""} from FIFO`}${shrunkFrom > deviations.length ? ` (shrunk from ${shrunkFrom} deviations)` : ""}`,
  );
  world.choices.forEach((c, i) => {
    if ((r.schedule[i] ?? 0) !== 0) lines.push(`  decision ${i + 1} at t=${c.t} ms: ran ${c.chosen} before ${c.fifo}`);
  });
  lines.push(`trace hash: ${r.traceHash} (${world.traceLength} events; the last ${r.trace.length}):`);
  for (const e of r.trace) lines.push(`  [t=${e.t}] ${e.task.padEnd(10)} ${e.what}`);
  return lines.join("\n");
}

/**
 * Run `workload` under each seed in turn (each a fresh simulated world, same workload), until one fails.
 * Resolves to null when every seed passes, else the first failing seed's report, its schedule shrunk toward FIFO.
 * @example const report = await explore(() => replicate(2, ["a"], 0), { seeds: 8 }); assert.equal(report, null, report?.render());
 */
export async function explore(workload: () => unknown, options: ExploreOptions): Promise<SeedReport | null> {
  if (typeof workload !== "function") invalid(API, `the workload must be a function returning a promise, got ${describe(workload)}`);
  return exploreWith(workload, readOptions(API, options));
}

async function exploreWith(workload: () => unknown, o: Options): Promise<SeedReport | null> {
  // From inside a workload, the inner run's steps are real turns the outer run cannot see: it would call the
  // outer task deadlocked.
  if (liveStore() !== undefined) invalid(API, "cannot run inside a simulated workload (explore or simTest called from a workload run by explore); call it from the test itself");
  const uninstall = installVirtualTimers();
  try {
    const passed: number[] = [];
    let widest = 10;
    for (const seed of o.seeds) {
      const k = widest;
      const chooser = () => (o.schedule !== undefined ? new ReplayChooser(o.schedule) : o.strategy === "pct" ? new PctChooser(seed, o.depth, k) : new RandomChooser(seed));
      const first = await runOnce(workload, seed, chooser(), o);
      widest = Math.max(widest, first.world.decisions.length);
      if (!first.failed) {
        passed.push(seed);
        continue;
      }
      // The same seed once more, before presenting it as one that replays: Math.random, the real clock or
      // state kept between runs make it pass (or fail otherwise), and shrinking that would chase noise.
      const again = await runOnce(workload, seed, chooser(), o);
      const rerun = !again.failed ? "passed" : again.world.traceHash !== first.world.traceHash ? `failed differently (trace hash ${again.world.traceHash}, not ${first.world.traceHash})` : undefined;
      const shrunk = rerun === undefined && o.shrink && o.schedule === undefined ? await shrinkSchedule(workload, seed, first.world, first.error, o) : undefined;
      // The report's run: the minimal schedule replayed (its trace, hash and error are what the report shows).
      let final = first;
      if (shrunk !== undefined) {
        const replay = await runOnce(workload, seed, shrunk, o);
        if (replay.failed) final = replay;
      }
      const shrunkFrom = first.world.decisions.filter((d) => d !== 0).length;
      const w = final.world;
      const timeline = {
        events: w.events,
        truncated: w.dropped,
        tasks: w.tasks.map((t) => t.label),
        deviations: w.choices.flatMap((c, i) => (w.decisions[i] !== 0 ? [{ decision: i + 1, t: c.t, chosen: c.chosen, fifo: c.fifo }] : [])),
      };
      const base = {
        seed,
        passedBefore: passed,
        error: final.error,
        alsoFailed: w.also,
        flaky: rerun !== undefined,
        traceHash: w.traceHash,
        trace: w.tail,
        schedule: w.decisions,
        seedSchedule: first.world.decisions,
        strategy: o.strategy,
        timeline,
      };
      const text = render(base, w, shrunkFrom, rerun);
      // Printed by util.inspect (assert.equal(report, null, …), console.log) as its text, not as every event.
      return { ...base, render: () => text, [Symbol.for("nodejs.util.inspect.custom")]: () => text };
    }
    return null;
  } finally {
    uninstall();
  }
}

/** The error simTest throws: the workload's own error, with the report as its message's tail. */
export class ScheduleFailure extends Error {
  override name = "ScheduleFailure";
  constructor(readonly report: SeedReport) {
    super(`${errorLine(report.error)}\n\n${report.render()}`, { cause: report.error });
    // The workload's own frames: the engine tells failures apart by where they were thrown.
    const stack = stackOf(report.error);
    const frames = stack?.split("\n").filter((l) => /^\s+at /.test(l));
    if (frames !== undefined && frames.length > 0) this.stack = `${this.name}: ${this.message}\n${frames.join("\n")}`;
  }

  /** The schedule as plain data, for the result event, the runner and the panel's timeline. */
  get info(): ScheduleInfo {
    const r = this.report;
    return { seed: r.seed, passedBefore: r.passedBefore, strategy: r.strategy, traceHash: r.traceHash, schedule: r.schedule, ...r.timeline, text: r.render() };
  }
}

/** An error's stack, or undefined — also for a thrown Proxy whose traps throw (which used to lose the report). */
function stackOf(e: unknown): string | undefined {
  try {
    return e instanceof Error && typeof e.stack === "string" ? e.stack : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a workload's error is misuse (never throws: instanceof on a hostile Proxy can). */
function isMisuse(error: unknown): boolean {
  try {
    return error instanceof InvalidArgument;
  } catch {
    return false;
  }
}

/**
 * A property body that explores `options.seeds` for each workload the property draws, and throws the first
 * failure (a ScheduleFailure carrying the report). The property shrinks the workload; the seeds stay fixed.
 * @example test("log", property(st.integers({ min: 1, max: 4 }), simTest({ seeds: 8 }, (writers) => replicate(writers, ["a"], 0))));
 */
export function simTest<A extends unknown[]>(options: ExploreOptions, body: (...args: A) => unknown): (...args: A) => Promise<void> {
  // Read once: the property stays a function of its arguments even if the caller changes `options` later.
  const o = readOptions("simTest", options);
  if (typeof body !== "function") invalid("simTest", `the body must be a function (the workload, given the property's arguments), got ${describe(body)}`);
  const fn = async (...args: A): Promise<void> => {
    const report = await exploreWith(() => body(...args), o);
    // Misuse in the workload (a bad call, target() once per seed) fails every schedule alike: it ends the run
    // as misuse, as it does from any body, rather than being shrunk into a bogus minimal example.
    if (report !== null && isMisuse(report.error)) throw report.error;
    if (report !== null) throw new ScheduleFailure(report);
  };
  return Object.assign(fn, { [SIM_BODY]: true });
}
