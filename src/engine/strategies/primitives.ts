/** Strategies that are one choice each (or none): integers, floats, booleans, text, bytes, just, sampledFrom. */
import type { BooleanConstraints, BytesConstraints, FloatConstraints, IntegerConstraints, StringConstraints } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import { IntervalSet } from "../choice/intervals.ts";
import type { TestCase } from "../core/testCase.ts";
import { checkBoolean, checkOptions, describe, guard, Strategy } from "./strategy.ts";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const DEFAULT_MAX_SIZE = 2 ** 31 - 1;

function checkInteger(api: string, name: string, v: unknown): asserts v is number | undefined {
  if (v === undefined) return;
  if (typeof v !== "number" || !Number.isSafeInteger(v)) invalid(api, `${name} must be a safe integer, got ${describe(v)}`);
}

function checkSize(api: string, name: string, v: unknown): asserts v is number | undefined {
  if (v === undefined) return;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) invalid(api, `${name} must be a non-negative integer, got ${describe(v)}`);
}

export function checkSizes(api: string, minSize: unknown, maxSize: unknown): { minSize: number; maxSize: number } {
  checkSize(api, "minSize", minSize);
  checkSize(api, "maxSize", maxSize);
  const min = minSize ?? 0;
  const max = maxSize ?? DEFAULT_MAX_SIZE;
  if (min > max) invalid(api, `minSize (${min}) must not be greater than maxSize (${max})`);
  return { minSize: min, maxSize: max };
}

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
}

/** Integers in [min, max] (safe integers; unbounded sides stay within ±Number.MAX_SAFE_INTEGER). */
export function integers(options?: IntegersOptions): Strategy<number> {
  const api = "st.integers";
  const o = checkOptions(api, options, ["min", "max", "shrinkTowards"]);
  checkInteger(api, "min", o.min);
  checkInteger(api, "max", o.max);
  checkInteger(api, "shrinkTowards", o.shrinkTowards);
  const { min, max } = o;
  if (min !== undefined && max !== undefined && min > max) invalid(api, `min (${min}) must not be greater than max (${max})`);
  // `+ 0` turns a −0 option into 0: integers have one zero, and a −0 bound or target would otherwise be drawn
  // as −0, which prints as -0 and is not deepStrictEqual to 0.
  return new Integers({ min: min === undefined ? null : min + 0, max: max === undefined ? null : max + 0, shrinkTowards: (o.shrinkTowards ?? 0) + 0 });
}

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
    if (v !== undefined && (typeof v !== "number" || Number.isNaN(v))) invalid(api, `${key} must be a number (not NaN), got ${describe(v)}`);
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

const COIN: BooleanConstraints = { p: 0.5 };

class Booleans extends Strategy<boolean> {
  protected doDraw(tc: TestCase): boolean {
    return tc.drawBoolean(COIN);
  }
  override draw(tc: TestCase): boolean {
    return tc.drawBoolean(COIN);
  }
}

/** true or false; shrinks to false. */
export function booleans(): Strategy<boolean> {
  return new Booleans(undefined);
}

/** Every code point except the surrogates (which cannot stand alone in well-formed text). */
const DEFAULT_ALPHABET = new IntervalSet([
  [0, 0xd7ff],
  [0xe000, 0x10ffff],
]);

export interface TextOptions {
  /** Characters allowed: a string of them, or [from, to] code-point ranges (default: all but surrogates). */
  alphabet?: string | readonly (readonly [number, number])[];
  minSize?: number;
  maxSize?: number;
}

class Text extends Strategy<string> {
  constructor(readonly constraints: StringConstraints) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): string {
    return tc.drawString(this.constraints);
  }
  // Overridden (no span to open): each strategy class calls its own doDraw, so the call stays monomorphic.
  override draw(tc: TestCase): string {
    return tc.drawString(this.constraints);
  }
}

