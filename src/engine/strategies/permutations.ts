/**
 * st.permutations and st.subsequences: a reordering, or an order-keeping subset, of a given array.
 *
 * A permutation is drawn as a Fisher–Yates shuffle from the front: for each position i, an integer in [i, n − 1]
 * says which element comes there, and its simplest value, i, leaves the element in place — so the given order is
 * the simplest permutation, and shrinking puts elements back one position at a time. A subsequence is drawn as a
 * list is: per element a "one more?" flag and its index (from the one after the previous element's, shrinking
 * toward it), in one span — so shrinking deletes elements, then moves the rest toward the front: the simplest is
 * the first minSize values.
 */
import type { BooleanConstraints } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, Strategy } from "./strategy.ts";
import { checkOptions, checkSizes, guard } from "./options.ts";
import { ConstraintsCache } from "./specials.ts";

class Permutations<T> extends Strategy<T[]> {
  constructor(private readonly values: readonly T[]) {
    super("permutation");
  }
  protected doDraw(tc: TestCase): T[] {
    const out = [...this.values];
    const n = out.length;
    for (let i = 0; i < n - 1; i++) {
      const j = tc.drawInteger({ min: i, max: n - 1, shrinkTowards: i });
      const t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }
}

/** "One more?": as likely as not, so a subsequence takes about half of a short array. */
const MORE: BooleanConstraints = { p: 0.5 };

class Subsequences<T> extends Strategy<T[]> {
  constructor(
    private readonly values: readonly T[],
    private readonly minSize: number,
    private readonly maxSize: number,
  ) {
    super("subsequence");
  }
  /** Made once per range of indices (see ConstraintsCache). */
  private readonly constraints = new ConstraintsCache();
  protected doDraw(tc: TestCase): T[] {
    const out: T[] = [];
    const n = this.values.length;
    let next = 0;
    for (;;) {
      tc.startSpan("list element"); // as a list's: the shrinker treats it as one
      // Forced where the sizes leave no choice: more until minSize, none at maxSize or past the last value.
      const more =
        out.length >= this.maxSize || next >= n
          ? tc.draw("boolean", MORE, false)
          : out.length < this.minSize
            ? tc.draw("boolean", MORE, true)
            : tc.drawBoolean(MORE);
      if (!more) {
        tc.endSpan();
        return out;
      }
      // Which value comes next: an index from the next one on, leaving enough after it for minSize. An index,
      // not a count skipped: deleting an element's span leaves the later ones where they were.
      const last = n - 1 - Math.max(0, this.minSize - out.length - 1);
      next = tc.drawInteger(this.constraints.get(next, last, next));
      out.push(this.values[next++]);
      tc.endSpan();
    }
  }
}

function copyOf<T>(api: string, values: readonly T[]): T[] {
  // Copied once, here: an index getter that throws (or a Proxy trap) is InvalidArgument naming the call.
  return guard(api, "reading the values", () => {
    if (!Array.isArray(values)) invalid(api, `expects an array of values, got ${describe(values)}`);
    return [...values];
  });
}

/**
 * The values in any order; shrinks toward the order given.
 * @example st.permutations([1, 2, 3]) // [1, 2, 3], [3, 1, 2], …
 */
export function permutations<T>(values: readonly T[]): Strategy<T[]> {
  return new Permutations(copyOf("st.permutations", values));
}

export interface SubsequencesOptions {
  minSize?: number;
  maxSize?: number;
}

/**
 * Some of the values, in the order given; shrinks toward the shortest allowed, the first values (the first
 * `minSize` of them).
 * @example st.subsequences(["a", "b", "c"], { minSize: 1 }) // ["a"], ["a", "c"], ["b"], …
 */
export function subsequences<T>(values: readonly T[], options?: SubsequencesOptions): Strategy<T[]> {
  const api = "st.subsequences";
  const copy = copyOf(api, values);
  const o = checkOptions(api, options, ["minSize", "maxSize"]);
  const { minSize, maxSize } = checkSizes(api, o.minSize, o.maxSize);
  if (minSize > copy.length) invalid(api, `minSize (${minSize}) is more than the ${copy.length} values given`);
  return new Subsequences(copy, minSize, Math.min(maxSize, copy.length));
}
