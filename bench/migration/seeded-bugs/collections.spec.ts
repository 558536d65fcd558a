// Properties on list helpers, each helper with a bug of a kind application code has. Both libraries run this file
// as written (fast-check) and with the import switched (shrinkscope/fc); every property here is meant to fail.
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Sorts numbers, with the default comparator: lexicographic, so 10 comes before 9. */
function sortNumbers(xs: number[]): number[] {
  return [...xs].sort();
}

/** Splits into chunks of `size`, dropping a last partial chunk. */
function chunk<T>(xs: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i + size <= xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/** Merges overlapping intervals; touching ones ([0, 1] and [1, 2]) are left apart by mistake. */
function mergeIntervals(intervals: [number, number][]): [number, number][] {
  const sorted = intervals.map(([a, b]): [number, number] => [Math.min(a, b), Math.max(a, b)]);
  sorted.sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && a < last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** Binary search in a sorted array; the loop stops one step early. */
function indexOfSorted(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] === x) return mid;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Removes duplicate amounts, keyed by their absolute value: a refund (-5) and a charge (5) collide. */
function dedupe(amounts: number[]): number[] {
  const seen = new Set<number>();
  return amounts.filter((x) => {
    const k = Math.abs(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

describe("collections", () => {
  it("sorts numbers in order", () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), (xs) => {
        const s = sortNumbers(xs);
        for (let i = 1; i < s.length; i++) expect(s[i - 1]).toBeLessThanOrEqual(s[i]!);
      }),
    );
  });

  it("chunks keep every element", () => {
    fc.assert(
      fc.property(fc.array(fc.nat()), fc.integer({ min: 1, max: 5 }), (xs, size) => {
        expect(chunk(xs, size).flat()).toEqual(xs);
      }),
    );
  });

  it("merged intervals do not touch", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }))), (ivs) => {
        const merged = mergeIntervals(ivs);
        for (let i = 1; i < merged.length; i++) expect(merged[i]![0]).toBeGreaterThan(merged[i - 1]![1]);
      }),
    );
  });

  it("finds every element of a sorted array", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -100, max: 100 }), { minLength: 1 }), (xs) => {
        const sorted = [...xs].sort((a, b) => a - b);
        for (const x of sorted) expect(indexOfSorted(sorted, x)).toBe(sorted.indexOf(x));
      }),
    );
  });

  it("dedupe keeps distinct values", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 })), (xs) => {
        expect(dedupe(xs).length).toBe(new Set(xs).size);
      }),
    );
  });
});
