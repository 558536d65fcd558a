// A bug a strategy must find and shrink: over seeds 0..19, the minimal failing arguments of each run and how many
// runs failed within their first 100 examples. A strategy's test file asserts both (each seed's minimal example is
// the documented one; found within 100 examples on at least 18 of the 20 seeds).
import { check, property, PropertyFailure } from "../../../src/engine/index.ts";
import type { Strategy } from "../../../src/engine/index.ts";

export interface BugRuns {
  /** Per seed, the minimal failing arguments and their repro (undefined: the property passed). */
  readonly minimal: ({ args: unknown[]; repro: string } | undefined)[];
  /** Seeds whose first failure came within the first 100 examples. */
  readonly foundEarly: number;
}

export function bugRuns<T>(strategy: Strategy<T>, holds: (value: T) => boolean, seeds = 20): BugRuns {
  const minimal: BugRuns["minimal"] = [];
  let foundEarly = 0;
  for (let seed = 0; seed < seeds; seed++) {
    let calls = 0;
    let firstFailure = Infinity;
    try {
      check(
        property(strategy, (v) => {
          calls++;
          if (!holds(v)) {
            firstFailure = Math.min(firstFailure, calls);
            throw new Error("the bug");
          }
        }),
        { database: null, deadline: null, seed },
      );
      minimal.push(undefined);
    } catch (e) {
      if (!(e instanceof PropertyFailure)) throw e;
      minimal.push({ args: e.args, repro: e.repro });
    }
    if (firstFailure <= 100) foundEarly++;
  }
  return { minimal, foundEarly };
}
