// Shrinking through a filter reaches the nearest value the filter accepts: a candidate a filter rejects says
// nothing about whether the values around it fail (the shrinker's `farthest` asks its neighbours instead), so
// the minimal example is the genuinely minimal one on every seed, wherever the filter sits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { find, st } from "../../../src/engine/index.ts";
import type { Strategy } from "../../../src/engine/strategies/strategy.ts";

const SEEDS = 20;
const odd = (n: number) => Math.abs(n % 2) === 1;
const even = (n: number) => n % 2 === 0;
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** The minimal example `find` reports on seeds 0..19, one per seed. */
function minimalOverSeeds<T>(strategy: Strategy<T>, fails: (value: T) => boolean): T[] {
  const out: T[] = [];
  for (let seed = 0; seed < SEEDS; seed++) out.push(find(strategy, fails, { seed, database: null, deadline: null }));
  return out;
}

/** Asserts every seed's minimal example is `expected`, listing the seeds that missed it. */
function assertEverySeed<T>(found: readonly T[], expected: T): void {
  const missed = found.flatMap((v, seed) =>
    JSON.stringify(v) === JSON.stringify(expected) ? [] : [`seed ${seed}: ${JSON.stringify(v)}`],
  );
  assert.deepEqual(missed, [], `expected ${JSON.stringify(expected)} on every seed`);
}

// 101 and 102 are the first odd and even integers over 100: one choice each, the simplest that fails.
test("an odd filter: n > 100 shrinks to 101 on every seed", () => {
  assertEverySeed(
    minimalOverSeeds(st.integers().filter(odd), (n) => n > 100),
    101,
  );
});

test("an even filter: n > 100 shrinks to 102 on every seed", () => {
  assertEverySeed(
    minimalOverSeeds(st.integers().filter(even), (n) => n > 100),
    102,
  );
});

// The first alternative is the simpler one (index 0), so the minimal example takes it.
test("a filter inside st.oneOf: the filtered alternative shrinks to 101 and 102 on every seed", () => {
  for (const [filter, expected] of [
    [odd, 101],
    [even, 102],
  ] as const) {
    assertEverySeed(
      minimalOverSeeds(st.oneOf(st.integers().filter(filter), st.booleans()), (v) => typeof v === "number" && v > 100),
      expected,
    );
  }
});

test("a filter under .map: { n } shrinks to { n: 101 } on every seed", () => {
  assertEverySeed(
    minimalOverSeeds(
      st
        .integers()
        .filter(odd)
        .map((n) => ({ n })),
      (o) => o.n > 100,
    ),
    { n: 101 },
  );
});

// The empty list sums to 0, so one element is the shortest failing sequence ("more", the element, "stop"), and
// 102 the simplest even element over 100.
test("a filter on a list: an even sum over 100 shrinks to [102] on every seed", () => {
  assertEverySeed(
    minimalOverSeeds(
      st.lists(st.integers()).filter((xs) => even(sum(xs))),
      (xs) => sum(xs) > 100,
    ),
    [102],
  );
});

// Both values are odd: the first is the simplest odd value, 1, and the second the least odd one that still
// makes the sum exceed 100.
test("two filtered values that fail together: (a, b) with a + b > 100 shrinks to (1, 101) on every seed", () => {
  assertEverySeed(
    minimalOverSeeds(st.tuples(st.integers().filter(odd), st.integers().filter(odd)), ([a, b]) => a + b > 100),
    [1, 101],
  );
});

// An integral float moves by the same search as an integer, so it gets past a filter the same way.
test("a filter on floats: an odd integral float over 100 shrinks to 101 on every seed", () => {
  assertEverySeed(
    minimalOverSeeds(
      st.floats({ min: 0, max: 1e6 }).filter((x) => Number.isInteger(x) && odd(x)),
      (x) => x > 100,
    ),
    101,
  );
});

// The search asks four values around a rejected one: five neighbouring values hold a multiple of five.
test("a filter that accepts one value in five: multiples of 5 over 100 shrink to 105 on every seed", () => {
  assertEverySeed(
    minimalOverSeeds(
      st.integers().filter((n) => n % 5 === 0),
      (n) => n > 100,
    ),
    105,
  );
});