/** Strings; sizes count code points. Shrinks to shorter, then toward "0". */
export function text(options?: TextOptions): Strategy<string> {
  const api = "st.text";
  const o = checkOptions(api, options, ["alphabet", "minSize", "maxSize"]);
  const { minSize, maxSize } = checkSizes(api, o.minSize, o.maxSize);
  let alphabet = DEFAULT_ALPHABET;
  const a = o.alphabet;
  if (typeof a === "string") alphabet = IntervalSet.fromString(a);
  else if (Array.isArray(a)) {
    // Each range read once, into a copy: a getter or Proxy trap that throws is InvalidArgument naming the call,
    // and the ranges checked are the ranges used.
    const ranges = guard(api, "reading the alphabet", () =>
      (a as unknown[]).map((r): unknown => (Array.isArray(r) && r.length === 2 ? [r[0], r[1]] : r)),
    );
    for (const r of ranges) {
      const codePoint = (x: unknown): boolean => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 0x10ffff;
      // Indexed rather than every(), which skips holes: [ , ] must not pass as a range.
      if (!Array.isArray(r) || r.length !== 2 || !codePoint(r[0]) || !codePoint(r[1]) || r[0] > r[1]) {
        invalid(api, `alphabet ranges must be [from, to] code points with from <= to, got ${describeRange(r)}`);
      }
    }
    alphabet = new IntervalSet(ranges as [number, number][]);
  } else if (a !== undefined) invalid(api, `alphabet must be a string or an array of [from, to] ranges, got ${describe(a)}`);
  // An empty alphabet can only make "", which is st.just("") — far more likely a mistake than a wish.
  if (alphabet.size === 0) invalid(api, minSize > 0 ? `the alphabet is empty but minSize is ${minSize}` : `the alphabet is empty, so the only string is "" (use st.just("") for that)`);
  return new Text({ alphabet, minSize, maxSize });
}

function describeRange(r: unknown): string {
  try {
    return JSON.stringify(r) ?? describe(r);
  } catch {
    return describe(r);
  }
}

export interface BytesOptions {
  minSize?: number;
  maxSize?: number;
}

class Bytes extends Strategy<Uint8Array> {
  constructor(readonly constraints: BytesConstraints) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): Uint8Array {
    return tc.draw("bytes", this.constraints);
  }
  // Overridden (no span to open): each strategy class calls its own doDraw, so the call stays monomorphic.
  override draw(tc: TestCase): Uint8Array {
    return tc.draw("bytes", this.constraints);
  }
}

/** Byte arrays (Uint8Array). Shrinks to shorter, then toward zero bytes. */
export function bytes(options?: BytesOptions): Strategy<Uint8Array> {
  const api = "st.bytes";
  const o = checkOptions(api, options, ["minSize", "maxSize"]);
  return new Bytes(checkSizes(api, o.minSize, o.maxSize));
}

class Just<T> extends Strategy<T> {
  constructor(private readonly value: T) {
    super(undefined);
  }
  protected doDraw(): T {
    return this.value;
  }
}

/** Always `value`; makes no choice. */
export function just<T>(value: T): Strategy<T> {
  return new Just(value);
}

class SampledFrom<T> extends Strategy<T> {
  private readonly constraints: IntegerConstraints;
  constructor(private readonly values: readonly T[]) {
    super(undefined);
    this.constraints = { min: 0, max: values.length - 1, shrinkTowards: 0 };
  }
  protected doDraw(tc: TestCase): T {
    return this.values[tc.draw("integer", this.constraints)];
  }
  override draw(tc: TestCase): T {
    return this.values[tc.draw("integer", this.constraints)];
  }
}

/** One of `values`; shrinks toward the first. */
export function sampledFrom<const T>(values: readonly T[]): Strategy<T> {
  const api = "st.sampledFrom";
  // Copied once, here: an index getter that throws (or a Proxy trap) is InvalidArgument naming the call.
  const copy = guard(api, "reading the values", () => {
    if (!Array.isArray(values)) invalid(api, `expects an array of values, got ${describe(values)}`);
    return [...values];
  });
  if (copy.length === 0) invalid(api, "the array of values is empty; there is nothing to sample");
  return new SampledFrom(copy);
}

export { MAX_SAFE };
