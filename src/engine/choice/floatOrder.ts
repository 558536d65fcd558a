/**
 * The order of float choices: which float is "simpler".
 *
 * Shrinking needs a total order on floats in which the values a person finds simple come first, and an
 * exact bijection between floats and non-negative integers (the complexity index) so that every float has
 * one index and every index one float. Our order on a magnitude m ≥ 0, simplest first:
 *
 *   1. integral values by size: 0, 1, 2, …, 2^53, then the (all integral) larger floats up to MAX_VALUE;
 *   2. fractional values with fewer binary digits after the point first (k = 1: 0.5, 1.5, 2.5, …;
 *      k = 2: 0.25, 0.75, 1.25, …), and by size within the same k;
 *   3. Infinity, then NaN.
 *
 * A float with k fractional binary digits is n / 2^k with n odd, n < 2^53 and k ≤ 1074, so each k holds
 * exactly 2^52 floats and the counting is closed-form. Signs interleave like the integer zigzag: the index of
 * a float is 2·magnitudeKey + signBit, so 1 comes before −1, and −1 before 1.5.
 *
 * (Hypothesis orders floats by a bit-level "lex" encoding in which every negative float comes after every
 * positive one; we prefer the zigzag so that −1 is simpler than 1.5.)
 */

const TWO_52 = 2n ** 52n;
const TWO_53 = 2n ** 53n;
/** Count of integral finite magnitudes: [0, 2^53) one by one, then 2^52 per binade from 2^53 to MAX_VALUE. */
const INTEGRAL_COUNT = TWO_53 + 971n * TWO_52;
/** Fractional magnitudes: k in 1..1074, 2^52 each. */
const FRACTIONAL_COUNT = 1074n * TWO_52;
const INFINITY_KEY = INTEGRAL_COUNT + FRACTIONAL_COUNT;
const NAN_KEY = INFINITY_KEY + 1n;
/** Number of distinct magnitude keys (the exclusive upper bound of magnitudeKey). */
export const MAGNITUDE_KEYS = NAN_KEY + 1n;

const view = new DataView(new ArrayBuffer(8));

/** The exact integer significand and binary exponent of a finite positive float: m = sig · 2^exp. */
function decompose(m: number): { sig: bigint; exp: number } {
  view.setFloat64(0, m);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let sig = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return { sig, exp: -1074 };
  sig |= TWO_52;
  return { sig, exp: biased - 1075 };
}

/** Magnitude key of a non-negative float (or NaN): its position in the order above. */
export function magnitudeKey(m: number): bigint {
  if (Number.isNaN(m)) return NAN_KEY;
  if (m === Infinity) return INFINITY_KEY;
  if (m < 2 ** 53 && Number.isInteger(m)) return BigInt(m);
  const { sig, exp } = decompose(m);
  if (exp >= 0) {
    // m ≥ 2^53: m = sig · 2^exp with sig in [2^52, 2^53); binade e = exp + 52 ≥ 53.
    const binade = BigInt(exp + 52);
    return TWO_53 + (binade - 53n) * TWO_52 + (sig - TWO_52);
  }
  let n = sig;
  let k = -exp;
  while ((n & 1n) === 0n) {
    n >>= 1n;
    k -= 1;
  }
  // k ≥ 1 here: integral values below 2^53 were handled above.
  return INTEGRAL_COUNT + BigInt(k - 1) * TWO_52 + (n - 1n) / 2n;
}

/** Inverse of magnitudeKey. */
export function magnitudeFromKey(key: bigint): number {
  if (key < 0n || key >= MAGNITUDE_KEYS) throw new RangeError(`float magnitude key out of range: ${key}`);
  if (key === NAN_KEY) return NaN;
  if (key === INFINITY_KEY) return Infinity;
  if (key < TWO_53) return Number(key);
  if (key < INTEGRAL_COUNT) {
    const r = key - TWO_53;
    const binade = Number(r / TWO_52) + 53;
    const sig = TWO_52 + (r % TWO_52);
    return Number(sig) * 2 ** (binade - 52);
  }
  const r = key - INTEGRAL_COUNT;
  const k = Number(r / TWO_52) + 1;
  const n = (r % TWO_52) * 2n + 1n;
  // n · 2^-k is representable, so scaling by exact powers of two is exact (split to avoid 2^-k underflowing).
  const half = Math.floor(k / 2);
  return Number(n) * 2 ** -half * 2 ** -(k - half);
}

/** The float's index in the signed order: 2·magnitudeKey + signBit (NaN is always positive). */
export function floatKey(v: number): bigint {
  const neg = v < 0 || Object.is(v, -0);
  return magnitudeKey(Math.abs(v)) * 2n + (neg ? 1n : 0n);
}

export function floatFromKey(key: bigint): number {
  const m = magnitudeFromKey(key / 2n);
  return key % 2n === 1n ? -m : m;
}

/** Compare two floats in the order above without allocating BigInts for the common cases. */
export function compareFloats(a: number, b: number): number {
  if (Object.is(a, b)) return 0;
  const ia = Number.isInteger(a) && Math.abs(a) < 2 ** 53;
  const ib = Number.isInteger(b) && Math.abs(b) < 2 ** 53;
  if (ia && ib) {
    const da = Math.abs(a);
    const db = Math.abs(b);
    if (da !== db) return da < db ? -1 : 1;
    // Same magnitude: positive (and +0) first.
    return floatKey(a) < floatKey(b) ? -1 : 1;
  }
  const ka = floatKey(a);
  const kb = floatKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** The simplest magnitude in [a, b] (0 ≤ a ≤ b, finite or b = Infinity), or undefined if the range is empty. */
function simplestMagnitude(a: number, b: number): number | undefined {
  if (a > b) return undefined;
  const c = Math.ceil(a);
  if (c <= b) return c; // the smallest integer in range; for a ≥ 2^52 every float is integral
  // No integer in [a, b], so a < 2^53: the first k with an odd multiple of 2^-k in range, smallest first.
  for (let k = 1; k <= 1074; k++) {
    const scale = 2 ** k;
    let n = Math.ceil(a * scale);
    if (n % 2 === 0) n += 1;
    const v = n / scale;
    if (v <= b && v >= a) return v;
  }
  return a;
}

/**
 * The simplest float in [min, max] (as ordered above), or NaN if only NaN is allowed. Zero bounds are signed
 * (see `permitted` in domain.ts): min +0 excludes −0 and max −0 excludes +0.
 */
export function simplestFloat(min: number, max: number, allowNaN: boolean): number {
  if (min > max || Number.isNaN(min) || Number.isNaN(max)) {
    if (allowNaN) return NaN;
    throw new RangeError(`empty float range [${min}, ${max}]`);
  }
  // A zero bound is signed: max −0 admits no positive float (not even +0), min +0 no negative one (not even −0);
  // the contradictory [+0, −0] admits both zeros (as `zeroPermitted` in domain.ts).
  const contradictory = Object.is(min, 0) && Object.is(max, -0);
  const pos =
    max > 0 || Object.is(max, 0) || contradictory ? simplestMagnitude(Math.max(min, 0), Math.abs(max)) : undefined;
  const neg =
    min < 0 || Object.is(min, -0) || contradictory ? simplestMagnitude(Math.max(-max, 0), Math.abs(min)) : undefined;
  if (pos === undefined) return -(neg as number);
  if (neg === undefined) return pos;
  // Both signs possible: positive wins ties (and any range containing 0 yields +0).
  return magnitudeKey(neg) < magnitudeKey(pos) ? -neg : pos;
}
