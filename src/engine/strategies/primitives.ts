/** Strategies that are one choice each (or none): integers, floats, booleans, text, bytes, just, sampledFrom. */
import type { BooleanConstraints, BytesConstraints, FloatConstraints, IntegerConstraints, StringConstraints } from "../choices.ts";
import { invalid } from "../errors.ts";
import { IntervalSet } from "../intervals.ts";
import type { TestCase } from "../testcase.ts";
import { describe, Strategy } from "./core.ts";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const DEFAULT_MAX_SIZE = 2 ** 31 - 1;

function checkInteger(api: string, name: string, v: unknown): asserts v is number | undefined {
  if (v === undefined) return;
  if (typeof v !== "number" || !Number.isSafeInteger(v)) invalid(api, `${name} must be a safe integer, got ${describe(v)}`);
}

function checkSize(api: string, name: string, v: unknown): asserts v is number | undefined {
  if (v === undefined) return;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) invalid(api, `${name} must be a non-negative integer, got ${describe(v)}`);
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
    return tc.draw("integer", this.constraints);
  }
  // Overridden (no span to open): each strategy class calls its own doDraw, so the call stays monomorphic.
  override draw(tc: TestCase): number {
    return tc.draw("integer", this.constraints);
  }
}

/** Integers in [min, max] (safe integers; unbounded sides stay within ±Number.MAX_SAFE_INTEGER). */
export function integers(options: IntegersOptions = {}): Strategy<number> {
  const api = "st.integers";
  if (typeof options !== "object" || options === null) invalid(api, `options must be an object, got ${describe(options)}`);
  checkInteger(api, "min", options.min);
  checkInteger(api, "max", options.max);
  checkInteger(api, "shrinkTowards", options.shrinkTowards);
  const { min, max } = options;
  if (min !== undefined && max !== undefined && min > max) invalid(api, `min (${min}) must not be greater than max (${max})`);
  return new Integers({ min: min ?? null, max: max ?? null, shrinkTowards: options.shrinkTowards ?? 0 });
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

/** Floating-point numbers, including −0, subnormals, and (unless excluded) ±Infinity and NaN. */
export function floats(options: FloatsOptions = {}): Strategy<number> {
  const api = "st.floats";
  if (typeof options !== "object" || options === null) invalid(api, `options must be an object, got ${describe(options)}`);
  for (const key of ["min", "max"] as const) {
    const v = options[key];
    if (v !== undefined && (typeof v !== "number" || Number.isNaN(v))) invalid(api, `${key} must be a number (not NaN), got ${describe(v)}`);
  }
  const bounded = options.min !== undefined || options.max !== undefined;
  const allowNaN = options.allowNaN ?? !bounded;
  if (allowNaN && bounded) invalid(api, "allowNaN cannot be true when min or max is given");
  const allowInfinity = options.allowInfinity ?? true;
  let min = options.min ?? (allowInfinity ? -Infinity : -Number.MAX_VALUE);
  let max = options.max ?? (allowInfinity ? Infinity : Number.MAX_VALUE);
  if (!allowInfinity) {
    if (min === Infinity || max === -Infinity) invalid(api, "allowInfinity is false but a bound is infinite");
    min = Math.max(min, -Number.MAX_VALUE);
    max = Math.min(max, Number.MAX_VALUE);
  }
  if (min > max) invalid(api, `min (${min}) must not be greater than max (${max})`);
  return new Floats({ min, max, allowNaN });
}

const COIN: BooleanConstraints = { p: 0.5 };

class Booleans extends Strategy<boolean> {
  protected doDraw(tc: TestCase): boolean {
    return tc.draw("boolean", COIN);
  }
  override draw(tc: TestCase): boolean {
    return tc.draw("boolean", COIN);
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
    return tc.draw("string", this.constraints);
  }
  // Overridden (no span to open): each strategy class calls its own doDraw, so the call stays monomorphic.
  override draw(tc: TestCase): string {
    return tc.draw("string", this.constraints);
  }
}

/** Strings; sizes count code points. Shrinks to shorter, then toward "0". */
export function text(options: TextOptions = {}): Strategy<string> {
  const api = "st.text";
  if (typeof options !== "object" || options === null) invalid(api, `options must be an object, got ${describe(options)}`);
  const { minSize, maxSize } = checkSizes(api, options.minSize, options.maxSize);
  let alphabet = DEFAULT_ALPHABET;
  const a = options.alphabet;
  if (typeof a === "string") alphabet = IntervalSet.fromString(a);
  else if (Array.isArray(a)) {
    for (const r of a) {
      if (!Array.isArray(r) || r.length !== 2 || !r.every((x) => Number.isInteger(x) && x >= 0 && x <= 0x10ffff) || r[0] > r[1]) {
        invalid(api, `alphabet ranges must be [from, to] code points with from <= to, got ${JSON.stringify(r)}`);
      }
    }
    alphabet = new IntervalSet(a);
  } else if (a !== undefined) invalid(api, `alphabet must be a string or an array of [from, to] ranges, got ${describe(a)}`);
  if (alphabet.size === 0 && minSize > 0) invalid(api, `the alphabet is empty but minSize is ${minSize}`);
  return new Text({ alphabet, minSize, maxSize: alphabet.size === 0 ? 0 : maxSize });
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
export function bytes(options: BytesOptions = {}): Strategy<Uint8Array> {
  const api = "st.bytes";
  if (typeof options !== "object" || options === null) invalid(api, `options must be an object, got ${describe(options)}`);
  return new Bytes(checkSizes(api, options.minSize, options.maxSize));
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
  if (!Array.isArray(values)) invalid(api, `expects an array of values, got ${describe(values)}`);
  if (values.length === 0) invalid(api, "the array of values is empty; there is nothing to sample");
  return new SampledFrom([...values]);
}

export { MAX_SAFE };
