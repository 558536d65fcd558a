// st.oneOf with weights: the strategy laws (laws.ts); generation follows the weights while shrinking still goes
// toward the first alternative; the unweighted form unchanged; misuse named.
import { test } from "node:test";
import assert from "node:assert/strict";
import { find, st } from "../../../src/engine/index.ts";
import { strategyLaws, valuesOf } from "./laws.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;
const mostlyNumbers = st.oneOf([9, st.integers()], [1, st.just(null)]);

strategyLaws({
  name: "st.oneOf([9, st.integers()], [1, st.just(null)])",
  strategy: mostlyNumbers,
  valid: (v) => v === null || Number.isSafeInteger(v) || "neither null nor an integer",
  simplest: 0,
  boundaries: { null: (v) => v === null },
  badOptions: [
    [
      () => st.oneOf([1, st.integers()], st.text() as never),
      /^st\.oneOf: argument 1 is .*give every alternative as \[weight, strategy\], or none/,
    ],
    [
      () => st.oneOf([0, st.integers()]),
      /^st\.oneOf: the weight of argument 0 must be a positive finite number, got number 0/,
    ],
    [() => st.oneOf([NaN, st.integers()]), /^st\.oneOf: the weight of argument 0 must be a positive finite number/],
    [() => st.oneOf([1, 2] as never), /^st\.oneOf: argument 0's strategy must be a strategy, got number 2/],
    [() => st.oneOf(), /^st\.oneOf: needs at least one strategy/],
  ],
});

test("weights set how often each alternative is generated", () => {
  const values = valuesOf(st.oneOf([9, st.integers()], [1, st.text()]), 3, 2000);
  const share = values.filter((v) => typeof v === "string").length / values.length;
  assert.ok(share > 0.05 && share < 0.16, `a string in ${(share * 100).toFixed(1)}% of values, weight 1 in 10`);
  const rare = valuesOf(st.oneOf([1, st.text()], [99, st.integers()]), 4, 2000);
  assert.ok(rare.filter((v) => typeof v === "string").length < 80, "a weight of 1 in 100 came up far more often");
});

test("shrinking goes toward the first alternative whatever its weight; the type is the union", () => {
  const v: number | string = find(st.oneOf([1, st.integers()], [1000, st.text()]), () => true, QUIET);
  assert.equal(v, 0);
  assert.equal(
    find(st.oneOf([1, st.integers()], [1000, st.text()]), (v) => typeof v === "string", QUIET),
    "",
  );
});
