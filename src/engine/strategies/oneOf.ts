/** st.oneOf: a value from one of several strategies, chosen by one integer choice; shrinks toward the first. */
import type { IntegerConstraints } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { requireStrategy, Strategy } from "./strategy.ts";
import type { ValueOfStrategy } from "./strategy.ts";

class OneOf<T> extends Strategy<T> {
  private readonly constraints: IntegerConstraints;
  constructor(private readonly options: readonly Strategy<T>[]) {
    super("oneOf");
    this.constraints = { min: 0, max: options.length - 1, shrinkTowards: 0 };
  }
  protected doDraw(tc: TestCase): T {
    return this.options[tc.draw("integer", this.constraints)].draw(tc);
  }
}

/** A value from one of the strategies; shrinks toward the first. */
export function oneOf<const S extends readonly Strategy<unknown>[]>(
  ...options: S
): Strategy<ValueOfStrategy<S[number]>> {
  const api = "st.oneOf";
  if (options.length === 0) invalid(api, "needs at least one strategy");
  options.forEach((s, i) => requireStrategy(api, s, `argument ${i}`));
  return new OneOf(options as unknown as Strategy<ValueOfStrategy<S[number]>>[]);
}
