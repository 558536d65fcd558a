/**
 * explore() and simTest(): run an async workload under a range of seeds in the simulated scheduler (sim.ts),
 * report the first seed that fails, and shrink its schedule toward FIFO.
 *
 * The seeds are never a strategy: a seed has no size, and drawing it would make "this workload
 * fails" depend on the draw. So the property's engine owns the workload, the seed range owns the schedules, and
 * the two shrinkers never meet: simTest explores the same seeds for every workload the property tries, which
 * keeps the property a function of its arguments.
 *
 * The failing seed runs once more first: a workload that fails differently on the same seed (Math.random, real
 * time, state kept between runs) is reported as flaky, unshrunk. Otherwise its schedule is shrunk toward FIFO
 * by the engine's own shrinker (scheduleShrinker.ts), and the minimal schedule replayed once more for the
 * report's trace and hash (seedReport.ts).
 */
import type { ScheduleInfo } from "../events/events.ts";
import type { BodyHooks } from "../property/definition.ts";
import { BODY_HOOKS } from "../property/definition.ts";
import { defaultTimeout } from "../property/settings.ts";
import { errorLine } from "../print/errorLine.ts";
import { describe } from "../strategies/strategy.ts";
import { invalid, InvalidArgument } from "../util/errors.ts";
import { PctChooser, RandomChooser, ReplayChooser } from "./choosers.ts";
import { readOptions } from "./exploreOptions.ts";
import type { ExploreOptions, Options } from "./exploreOptions.ts";
import { shrinkSchedule } from "./scheduleShrinker.ts";
import { seedReport } from "./seedReport.ts";
import type { SeedReport } from "./seedReport.ts";
import { installVirtualTimers } from "./virtualTimers.ts";
import { liveStore, runOnce } from "./world.ts";

const API = "explore";

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
