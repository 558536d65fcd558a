/** st.integers: one integer choice; shrinks toward shrinkTowards (0), in zigzag order. */
import type { IntegerConstraints } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { Strategy } from "./strategy.ts";
import { checkInteger, checkOptions } from "./options.ts";

export interface IntegersOptions {
  min?: number;
  max?: number;
  /** The value shrinking moves toward (default 0, clamped into [min, max]). */
  shrinkTowards?: number;
}

class Integers extends Strategy<number> {
  constructor(readonly constraints: IntegerConstraints) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): number {
    return tc.drawInteger(this.constraints);
  }
  // Overridden (no span to open): each strategy class calls its own doDraw, so the call stays monomorphic.
  override draw(tc: TestCase): number {
    return tc.drawInteger(this.constraints);
  }
  override distinctValues(): number {
    const { min, max } = this.constraints;
    return min === null || max === null ? Infinity : max - min + 1;
  }
}

/** The constraints of an st.integers() strategy, or null for any other (a list draws such elements straight). */
export function integerConstraintsOf(s: Strategy<unknown>): IntegerConstraints | null {
  return s instanceof Integers ? s.constraints : null;
}

/** Integers in [min, max] (safe integers; unbounded sides stay within ±Number.MAX_SAFE_INTEGER). */
export function integers(options?: IntegersOptions): Strategy<number> {
  const api = "st.integers";
  const o = checkOptions(api, options, ["min", "max", "shrinkTowards"]);
  checkInteger(api, "min", o.min);
  checkInteger(api, "max", o.max);
  checkInteger(api, "shrinkTowards", o.shrinkTowards);
  const { min, max } = o;
  if (min !== undefined && max !== undefined && min > max)
    invalid(api, `min (${min}) must not be greater than max (${max})`);
  // `+ 0` turns a −0 option into 0: integers have one zero, and a −0 bound or target would otherwise be drawn
  // as −0, which prints as -0 and is not deepStrictEqual to 0.
  return new Integers({
    min: min === undefined ? null : min + 0,
    max: max === undefined ? null : max + 0,
    shrinkTowards: (o.shrinkTowards ?? 0) + 0,
  });
}
