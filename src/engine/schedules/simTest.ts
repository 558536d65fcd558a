/**
 * simTest(): explore() as a property's body, so the property's shrinker owns the workload while the seed range
 * stays fixed; and ScheduleFailure, the error it throws, which carries the failing seed's report (its `info`
 * is the schedule as plain data, for the result event, the runner and the panel's timeline). A simTest body
 * runs in virtual time, so it tells the property it is given to (BODY_HOOKS) to run without a deadline.
 */
import type { ScheduleInfo } from "../events/events.ts";
import type { BodyHooks } from "../property/definition.ts";
import { BODY_HOOKS } from "../property/definition.ts";
import { defaultTimeout } from "../property/settings.ts";
import { errorLine } from "../print/errorLine.ts";
import { describe } from "../strategies/strategy.ts";
import { invalid, InvalidArgument, UnsatisfiedAssumption } from "../util/errors.ts";
import { exploreWith } from "./explore.ts";
import type { ExploreOptions } from "./exploreOptions.ts";
import { readOptions } from "./exploreOptions.ts";
import type { SeedReport } from "./seedReport.ts";

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
    return {
      seed: r.seed,
      passedBefore: r.passedBefore,
      strategy: r.strategy,
      traceHash: r.traceHash,
      schedule: r.schedule,
      ...r.timeline,
      text: r.render(),
    };
  }
}

/** An error's stack, or undefined — also for a thrown Proxy whose traps throw (the report must not be lost to it). */
function stackOf(e: unknown): string | undefined {
  try {
    return e instanceof Error && typeof e.stack === "string" ? e.stack : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the workload threw what ends a case the same way in any body: misuse (InvalidArgument) or assume()
 * (UnsatisfiedAssumption). A thrown Proxy's traps may throw: it is neither.
 */
function endsTheCase(error: unknown): boolean {
  try {
    return error instanceof InvalidArgument || error instanceof UnsatisfiedAssumption;
  } catch {
    return false;
  }
}

/**
 * A property body that explores `options.seeds` for each workload the property draws, and throws the first
 * failure (a ScheduleFailure carrying the report). The property shrinks the workload; the seeds stay fixed.
 * @example test("log", property(st.integers({ min: 1, max: 4 }), simTest({ seeds: 8 }, (writers) => replicate(writers, ["a"], 0))));
 */
export function simTest<A extends unknown[]>(
  options: ExploreOptions,
  body: (...args: A) => unknown,
): (...args: A) => Promise<void> {
  // Read once: the property stays a function of its arguments even if the caller changes `options` later.
  const o = readOptions("simTest", options);
  if (typeof body !== "function")
    invalid(
      "simTest",
      `the body must be a function (the workload, given the property's arguments), got ${describe(body)}`,
    );
  const fn = async (...args: A): Promise<void> => {
    const report = await exploreWith(() => body(...args), o);
    // Misuse in the workload (a bad call, target() once per seed) fails every schedule alike: it ends the run
    // as misuse, as it does from any body, rather than being shrunk into a bogus minimal example.
    // assume() in the workload discards the test case, as in any body, whatever schedule reached it.
    if (report !== null && endsTheCase(report.error)) throw report.error;
    if (report !== null) throw new ScheduleFailure(report);
  };
  // The workload's text keys the property: the wrapper above is the same for every simTest.
  return Object.assign(fn, { [BODY_HOOKS]: { ...SIM_HOOKS, keySource: body } });
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
