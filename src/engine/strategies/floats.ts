/** st.floats: one float choice; shrinks toward integral values, fewer binary digits, then smaller. */
import type { FloatConstraints } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, Strategy } from "./strategy.ts";
import { checkBoolean, checkOptions } from "./options.ts";

export interface FloatsOptions {
  min?: number;
  max?: number;
  /** Allow NaN (default: true when no bound is given). */
  allowNaN?: boolean;
  /** Allow ±Infinity (default: true on the sides without a bound). */
  allowInfinity?: boolean;
}

class Floats extends Strategy<number> {
  constructor(readonly constraints: FloatConstraints) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): number {
    return tc.draw("float", this.constraints);
  }
  // Overridden (no span to open): each strategy class calls its own doDraw, so the call stays monomorphic.
  override draw(tc: TestCase): number {
    return tc.draw("float", this.constraints);
  }
}

/**
 * Floats at most −0: the draw is from the mirror image [+0, −min] and negated. The order of floats is symmetric
 * in sign, so shrinking is unchanged; and every generated value keeps its sign bit — drawing [min, −0] directly,
 * a value built by arithmetic near −0 (−0 + 0) would come out +0, outside the bounds.
 */
class NegatedFloats extends Strategy<number> {
  constructor(readonly constraints: FloatConstraints) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): number {
    return -tc.draw("float", this.constraints);
  }
}

/**
 * Floating-point numbers, including −0, subnormals, and (unless excluded) ±Infinity and NaN.
 * A zero bound is signed, as in Hypothesis: min 0 excludes −0, max −0 excludes 0 (min −0 and max 0 allow both;
 * so does the contradictory min 0 with max −0, which Hypothesis rejects).
 */
export function floats(options?: FloatsOptions): Strategy<number> {
  const api = "st.floats";
  const o = checkOptions(api, options, ["min", "max", "allowNaN", "allowInfinity"]);
  for (const key of ["min", "max"] as const) {
    const v = o[key];
    if (v !== undefined && (typeof v !== "number" || Number.isNaN(v)))
      invalid(api, `${key} must be a number (not NaN), got ${describe(v)}`);
  }
  checkBoolean(api, "allowNaN", o.allowNaN);
  checkBoolean(api, "allowInfinity", o.allowInfinity);
  const bounded = o.min !== undefined || o.max !== undefined;
  const allowNaN = o.allowNaN ?? !bounded;
  if (allowNaN && bounded) invalid(api, "allowNaN cannot be true when min or max is given");
  const allowInfinity = o.allowInfinity ?? true;
  let min = o.min ?? (allowInfinity ? -Infinity : -Number.MAX_VALUE);
  let max = o.max ?? (allowInfinity ? Infinity : Number.MAX_VALUE);
  if (!allowInfinity) {
    if (min === Infinity || max === -Infinity) invalid(api, "allowInfinity is false but a bound is infinite");
    min = Math.max(min, -Number.MAX_VALUE);
    max = Math.min(max, Number.MAX_VALUE);
  }
  if (min > max) invalid(api, `min (${min}) must not be greater than max (${max})`);
  // (min 0 with max −0 contradict each other and read as zero of either sign: see zeroPermitted in choice/domain.ts.)
  if (Object.is(max, -0) && !Object.is(min, 0)) return new NegatedFloats({ min: 0, max: -min, allowNaN });
  return new Floats({ min, max, allowNaN });
}
