/**
 * Fingerprints of choice sequences: how generation on the log (generationLog.ts) knows a case already run
 * without walking the DataTree. 64 bits of two independent hashes; two distinct sequences print alike with a
 * probability near 2^-64, and a collision only skips one new case as a duplicate.
 */
import type { ChoiceData } from "../choice/storage.ts";
import { isWhiteSpace } from "../util/whitespace.ts";

/**
 * A string's own hash, a 52-bit integer: what its choice's slot in ChoiceData.values holds once known (NaN until
 * then), so that a string is hashed at most once. Generation hashes the code units it builds the string from
 * (`unitsHash`, noted with `noteString`), before the string exists: reading the characters back out of a string
 * cost several times as much.
 */
export function stringHash(s: string): number {
  let a = 0x811c9dc5 ^ s.length;
  let b = 0x9e3779b9;
  for (let k = 0; k < s.length; k++) {
    a = Math.imul(a ^ s.charCodeAt(k), 0x01000193);
    b = ((b << 5) + b + a) | 0;
  }
  return (a >>> 0) * 0x100000 + (b >>> 12);
}

/**
 * stringHash(prefix + text.replace(/\s+/g, "")): the same number, without making either string (a property's body
 * text, whitespace removed, is what a derandomised run's seed comes from; the regular expression cost several
 * microseconds per property).
 */
export function strippedHash(prefix: string, text: string): number {
  let length = prefix.length;
  for (let k = 0; k < text.length; k++) if (!isWhiteSpace(text.charCodeAt(k))) length++;
  let a = 0x811c9dc5 ^ length;
  let b = 0x9e3779b9;
  for (let k = 0; k < prefix.length; k++) {
    a = Math.imul(a ^ prefix.charCodeAt(k), 0x01000193);
    b = ((b << 5) + b + a) | 0;
  }
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (isWhiteSpace(c)) continue;
    a = Math.imul(a ^ c, 0x01000193);
    b = ((b << 5) + b + a) | 0;
  }
  return (a >>> 0) * 0x100000 + (b >>> 12);
}

/** stringHash of the string made of `units` (UTF-16 code units): the same number, from the units. */
export function unitsHash(units: readonly number[]): number {
  let a = 0x811c9dc5 ^ units.length;
  let b = 0x9e3779b9;
  for (let k = 0; k < units.length; k++) {
    a = Math.imul(a ^ units[k], 0x01000193);
    b = ((b << 5) + b + a) | 0;
  }
  return (a >>> 0) * 0x100000 + (b >>> 12);
}

let notedString: string | null = null;
let notedHash = NaN;

/** Generation made `s`, whose stringHash is `hash` (unitsHash of its units). */
export function noteString(s: string, hash: number): void {
  notedString = s;
  notedHash = hash;
}

/** stringHash(s) if generation just noted it, else NaN (to be hashed when a fingerprint needs it). */
export function notedStringHash(s: string): number {
  return s === notedString ? notedHash : NaN;
}

const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);

/** The two halves of the last fingerprint `print` made (read them before the next call). */
export let printA = 0;
export let printB = 0;

/**
 * A 64-bit fingerprint of choices [0, count) of `data`, left in printA and printB: two independent 32-bit hashes of
 * each choice's kind and value (a number's bits; a string's code units; bytes). printB is never 0.
 */
