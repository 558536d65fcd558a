// st.composite: the strategy laws (laws.ts) over a strategy written as code; it is a strategy and a factory;
// it works inside lists, records and machine rules; misuse named.
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, find, machine, property, st, PropertyFailure } from "../../../src/engine/index.ts";
import { strategyLaws } from "./laws.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;

const sortedPair = st.composite((draw, max: number = 100) => {
  const a = draw(st.integers({ min: 0, max }));
  return [a, draw(st.integers({ min: a, max }))] as const;
});

strategyLaws({
  name: "st.composite(sortedPair)",
  strategy: sortedPair,
  valid: ([a, b]) => (Number.isInteger(a) && a >= 0 && a <= b && b <= 100) || `not a sorted pair in 0..100: ${a}, ${b}`,
  simplest: [0, 0],
  boundaries: { "b at 100": ([, b]) => b === 100, "a equal to b, not 0": ([a, b]) => a === b && a > 0 },
  badOptions: [
    [() => st.composite(3 as never), /^st\.composite: expects a function \(draw, \.\.\.args\) => value, got number 3/],
  ],
});

strategyLaws({
  name: "st.composite(sortedPair)(10), the factory given an argument",
  strategy: sortedPair(10),
  valid: ([a, b]) => (a >= 0 && a <= b && b <= 10) || `not a sorted pair in 0..10: ${a}, ${b}`,
  simplest: [0, 0],
  seeds: 3,
});

test("a composite shrinks through its draws, inside lists and records too, and is typed", () => {
  const pair: readonly [number, number] = find(sortedPair, ([a, b]) => b - a >= 5, QUIET);
  assert.deepEqual(pair, [0, 5]);
  const r: { pairs: (readonly [number, number])[] } = find(
    st.records({ pairs: st.lists(sortedPair) }),
    (r) => r.pairs.some(([a]) => a >= 3),
    QUIET,
  );
  assert.deepEqual(r, { pairs: [[3, 3]] });
});

test("a composite gives a machine rule its arguments", () => {
  class Ranges {
    spans: number[] = [];
    add({ range: [a, b] }: { range: readonly [number, number] }) {
      this.spans.push(b - a);
    }
    small() {
      assert.ok(this.spans.every((s) => s < 50));
    }
  }
  assert.throws(
    () => check(machine(Ranges, { rules: { add: { args: { range: sortedPair } } }, invariants: ["small"] }), QUIET),
    (e: unknown) => e instanceof PropertyFailure && /state\.add\(\{ range: \[0, 50\] \}\)/.test(e.message),
  );
});

test("misuse: draw after the function returned, a promise returned, a non-strategy drawn", () => {
  let kept: ((s: unknown) => unknown) | undefined;
  const leaky = st.composite((draw) => {
    kept = draw as (s: unknown) => unknown;
    return 0;
  });
  find(leaky, () => true, QUIET);
  assert.throws(
    () => kept!(st.integers()),
    /^InvalidArgument: st\.composite: draw was called after the function returned/,
  );
  assert.throws(
    () =>
      find(
        st.composite(async () => 1),
        () => true,
        QUIET,
      ),
    /st\.composite: the function returned a promise; a strategy must build its value synchronously/,
  );
  assert.throws(
    () =>
      find(
        st.composite((draw) => draw(5 as never)),
        () => true,
        QUIET,
      ),
    /st\.composite: draw's argument must be a strategy, got number 5/,
  );
  assert.throws(
    () =>
      check(
        property(
          st.composite(async () => 1),
          () => {},
        ),
        QUIET,
      ),
    /returned a promise/,
  );
});
