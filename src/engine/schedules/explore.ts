/**
 * explore(): run an async workload under a range of seeds in the simulated world (world.ts), report the first
 * seed that fails, and shrink its schedule toward FIFO. simTest.ts makes it a property's body.
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
import { describe } from "../strategies/strategy.ts";
import { invalid } from "../util/errors.ts";
import { PctChooser, RandomChooser, ReplayChooser } from "./choosers.ts";
import { readOptions } from "./exploreOptions.ts";
import type { ExploreOptions, Options } from "./exploreOptions.ts";
import { shrinkSchedule } from "./scheduleShrinker.ts";
import { seedReport } from "./seedReport.ts";
import type { SeedReport } from "./seedReport.ts";
import { withOutsideWork } from "./outsideWork.ts";
import { installVirtualTimers } from "./virtualTimers.ts";
import { liveStore, runOnce } from "./world.ts";

const API = "explore";

/**
 * Run `workload` under each seed in turn (each a fresh simulated world, same workload), until one fails.
 * Resolves to null when every seed passes, else the first failing seed's report, its schedule shrunk toward FIFO.
 * @example const report = await explore(() => replicate(2, ["a"], 0), { seeds: 8 }); assert.equal(report, null, report?.render());
 */
/** How many times a failing seed is run again to tell a replaying failure from noise. */
const RERUNS = 4;

export async function explore(workload: () => unknown, options: ExploreOptions): Promise<SeedReport | null> {
  if (typeof workload !== "function")
    invalid(API, `the workload must be a function returning a promise, got ${describe(workload)}`);
  return exploreWith(workload, readOptions(API, options));
}

/** explore() with its options read (simTest reads them once, at construction). */
export async function exploreWith(workload: () => unknown, o: Options): Promise<SeedReport | null> {
  // From inside a workload, the inner run's steps are real turns the outer run cannot see: it would call the
  // outer task deadlocked.
  if (liveStore() !== undefined)
    invalid(
      API,
      "cannot run inside a simulated workload (explore or simTest called from a workload run by explore); call it from the test itself",
    );
  const uninstall = installVirtualTimers();
  try {
    const passed: number[] = [];
    let widest = 10;
    for (const seed of o.seeds) {
      const k = widest;
      const chooser = () =>
        o.schedule !== undefined
          ? new ReplayChooser(o.schedule)
          : o.strategy === "pct"
            ? new PctChooser(seed, o.depth, k)
            : new RandomChooser(seed);
      const first = await runOnce(workload, seed, chooser(), o);
      widest = Math.max(widest, first.world.decisions.length);
      if (!first.failed) {
        passed.push(seed);
        continue;
      }
      // The same seed again, before presenting it as one that replays: Math.random, the real clock or state kept
      // between runs make it pass (or fail otherwise), and shrinking that would chase noise. A few times: a
      // workload that fails at random one run in three fails again on one rerun a third of the time.
      // The first rerun also notes real asynchronous work the tasks started (outsideWork.ts), for the report.
      let rerun: string | undefined;
      let outside: string[] = [];
      for (let r = 0; r < RERUNS && rerun === undefined; r++) {
        let again: Awaited<ReturnType<typeof runOnce>>;
        if (r === 0) ({ result: again, outside } = await withOutsideWork(() => runOnce(workload, seed, chooser(), o)));
        else again = await runOnce(workload, seed, chooser(), o);
        rerun = !again.failed
          ? "passed"
          : again.world.traceHash !== first.world.traceHash
            ? `failed differently (trace hash ${again.world.traceHash}, not ${first.world.traceHash})`
            : undefined;
      }
      const shrunk =
        rerun === undefined && o.shrink && o.schedule === undefined
          ? await shrinkSchedule(workload, seed, first.world, first.error, o)
          : undefined;
      // The report's run: the minimal schedule replayed (its trace, hash and error are what the report shows).
      let final = first;
      if (shrunk !== undefined) {
        const replay = await runOnce(workload, seed, shrunk, o);
        if (replay.failed) final = replay;
      }
      return seedReport(seed, passed, o.strategy, first.world, final, rerun, outside);
    }
    return null;
  } finally {
    uninstall();
  }
}