export function print(data: ChoiceData, count: number): void {
  let a = 0x811c9dc5 ^ count;
  let b = 0x9e3779b9 ^ Math.imul(count, 0x85ebca6b);
  const codes = data.codes;
  const values = data.values;
  for (let i = 0; i < count; i++) {
    const code = codes[i];
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    const type = code & 7;
    if (type === 3) {
      // The string's own hash, kept in its slot of `values` once made (generation makes it from the units).
      let h = values[i];
      if (h !== h) values[i] = h = stringHash((data.objects as unknown[])[i] as string);
      const lo = h % 0x100000;
      const hi = (h - lo) / 0x100000;
      a = Math.imul(Math.imul(a ^ lo, 0x01000193) ^ hi, 0x01000193);
      b = Math.imul((Math.imul((b ^ hi) + (b >>> 15), 0x5bd1e995) ^ lo) + (b >>> 13), 0x5bd1e995);
    } else if (type === 4) {
      const bytes = (data.objects as unknown[])[i] as Uint8Array;
      a = Math.imul(a ^ bytes.length, 0x01000193);
      b = Math.imul(b ^ bytes.length, 0x5bd1e995);
      for (let k = 0; k < bytes.length; k++) {
        a = Math.imul(a ^ bytes[k], 0x01000193);
        b = ((b << 5) + b + a) | 0;
      }
    } else {
      const v = values[i];
      // A 32-bit integer (not -0) is its own bits' low word, with a high word no other such value has.
      let lo: number;
      let hi: number;
      if ((v | 0) === v && (v !== 0 || 1 / v > 0)) {
        lo = v;
        hi = 0x7ff80001;
      } else {
        bits[0] = v;
        lo = words[0];
        hi = words[1];
      }
      a = Math.imul(Math.imul(a ^ lo, 0x01000193) ^ hi, 0x01000193);
      b = Math.imul((Math.imul((b ^ hi) + (b >>> 15), 0x5bd1e995) ^ lo) + (b >>> 13), 0x5bd1e995);
    }
  }
  b ^= b >>> 16;
  printA = a;
  printB = b | 1;
}

/** The fingerprint of choices [0, count) of `data` as one number (53 of its bits): for tests and tools. */
export function fingerprint(data: ChoiceData, count: number): number {
  print(data, count);
  return (printA >>> 0) * 0x200000 + (printB >>> 11);
}

/**
 * A set of fingerprints in two typed arrays (open addressing, linear probing, at most half full): adding one
 * allocates nothing, where a Set of 53-bit numbers allocated a heap number for each. At most `limit` are kept.
 */
/** The largest table kept for the next set. */
const SPARE_SLOTS = 1 << 12;
/** A released set's arrays, emptied, for the next set (a run's set, made run after run, was a cost of its own). */
let spareAs: Int32Array | null = null;
let spareBs: Int32Array | null = null;

export class FingerprintSet {
  private as: Int32Array;
  private bs: Int32Array;
  size = 0;
  constructor(private readonly limit: number) {
    this.as = spareAs ?? new Int32Array(256);
    this.bs = spareBs ?? new Int32Array(256);
    spareAs = spareBs = null;
  }

  /** Give the arrays to the next set, emptied: this set is not used again. */
  release(): void {
    if (this.as.length > SPARE_SLOTS) return; // a long run's table is let go
    if (this.size > 0) this.bs.fill(0); // an empty slot is one whose second half is 0
    this.size = 0;
    spareAs = this.as;
    spareBs = this.bs;
  }

  private slot(a: number, b: number): number {
    const mask = this.as.length - 1;
    let i = (Math.imul(a, 0x9e3779b1) ^ b) & mask;
    while (this.bs[i] !== 0 && (this.as[i] !== a || this.bs[i] !== b)) i = (i + 1) & mask;
    return i;
  }

  has(a: number, b: number): boolean {
    return this.bs[this.slot(a, b)] !== 0;
  }

  /** Add (a, b) (b not 0), unless `limit` are kept already. */
  add(a: number, b: number): void {
    if (this.size >= this.limit) return;
    const i = this.slot(a, b);
    if (this.bs[i] !== 0) return;
    this.as[i] = a;
    this.bs[i] = b;
    if (++this.size * 2 > this.as.length) this.grow();
  }

  private grow(): void {
    const as = this.as;
    const bs = this.bs;
    this.as = new Int32Array(as.length * 2);
    this.bs = new Int32Array(bs.length * 2);
    for (let k = 0; k < as.length; k++) {
      if (bs[k] === 0) continue;
      const i = this.slot(as[k], bs[k]);
      this.as[i] = as[k];
      this.bs[i] = bs[k];
    }
  }
}
