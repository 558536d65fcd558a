/**
 * The complexity index of strings whose alphabet mixes BMP characters (one UTF-16 unit) and astral ones (two).
 *
 * Strings are ordered by UTF-16 length, then character by character in the alphabet's shrink order, so that
 * the simplest string is the one JavaScript's `.length` calls shortest: "000" before "0𐀀". With one width only
 * this is plain shortlex over code points (choices.ts); here the index counts the strings before a value:
 * those with fewer units, then, position by position, those that agree so far and have a simpler character
 * there, each with every legal completion of the units left.
 *
 * In the shrink order every BMP character comes before every astral one (the order is by code point above
 * ASCII), so digits 0..bmp−1 take one unit and digits bmp.. take two. minSize and maxSize count code points,
 * which is what makes a completion's count depend on how many characters came before it.
 */
import type { StringConstraints } from "./choices.ts";
import type { IntervalSet } from "./intervals.ts";

/** Number of alphabet characters in the BMP: they are the first in the shrink order. */
function bmpCount(alphabet: IntervalSet): number {
  return alphabet.rankSorted(0x10000);
}

/** The alphabet holds characters of both widths (otherwise UTF-16 order is code-point shortlex). */
export function mixedWidths(alphabet: IntervalSet): boolean {
  const bmp = bmpCount(alphabet);
  return bmp > 0 && bmp < alphabet.size;
}

/** Counts of legal completions under one alphabet and size range. */
class Completions {
  readonly a: bigint;
  readonly b: bigint;
  /** free[r]: sequences of exactly r units with no bound on their character count. */
  private readonly free: bigint[] = [1n];

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
    while (f.length <= r) f.push(this.a * f[f.length - 1] + this.b * f[f.length - 2]);
    return f[r];
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

function completions(k: StringConstraints): Completions {
  const bmp = bmpCount(k.alphabet);
  return new Completions(bmp, k.alphabet.size - bmp, k.minSize, k.maxSize);
}

/** The index of a string given its digits (shrink indices of its characters) and UTF-16 length. */
export function utf16Index(digits: readonly number[], units: number, k: StringConstraints): bigint {
  const c = completions(k);
  let index = 0n;
  for (let u = k.minSize; u < units; u++) index += c.count(u, 0);
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
  for (let used = 0; used < units; ) {
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
 * The index as a number for events: exact while it fits a double's range, Infinity once the string is long
 * enough that it could not (the same as the one-width strings, whose doubles overflow there too).
 */
export function utf16IndexNumber(s: string, k: StringConstraints): number {
  if (s.length * Math.log2(k.alphabet.size + 1) > 1000) return Infinity;
  const digits: number[] = [];
  for (const ch of s) digits.push(k.alphabet.shrinkIndex(ch.codePointAt(0) as number));
  return Number(utf16Index(digits, s.length, k));
}
