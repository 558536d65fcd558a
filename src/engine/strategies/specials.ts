/**
 * What strategies share for generation: values they favour while generating, queued as generated choices, and
 * integer constraints whose bounds follow earlier choices (a date's day, a bigint's limbs, a subsequence's
 * indices), made once each.
 *
 * A special value is steered into generation by TestCase.setReplayQueue (as lists repeat an element): the
 * queued values are recorded as ordinary generated choices, not forced ones, so shrinking moves them freely,
 * replay never sees the queue, and a value a bound rules out is dropped by the test case and generated instead.
 */
import type { IntegerConstraints } from "../choice/types.ts";
import type { TestCase } from "../core/testCase.ts";

/**
 * One of `specials`, with probability p, when the next draw of `tc` is generated fresh and no queue is running
 * (a list repeating an element's choices queues them: its repeat wins); else null. The caller queues the
 * special's choices (setReplayQueue) and calls specialQueued after its draws.
 */
export function queueSpecial<S>(tc: TestCase, p: number, specials: readonly S[]): S | null {
  const random = tc.random;
  if (random === null || specials.length === 0 || tc.queueing || !tc.generating || !random.bool(p)) return null;
  return random.pick(specials);
}

/** Ends what queueSpecial began: whatever of the queue the draws did not take goes. */
export function specialQueued(tc: TestCase): void {
  tc.setReplayQueue(null);
}

/**
 * Integer constraints by (min, max, shrinkTowards), the same object for the same numbers: the DataTree keeps a
 * kind of choice per constraints object (core/datatree.ts), so a new object per draw would grow it case after
 * case. Strategies whose bounds follow their earlier choices (a date's day, a bounded bigint's limbs, a
 * subsequence's indices) draw through one of these. What it has made is private (an ES private field): a
 * strategy's database key is a walk over its own fields (property/key.ts), which must not change as it draws.
 */
export class ConstraintsCache {
  // Nested maps keyed by the numbers themselves: a string key made on every draw cost a date a sixth of its time.
  readonly #made = new Map<number, Map<number, Map<number, IntegerConstraints>>>();
  get(min: number, max: number, shrinkTowards: number): IntegerConstraints {
    let byMax = this.#made.get(min);
    if (byMax === undefined) this.#made.set(min, (byMax = new Map()));
    let byToward = byMax.get(max);
    if (byToward === undefined) byMax.set(max, (byToward = new Map()));
    let c = byToward.get(shrinkTowards);
    if (c === undefined) byToward.set(shrinkTowards, (c = { min, max, shrinkTowards }));
    return c;
  }
}
