/**
 * Sets of Unicode code points as sorted, disjoint, inclusive intervals: the alphabet of a string choice.
 *
 * Characters are ordered for shrinking the way Hypothesis does it: '0'..'\x7f' first, then '\x00'..'/',
 * then everything above ASCII in code-point order — so the simplest character is '0', digits and letters
 * come early, and a minimal string reads like "0" rather than "\x00".
 */
/** How many of the simplest characters IntervalSet.atShrinkIndex keeps in a table. */
const SIMPLE = 128;

export type Intervals = readonly (readonly [number, number])[];

export class IntervalSet {
  readonly intervals: Intervals;
  /** prefix[i] = number of code points in intervals[0..i). */
  private readonly prefix: number[];
  readonly size: number;
  /** Alphabet sizes of the three shrink-order regions. */
  private readonly below48: number;
  private readonly ascii: number;

  constructor(intervals: Intervals) {
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
    if (cp < 48) return this.ascii + r;
    if (cp < 128) return r - this.below48;
    return r;
  }

  /** The first SIMPLE code points in shrink order (made on first use): generation draws most characters from them. */
  #simple: Uint32Array | null = null;
  /**
   * Always null. A database key walks a strategy's own enumerable fields, a text strategy's alphabet included
   * (property/key.ts): this field is in every saved key, and the table above, filled while drawing, must not be —
   * as a field of its own it made a property's key depend on whether any text had been drawn before.
   */
  readonly simple = null;

  /** Inverse of shrinkIndex. */
  atShrinkIndex(i: number): number {
    if (i < SIMPLE) {
      const simple = this.#simple ?? this.tabulate();
      if (i < simple.length) return simple[i];
    }
    return this.searchShrinkIndex(i);
  }

  private tabulate(): Uint32Array {
    const simple = new Uint32Array(Math.min(this.size, SIMPLE));
    for (let i = 0; i < simple.length; i++) simple[i] = this.searchShrinkIndex(i);
    return (this.#simple = simple);
  }

  private searchShrinkIndex(i: number): number {
    if (i < this.ascii) return this.atSorted(this.below48 + i);
    if (i < this.ascii + this.below48) return this.atSorted(i - this.ascii);
    return this.atSorted(i);
  }
}
