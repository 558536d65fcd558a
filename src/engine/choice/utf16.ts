/**
 * The complexity index of strings whose alphabet mixes BMP characters (one UTF-16 unit) and astral ones (two).
 *
 * Strings are ordered by UTF-16 length, then character by character in the alphabet's shrink order, so that
 * the simplest string is the one JavaScript's `.length` calls shortest: "000" before "0𐀀". With one width only
 * this is plain shortlex over code points (complexityIndex.ts); here the index counts the strings before a value:
 * those with fewer units, then, position by position, those that agree so far and have a simpler character
 * there, each with every legal completion of the units left.
 *
 * In the shrink order every BMP character comes before every astral one (the order is by code point above
 * ASCII), so digits 0..bmp−1 take one unit and digits bmp.. take two. minSize and maxSize count code points,
 * which is what makes a completion's count depend on how many characters came before it.
 */
import type { StringConstraints } from "./types.ts";
import type { IntervalSet } from "./intervals.ts";

/** Number of alphabet characters in the BMP: they are the first in the shrink order. */
const bmpCounts = new WeakMap<IntervalSet, number>();
function bmpCount(alphabet: IntervalSet): number {
  let n = bmpCounts.get(alphabet);
  if (n === undefined) bmpCounts.set(alphabet, (n = alphabet.rankSorted(0x10000)));
  return n;
}

/** The alphabet holds characters of both widths (otherwise UTF-16 order is code-point shortlex). */
export function mixedWidths(alphabet: IntervalSet): boolean {
  const bmp = bmpCount(alphabet);
  return bmp > 0 && bmp < alphabet.size;
}

/** How many string lengths (in units) a Completions keeps the counts before of… */
const MEMO_UNITS = 256;
/** …and how many counts as doubles (long strings of a small alphabet of both widths make many (r, j) pairs). */
const MEMO_NUMBERS = 1 << 16;

/** Counts of legal completions under one alphabet and size range. */
class Completions {
  readonly a: bigint;
  readonly b: bigint;
  /** free[r]: sequences of exactly r units with no bound on their character count. */
  private readonly free: bigint[] = [1n];
  /** shorter[u - minSize]: legal strings of fewer than u units (the index of the first one of u units). */
  private readonly shorter: bigint[] = [0n];

  constructor(
    readonly bmp: number,
    astral: number,
    private readonly minSize: number,
    private readonly maxSize: number,
  ) {
    this.a = BigInt(bmp);
    this.b = BigInt(astral);
    this.free.push(this.a);
  }

  private freeCount(r: number): bigint {
    const f = this.free;
    while (f.length <= Math.min(r, 2 * MEMO_UNITS)) f.push(this.a * f[f.length - 1] + this.b * f[f.length - 2]);
    if (r < f.length) return f[r];
    // (past the memo: on from its end, not kept)
    let prev = f[f.length - 2];
    let last = f[f.length - 1];
    for (let n = f.length; n <= r; n++) [prev, last] = [last, this.a * last + this.b * prev];
    return last;
  }

  /**
   * Legal strings of fewer than `units` units: where the index of a string that long starts. Memoised for the
   * first MEMO_UNITS lengths (the strings generation makes); a longer one's is summed on from there, not kept
   * (its counts are numbers of thousands of bits).
   */
  below(units: number): bigint {
    const s = this.shorter;
    const upTo = Math.min(units, this.minSize + MEMO_UNITS);
    while (this.minSize + s.length <= upTo) s.push(s[s.length - 1] + this.count(this.minSize + s.length - 1, 0));
    if (units <= this.minSize) return 0n;
    if (units === upTo) return s[units - this.minSize];
    let sum = s[s.length - 1];
    for (let u = this.minSize + s.length - 1; u < units; u++) sum += this.count(u, 0);
    return sum;
  }

  /** below() and count() as doubles, for utf16IndexNumber (memoised by r and j, j < 2048 there, up to MEMO_NUMBERS of them). */
  private readonly numbers = new Map<number, number>();
  belowNumber(units: number): number {
    const key = -1 - units;
    const n = this.numbers.get(key);
    return n !== undefined ? n : this.remember(key, Number(this.below(units)));
  }
  countNumber(r: number, j: number): number {
    if (r < 0) return 0;
    const key = r * 2048 + j;
    const n = this.numbers.get(key);
    return n !== undefined ? n : this.remember(key, Number(this.count(r, j)));
  }
  private remember(key: number, n: number): number {
    if (this.numbers.size < MEMO_NUMBERS) this.numbers.set(key, n);
    return n;
  }

