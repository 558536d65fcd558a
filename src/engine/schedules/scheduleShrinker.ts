/**
 * Shrinking a failing seed's schedule toward FIFO. Its decisions are saved in an in-memory database and handed
 * to Shrinkscope's own engine as a property whose body replays the workload with decisions drawn from the test
 * case (CaseChooser: "deviate from FIFO?", then which other task), run without the runner's layer (runIsolated).
 * The engine replays that saved case first, then deletes and lowers decisions — fewer deviations from FIFO,
 * earlier — keeping only what still fails the same way (the same error origin), with passes of its own for
 * what the generic ones cannot do (SCHEDULE_PASSES). A schedule longer than the engine's choice budget is cut
 * down here instead (shrinkLong), in a bounded number of runs.
 */
import type { ChoiceValue } from "../choice/types.ts";
import type { DomainPass } from "../core/shrinker.ts";
import { TestCase } from "../core/testCase.ts";
import { InMemoryDatabase } from "../databases/inMemory.ts";
import type { PropertyDefinition } from "../property/definition.ts";
import { PropertyFailure } from "../property/errors.ts";
import { errorOrigin } from "../property/origin.ts";
import { runIsolated } from "../property/run.ts";
import { CaseHandle } from "../strategies/caseHandle.ts";
import type { Strategy } from "../strategies/strategy.ts";
import type { Chooser } from "./choosers.ts";
import { ReplayChooser } from "./choosers.ts";
import type { Options } from "./exploreOptions.ts";
import type { Wakeup } from "./task.ts";
import { runOnce, TRACE_TAIL, World } from "./world.ts";

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
      for (const k of deviations)
        yield encode(
          w.stepChoices.map((i, j) => (j === k ? i : 0)),
          w.stepWidths,
        );
    },
  },
  {
    // When no kept deviation works alone: one deviation anywhere, each decision point and each other task
    // (bounded: enough for a failure that needs exactly one non-FIFO decision, not a general search).
    name: "one deviation anywhere",
    *candidates(target) {
      const w = target.case?.trace;
      if (!(w instanceof World)) return;
      if (w.stepChoices.filter((i) => i !== 0).length < 2) return;
      let budget = 300;
      for (let k = 0; k < w.stepChoices.length && budget > 0; k++) {
        for (let i = 1; i < w.stepWidths[k]! && budget-- > 0; i++)
          yield encode(
            w.stepChoices.map((_, j) => (j === k ? i : 0)),
            w.stepWidths,
          );
      }
    },
  },
  {
    name: "drop a deviation",
    *candidates(target) {
      const w = target.case?.trace;
      if (!(w instanceof World)) return;
      for (let k = w.stepChoices.length - 1; k >= 0; k--) {
        if (w.stepChoices[k] !== 0)
          yield encode(
            w.stepChoices.map((i, j) => (j === k ? 0 : i)),
            w.stepWidths,
          );
      }
    },
  },
];

/**
 * The minimal schedule that still fails the same way: the engine shrinks the decisions (see the top). Falls
 * back to the seed's own decisions if the inner run could not reproduce them.
 */
export async function shrinkSchedule(
  workload: () => unknown,
  seed: number,
  first: World,
  error: unknown,
  o: Options,
): Promise<Chooser | undefined> {
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
      const world = new World({
        seed,
        chooser: new CaseChooser(tc as TestCase),
        maxSteps: o.maxSteps,
        maxTime: o.maxTime,
        traceTail: TRACE_TAIL,
        ...(o.act !== undefined ? { act: o.act } : {}),
      });
      (tc as TestCase).trace = world;
      await world.run(workload);
    },
    settings: undefined,
    key,
    passes: SCHEDULE_PASSES,
  };
  try {
    await runIsolated(def, {
      database: db,
      key,
      phases: ["reuse", "shrink"],
      deadline: null,
      timeout: null,
      seed: 0,
      derandomize: true,
      maxShrinkCalls: 2000,
    });
  } catch (e) {
    if (e instanceof PropertyFailure && !e.flaky)
      return new CaseChooser(new TestCase(e.choices as ChoiceValue[], null, Math.max(8192, e.choices.length + 1)));
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
async function shrinkLong(
  workload: () => unknown,
  seed: number,
  first: World,
  origin: string,
  o: Options,
): Promise<Chooser> {
  const keeping = (kept: readonly number[]) => {
    const set = new Set(kept);
    return new ReplayChooser(
      first.stepChoices.map((c, k) => (set.has(k) ? c : 0)),
      true,
    );
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
    const chunks = Array.from({ length: Math.ceil(kept.length / size) }, (_, i) =>
      kept.slice(i * size, (i + 1) * size),
    );
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
