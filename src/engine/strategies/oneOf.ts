/**
 * st.oneOf: a value from one of several strategies, chosen by one integer choice; shrinks toward the first.
 * Weighted (`st.oneOf([3, a], [1, b])`), generation picks each alternative in proportion to its weight — by
 * queueing the index it picked as the choice's generated value — while the choice, and so shrinking, stays the
 * same: toward the first alternative.
 */
import type { IntegerConstraints } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, requireStrategy, Strategy } from "./strategy.ts";
import type { ValueOfStrategy } from "./strategy.ts";

class OneOf<T> extends Strategy<T> {
  protected readonly constraints: IntegerConstraints;
  constructor(protected readonly options: readonly Strategy<T>[]) {
    super("oneOf");
    this.constraints = { min: 0, max: options.length - 1, shrinkTowards: 0 };
  }
  protected doDraw(tc: TestCase): T {
    return this.options[tc.drawInteger(this.constraints)].draw(tc);
  }
  override distinctValues(): number {
    return this.options.reduce((n, s) => n + s.distinctValues(), 0);
  }
}

/** Weighted: the same choice, its generated value picked by the weights (the database key of the unweighted form is kept apart). */
class WeightedOneOf<T> extends OneOf<T> {
  constructor(
    options: readonly Strategy<T>[],
    /** Running sums of the weights. */
    private readonly cumulative: readonly number[],
  ) {
    super(options);
  }
  protected override doDraw(tc: TestCase): T {
    const random = tc.random;
    if (random === null || !tc.generating || tc.queueing) return super.doDraw(tc);
    const cumulative = this.cumulative;
    const x = random.uint32() * (cumulative[cumulative.length - 1] / 2 ** 32);
    let picked = 0;
    while (picked < cumulative.length - 1 && x >= cumulative[picked]) picked++;
    tc.setReplayQueue([picked]);
    const index = tc.drawInteger(this.constraints);
    tc.setReplayQueue(null);
    return this.options[index].draw(tc);
  }
}

/**
 * A value from one of the strategies; shrinks toward the first. Give `[weight, strategy]` pairs to pick some
 * more often than others while generating (weights are positive numbers, relative to each other).
 * @example st.oneOf(st.integers(), st.text()) // Strategy<number | string>
 * @example st.oneOf([9, st.integers()], [1, st.just(null)]) // null about one time in ten
 */
export function oneOf<const S extends readonly Strategy<unknown>[]>(
  ...options: S
): Strategy<ValueOfStrategy<S[number]>>;
export function oneOf<const W extends readonly (readonly [number, Strategy<unknown>])[]>(
  ...options: W
): Strategy<ValueOfStrategy<W[number][1]>>;
export function oneOf(...options: unknown[]): Strategy<unknown> {
  const api = "st.oneOf";
  if (options.length === 0) invalid(api, "needs at least one strategy");
  const weighted = options.map((o) => Array.isArray(o));
  if (!weighted.some(Boolean)) {
    options.forEach((s, i) => requireStrategy(api, s, `argument ${i}`));
    return new OneOf(options as Strategy<unknown>[]);
  }
  if (!weighted.every(Boolean)) {
    const plain = weighted.indexOf(false);
    invalid(
      api,
      `argument ${plain} is ${describe(options[plain])}: give every alternative as [weight, strategy], or none`,
    );
  }
  const strategies: Strategy<unknown>[] = [];
  const cumulative: number[] = [];
  let total = 0;
  options.forEach((o, i) => {
    const pair = o as unknown[];
    const [weight, s] = pair;
    if (pair.length !== 2)
      invalid(api, `argument ${i} must be a [weight, strategy] pair, got an array of ${pair.length}`);
    if (typeof weight !== "number" || !Number.isFinite(weight) || weight <= 0) {
      invalid(api, `the weight of argument ${i} must be a positive finite number, got ${describe(weight)}`);
    }
    requireStrategy(api, s, `argument ${i}'s strategy`);
    strategies.push(s);
    cumulative.push((total += weight));
  });
  return new WeightedOneOf(strategies, cumulative);
}