  /** Sequences of exactly r units after j characters, ending with a legal character count. */
  count(r: number, j: number): bigint {
    if (r < 0) return 0n;
    const lo = Math.max(0, this.minSize - j);
    const hi = this.maxSize - j;
    // n characters in r units: r − n of them astral, so n runs over [⌈r/2⌉, r].
    const nLo = Math.max(lo, Math.ceil(r / 2));
    const nHi = Math.min(hi, r);
    if (nLo > nHi) return 0n;
    if (nLo === Math.ceil(r / 2) && nHi === r) return this.freeCount(r);
    // A bound cuts in: sum C(n, k)·a^(n−k)·b^k over the allowed n, with k = r − n astral characters.
    let sum = 0n;
    for (let n = nLo; n <= nHi; n++) sum += binomial(n, r - n) * this.a ** BigInt(2 * n - r) * this.b ** BigInt(r - n);
    return sum;
  }
}

function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  k = Math.min(k, n - k);
  let out = 1n;
  for (let i = 1; i <= k; i++) out = (out * BigInt(n - k + i)) / BigInt(i);
  return out;
}

// One per constraints object (they are never changed): their counts are memoised, and an event tap indexes every
// string a run draws under the same few constraints.
const completionsOf = new WeakMap<StringConstraints, Completions>();
function completions(k: StringConstraints): Completions {
  let c = completionsOf.get(k);
  if (c === undefined) {
    const bmp = bmpCount(k.alphabet);
    completionsOf.set(k, (c = new Completions(bmp, k.alphabet.size - bmp, k.minSize, k.maxSize)));
  }
  return c;
}

/** The index of a string given its digits (shrink indices of its characters) and UTF-16 length. */
export function utf16Index(digits: readonly number[], units: number, k: StringConstraints): bigint {
  const c = completions(k);
  let index = c.below(units);
  let used = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = digits[i];
    const left = units - used;
    if (d > 0) index += BigInt(Math.min(d, c.bmp)) * c.count(left - 1, i + 1);
    if (d > c.bmp) index += BigInt(d - c.bmp) * c.count(left - 2, i + 1);
    used += d < c.bmp ? 1 : 2;
  }
  return index;
}

/** The digits of the string at `index` (the inverse of utf16Index). */
export function utf16FromIndex(index: bigint, k: StringConstraints): number[] {
  const c = completions(k);
  let units = k.minSize;
  for (;;) {
    if (units > 2 * k.maxSize) throw new RangeError(`index ${index} is beyond the longest legal value`);
    const here = c.count(units, 0);
    if (index < here) break;
    index -= here;
    units++;
  }
  const digits: number[] = [];
  for (let used = 0; used < units;) {
    const left = units - used;
    const j = digits.length + 1;
    const one = c.count(left - 1, j);
    const narrow = c.a * one;
    if (index < narrow) {
      digits.push(Number(index / one));
      index %= one;
      used += 1;
    } else {
      index -= narrow;
      const two = c.count(left - 2, j);
      digits.push(c.bmp + Number(index / two));
      index %= two;
      used += 2;
    }
  }
  return digits;
}

/** Number of legal strings, or Infinity above cap. */
export function utf16DomainSize(k: StringConstraints, cap: number): number {
  const c = completions(k);
  let total = 0n;
  for (let u = k.minSize; u <= 2 * k.maxSize; u++) {
    total += c.count(u, 0);
    if (total > BigInt(cap)) return Infinity;
  }
  return Number(total);
}

/**
 * The index as a number for events: utf16Index's sum in doubles (an event tap indexes every string it sends,
 * and the exact sum's BigInt arithmetic was most of projecting a case with strings) — exact below 2^53, a few
 * units in the last place off above it, like the one-width strings' (complexityIndex.ts: sequenceIndexNumber); Infinity
 * once the string is long enough that it could not fit a double's range.
 */
export function utf16IndexNumber(s: string, k: StringConstraints): number {
  if (s.length * Math.log2(k.alphabet.size + 1) > 1000) return Infinity;
  const c = completions(k);
  const units = s.length;
  let index = c.belowNumber(units);
  let used = 0;
  for (let p = 0, i = 0; p < units; i++) {
    const cp = s.codePointAt(p) as number;
    const d = k.alphabet.shrinkIndex(cp);
    const left = units - used;
    if (d > 0) index += Math.min(d, c.bmp) * c.countNumber(left - 1, i + 1);
    if (d > c.bmp) index += (d - c.bmp) * c.countNumber(left - 2, i + 1);
    used += d < c.bmp ? 1 : 2;
    p += cp > 0xffff ? 2 : 1;
  }
  return index;
}
