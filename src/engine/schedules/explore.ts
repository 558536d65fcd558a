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
import type { ChoiceValue } from "../choice/choices.ts";
import { InMemoryDatabase } from "../databases/database.ts";
import { runIsolated } from "../property/run.ts";
import { BODY_HOOKS } from "../property/definition.ts";
import type { BodyHooks } from "../property/definition.ts";
import { defaultTimeout } from "../property/settings.ts";
import { PropertyFailure } from "../property/errors.ts";
import { errorOrigin } from "../property/origin.ts";
import type { PropertyDefinition } from "../property/definition.ts";
import type { DomainPass } from "../core/shrinker.ts";
import { describe, Strategy } from "../strategies/strategy.ts";
import { TestCase } from "../core/testCase.ts";
import type { ScheduleInfo } from "../events/events.ts";
import type { Wakeup } from "./task.ts";
import type { Chooser } from "./choosers.ts";
import { PctChooser, RandomChooser, ReplayChooser } from "./choosers.ts";
import { liveStore, World } from "./world.ts";
import { errorLine } from "../print/errorLine.ts";
import { CaseHandle } from "../strategies/caseHandle.ts";
import { installVirtualTimers } from "./virtualTimers.ts";
import { readOptions } from "./exploreOptions.ts";
import { seedReport } from "./seedReport.ts";
import type { SeedReport } from "./seedReport.ts";
import type { ExploreOptions, Options } from "./exploreOptions.ts";

const API = "explore";
const TRACE_TAIL = 20;

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
    // (bounded: this is the search the "exactly one non-FIFO decision" needs, not a general one).
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
      return seedReport(seed, passed, o.strategy, first.world, final, rerun);
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
  return Object.assign(fn, { [BODY_HOOKS]: SIM_HOOKS });
}

/**
 * A simTest body runs many whole workloads per example, in virtual time: the wall clock says nothing about it,
 * so the deadline would only fire falsely (the timeout still guards against a hang). And its timeout, unless
 * set, is the one without a deadline (60 s): 10 × the default deadline is 2 s, which a big workload's
 * exploration and schedule shrinking can pass without hanging at all.
 */
const SIM_HOOKS: BodyHooks = {
  settingsForRun: (resolved, given) => {
    const timeoutSet = given.some((layer) => layer?.timeout !== undefined);
    return { ...resolved, deadline: null, ...(timeoutSet ? {} : { timeout: defaultTimeout(null) }) };
  },
};
