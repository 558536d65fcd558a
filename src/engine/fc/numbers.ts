/**
 * Numbers with fast-check's defaults: fc.integer() is a 32-bit integer, fc.nat() one from 0, fc.double() any double
 * (NaN, ±Infinity and −0 included unless excluded), fc.float() a 32-bit float, fc.bigInt() any bigint; each over the
 * st strategy of the same range, so shrinking is the engine's (toward 0, or the bound nearest it).
 */
import { InvalidArgument, st } from "./engine.ts";
import { Arbitrary } from "./arbitrary.ts";
import { typeName, constraintsOf, flag, numberOr } from "./options.ts";

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
const FLOAT32_MAX = 3.4028234663852886e38;

/** An integer from min to max (default: the 32-bit range, as fast-check's). */
export function integer(constraints?: { min?: number; max?: number }): Arbitrary<number> {
  const api = "fc.integer";
  const o = constraintsOf(api, constraints, ["min", "max"]);
  const min = numberOr(api, o, "min", INT32_MIN);
  const max = numberOr(api, o, "max", INT32_MAX);
  return new Arbitrary(st.integers({ min, max }));
}

/** An integer from 0 to max (default 2^31 − 1): `fc.nat()`, `fc.nat(10)`, `fc.nat({ max: 10 })`. */
export function nat(arg?: number | { max?: number }): Arbitrary<number> {
  const api = "fc.nat";
  const max = typeof arg === "number" ? arg : numberOr(api, constraintsOf(api, arg, ["max"]), "max", INT32_MAX);
  return new Arbitrary(st.integers({ min: 0, max }));
}

/** Any safe integer. */
export function maxSafeInteger(): Arbitrary<number> {
  return new Arbitrary(st.integers({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }));
}

/** Any safe integer from 0. */
export function maxSafeNat(): Arbitrary<number> {
  return new Arbitrary(st.integers({ min: 0, max: Number.MAX_SAFE_INTEGER }));
}

export interface FloatingConstraints {
  min?: number;
  max?: number;
  noNaN?: boolean;
  noDefaultInfinity?: boolean;
  minExcluded?: boolean;
  maxExcluded?: boolean;
  noInteger?: boolean;
}

export const FLOATING_KEYS = ["min", "max", "noNaN", "noDefaultInfinity", "minExcluded", "maxExcluded", "noInteger"];

/** A double: any by default, NaN and ±Infinity included unless `noNaN` / `noDefaultInfinity`. */
export function double(constraints?: FloatingConstraints): Arbitrary<number> {
  return floating("fc.double", constraints, Number.MAX_VALUE, null);
}

/** A 32-bit float (a double `Math.fround` leaves unchanged): any by default, as fc.double. */
export function float(constraints?: FloatingConstraints): Arbitrary<number> {
  return floating("fc.float", constraints, FLOAT32_MAX, Math.fround);
}

function floating(
  api: string,
  given: unknown,
  largest: number,
  round: ((v: number) => number) | null,
): Arbitrary<number> {
  const o = constraintsOf(api, given, FLOATING_KEYS);
  const noInfinity = flag(api, o, "noDefaultInfinity");
  const min = numberOr(api, o, "min", noInfinity ? -largest : -Infinity);
  const max = numberOr(api, o, "max", noInfinity ? largest : Infinity);
  if (min > max) throw new InvalidArgument(`${api}: min (${min}) is above max (${max})`);
  const minExcluded = flag(api, o, "minExcluded");
  const maxExcluded = flag(api, o, "maxExcluded");
  const noInteger = flag(api, o, "noInteger");
  const doubles = st.floats({
    ...(Number.isFinite(min) ? { min } : {}),
    ...(Number.isFinite(max) ? { max } : {}),
    allowNaN: !flag(api, o, "noNaN"),
    allowInfinity: min === -Infinity || max === Infinity,
  });
  let s = round === null ? doubles : doubles.map(round);
  if (minExcluded || maxExcluded || noInteger)
    s = s.filter(
      (v) => !(minExcluded && v === min) && !(maxExcluded && v === max) && !(noInteger && Number.isInteger(v)),
      `${api}'s exclusions`,
    );
  return new Arbitrary(s);
}

/** A bigint: any (`fc.bigInt()`), from min to max (`fc.bigInt(min, max)`, `fc.bigInt({ min, max })`). */
export function bigInt(a?: bigint | { min?: bigint; max?: bigint }, b?: bigint): Arbitrary<bigint> {
  const api = "fc.bigInt";
  if (typeof a === "bigint") {
    if (typeof b !== "bigint")
      throw new InvalidArgument(`${api}: with a min, give a max too (fc.bigInt(min, max)), got ${typeName(b)}`);
    return new Arbitrary(st.bigints({ min: a, max: b }));
  }
  const o = constraintsOf(api, a, ["min", "max"]);
  return new Arbitrary(
    st.bigints({
      ...(o.min !== undefined ? { min: o.min as bigint } : {}),
      ...(o.max !== undefined ? { max: o.max as bigint } : {}),
    }),
  );
}
