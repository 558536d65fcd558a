/**
 * Sets of Unicode code points as sorted, disjoint, inclusive intervals: the alphabet of a string choice.
 *
 * Characters are ordered for shrinking the way Hypothesis does it ("text" order): '0'..'\x7f' first, then
 * '\x00'..'/', then everything above ASCII in code-point order — so the simplest character is '0', digits and
 * letters come early, and a minimal string reads like "0" rather than "\x00". st.characters orders its set
 * "codePoint": '0' first, then every other character by code point, so without '0' its simplest is the lowest.
 * Both orders keep every BMP character before every astral one (utf16.ts counts on it). Generation reads
 * either set in text order (atTextIndex), so the characters it favours do not depend on how a set shrinks.
 */
/** How many of the first characters in text order IntervalSet.atTextIndex keeps in a table. */
const SIMPLE = 128;

export type Intervals = readonly (readonly [number, number])[];

/** How a set's characters are ordered for shrinking: see this file's opening comment. */
export type CharacterOrder = "text" | "codePoint";

export class IntervalSet {
  readonly intervals: Intervals;
  /** prefix[i] = number of code points in intervals[0..i). */
  private readonly prefix: number[];
  readonly size: number;
  /** Alphabet sizes of the three text-order regions: below '0', and '0' to '\x7f'. */
  private readonly below48: number;
  private readonly ascii: number;
  /**
   * The order, and the size of its first region ('0' to '\x7f' in text order, '0' alone in code-point order).
   * Private: a database key walks a strategy's own enumerable fields, an alphabet's included (property/key.ts),
   * and how a set shrinks is no part of which property it belongs to.
   */
  readonly #order: CharacterOrder;
  readonly #first: number;

  constructor(intervals: Intervals, order: CharacterOrder = "text") {
    const sorted = [...intervals].map(([a, b]) => [a, b] as [number, number]).sort((x, y) => x[0] - y[0]);
    const merged: [number, number][] = [];
    for (const [a, b] of sorted) {
      if (a > b) continue;
      const last = merged[merged.length - 1];
      if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
      else merged.push([a, b]);
    }
    this.intervals = merged;
    this.prefix = [];
    let n = 0;
    for (const [a, b] of merged) {
      this.prefix.push(n);
      n += b - a + 1;
    }
    this.size = n;
    this.below48 = this.rankSorted(48);
    this.ascii = this.rankSorted(128) - this.below48;
    this.#order = order;
    this.#first = order === "text" ? this.ascii : this.rankSorted(49) - this.below48;
  }

  get order(): CharacterOrder {
    return this.#order;
  }

  /** The same characters in another order (this set when the order is its own). */
  inOrder(order: CharacterOrder): IntervalSet {
    return order === this.#order ? this : new IntervalSet(this.intervals, order);
  }

  static fromString(chars: string): IntervalSet {
    const cps: [number, number][] = [];
    for (const ch of chars) {
      const cp = ch.codePointAt(0) as number;
      cps.push([cp, cp]);
    }
    return new IntervalSet(cps);
  }

  contains(cp: number): boolean {
    const iv = this.intervals;
    let lo = 0;
    let hi = iv.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [a, b] = iv[mid];
      if (cp < a) hi = mid - 1;
      else if (cp > b) lo = mid + 1;
      else return true;
    }
    return false;
  }

  /** Number of alphabet code points strictly below cp. */
  rankSorted(cp: number): number {
    const iv = this.intervals;
    let lo = 0;
    let hi = iv.length;
    // First interval whose start is > cp.
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (iv[mid][0] > cp) hi = mid;
      else lo = mid + 1;
    }
    if (lo === 0) return 0;
    const [a, b] = iv[lo - 1];
    return this.prefix[lo - 1] + Math.min(cp, b + 1) - a;
  }

  /** The code point at a position of the sorted alphabet. */
  atSorted(i: number): number {
    const p = this.prefix;
    let lo = 0;
    let hi = p.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (p[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return this.intervals[lo][0] + (i - p[lo]);
  }

  /** Shrink-order index of a code point in the alphabet (0 is simplest). */
  shrinkIndex(cp: number): number {
    const r = this.rankSorted(cp);
    if (cp < 48) return this.#first + r;
    if (cp < (this.#order === "text" ? 128 : 49)) return r - this.below48;
    return r;
  }

  /** The first SIMPLE code points in text order (made on first use): generation draws most characters from them. */
  #simple: Uint32Array | null = null;
  /**
   * Always null. A database key walks a strategy's own enumerable fields, a text strategy's alphabet included
   * (property/key.ts): this field is in every saved key, and the table above, filled while drawing, must not be —
   * as a field of its own it made a property's key depend on whether any text had been drawn before.
   */
  readonly simple = null;

  /** Inverse of shrinkIndex. */
  atShrinkIndex(i: number): number {
    return this.#order === "text" ? this.atTextIndex(i) : this.search(i, this.#first);
  }

  /** The code point at a position of the text order, whatever the set's own order: what generation favours. */
  atTextIndex(i: number): number {
    if (i < SIMPLE) {
      const simple = this.#simple ?? this.tabulate();
      if (i < simple.length) return simple[i];
    }
    return this.search(i, this.ascii);
  }

  private tabulate(): Uint32Array {
    const simple = new Uint32Array(Math.min(this.size, SIMPLE));
    for (let i = 0; i < simple.length; i++) simple[i] = this.search(i, this.ascii);
    return (this.#simple = simple);
  }

  /** The code point at index i of an order whose first region ('0' up) holds `first` characters. */
  private search(i: number, first: number): number {
    if (i < first) return this.atSorted(this.below48 + i);
    if (i < first + this.below48) return this.atSorted(i - first);
    return this.atSorted(i);
  }
}
