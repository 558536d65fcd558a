/** st.sampledFrom: one of a list of values, by one integer choice of its index; shrinks toward the first. */
import type { IntegerConstraints } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, Strategy } from "./strategy.ts";
import { guard } from "./options.ts";

class SampledFrom<T> extends Strategy<T> {
  private readonly constraints: IntegerConstraints;
  constructor(private readonly values: readonly T[]) {
    super(undefined);
    this.constraints = { min: 0, max: values.length - 1, shrinkTowards: 0 };
  }
  protected doDraw(tc: TestCase): T {
    return this.values[tc.drawInteger(this.constraints)];
  }
  override draw(tc: TestCase): T {
    return this.values[tc.drawInteger(this.constraints)];
  }
  override distinctValues(): number {
    return this.values.length;
  }
}

/** The most values st.sampledFrom copies (2^24): an index strategy serves longer arrays. */
const MAX_VALUES = 2 ** 24;

/** One of `values`; shrinks toward the first. */
export function sampledFrom<const T>(values: readonly T[]): Strategy<T> {
  const api = "st.sampledFrom";
  // Copied once, here: an index getter that throws (or a Proxy trap) is InvalidArgument naming the call.
  const copy = guard(api, "reading the values", () => {
    if (!Array.isArray(values)) invalid(api, `expects an array of values, got ${describe(values)}`);
    // Copying a huge (or huge and sparse: new Array(2 ** 32 - 1)) array would run the process out of memory.
    if (values.length > MAX_VALUES)
      invalid(
        api,
        `the array has ${values.length} elements, more than ${MAX_VALUES} can be copied; draw an index instead: st.integers({ min: 0, max: values.length - 1 }).map((i) => values[i])`,
      );
    return [...values];
  });
  if (copy.length === 0) invalid(api, "the array of values is empty; there is nothing to sample");
  return new SampledFrom(copy);
}
