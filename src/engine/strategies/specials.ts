/**
 * What st.dates and st.bigints share: values they favour while generating, queued as generated choices, and the
 * integer constraints their fields and limbs are drawn under, made once each.
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
 * case. Strategies whose bounds follow their earlier choices (a date's day, a bounded bigint's limbs) draw
 * through one of these.
 */
export function constraintsCache(): (min: number, max: number, shrinkTowards: number) => IntegerConstraints {
  const made = new Map<string, IntegerConstraints>();
  return (min, max, shrinkTowards) => {
    const key = `${min} ${max} ${shrinkTowards}`;
    let c = made.get(key);
    if (c === undefined) made.set(key, (c = { min, max, shrinkTowards }));
    return c;
  };
}
