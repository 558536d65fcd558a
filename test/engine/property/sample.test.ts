// st.sample: the values a run generates, outside any test; the same seed, the same values; a small space gives
// what it has; misuse named.
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, property, st, InvalidArgument } from "../../../src/engine/index.ts";

test("st.sample gives n values, the ones a run with the same seed meets, in order", () => {
  const values: number[] = st.sample(st.integers(), 25, { seed: 3 });
  assert.equal(values.length, 25);
  const run: number[] = [];
  check(
    property(st.integers(), (x) => {
      run.push(x);
    }),
    { database: null, deadline: null, seed: 3, maxExamples: 25 },
  );
  assert.deepEqual(values, run);
  assert.deepEqual(st.sample(st.integers(), 25, { seed: 3 }), values, "the same seed, the same values");
  assert.equal(st.sample(st.dates()).length, 10, "ten by default");
});

test("st.sample of a small space gives each value once and stops", () => {
  assert.deepEqual([...st.sample(st.booleans(), 10, { seed: 1 })].sort(), [false, true]);
  assert.equal(st.sample(st.sets(st.booleans()), 100, { seed: 1 }).length, 4);
});

test("st.sample's misuse is named", () => {
  const cases: [() => unknown, RegExp][] = [
    [() => st.sample(3 as never), /^st\.sample: strategy must be a strategy, got number 3/],
    [() => st.sample(st.integers(), 0), /^st\.sample: n must be an integer from 1 to 1000000, got number 0/],
    [() => st.sample(st.integers(), 5, { seed: 1.5 }), /^st\.sample: seed must be an integer, got number 1\.5/],
    [() => st.sample(st.integers(), 5, { seeds: 1 } as never), /^st\.sample: unknown option "seeds"/],
  ];
  for (const [make, message] of cases)
    assert.throws(make, (e: unknown) => e instanceof InvalidArgument && message.test(e.message), String(message));
});
