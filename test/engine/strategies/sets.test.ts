// st.sets and st.maps: the strategy laws (laws.ts); one choice sequence per collection, so a small space of sets
// is exhausted; SameValueZero keys; a set of size ≥ 3 shrunk to the three simplest integers on every seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, find, property, st, toLiteral } from "../../../src/engine/index.ts";
import { strategyLaws, valuesOf } from "./laws.ts";
import { bugRuns } from "./bugScenario.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;

const integersIn = (s: Set<unknown>): true | string =>
  !(s instanceof Set) ? "not a Set" : [...s].every(Number.isSafeInteger) || "an element is not a safe integer";

strategyLaws({
  name: "st.sets(st.integers())",
  strategy: st.sets(st.integers()),
  valid: integersIn,
  simplest: new Set(),
  boundaries: { "three or more elements": (s) => s.size >= 3, "one element": (s) => s.size === 1 },
  badOptions: [
    [
      () => st.sets(st.integers(), { minSize: 3, maxSize: 2 }),
      /^st\.sets: minSize \(3\) must not be greater than maxSize \(2\)/,
    ],
    [() => st.sets(5 as never), /^st\.sets: elements must be a strategy, got number 5/],
    [() => st.sets(st.integers(), { size: 3 } as never), /^st\.sets: unknown option "size"/],
  ],
});

strategyLaws({
  name: "st.sets(st.integers({ min: 0, max: 9 }), { minSize: 2, maxSize: 4 })",
  strategy: st.sets(st.integers({ min: 0, max: 9 }), { minSize: 2, maxSize: 4 }),
  valid: (s) => (integersIn(s) === true && s.size >= 2 && s.size <= 4) || `size ${s.size}`,
  simplest: new Set([0, 1]),
  boundaries: { "four elements": (s) => s.size === 4, "9 in it": (s) => s.has(9) },
});

strategyLaws({
  name: "st.maps(st.text(), st.integers())",
  strategy: st.maps(st.text(), st.integers()),
  valid: (m) =>
    !(m instanceof Map)
      ? "not a Map"
      : [...m].every(([k, v]) => typeof k === "string" && Number.isSafeInteger(v)) || "a key or value of another type",
  simplest: new Map(),
  boundaries: { "two or more entries": (m) => m.size >= 2 },
  badOptions: [
    [() => st.maps(st.text(), null as never), /^st\.maps: values must be a strategy, got null/],
    [() => st.maps(st.text(), st.integers(), { maxSize: -1 }), /^st\.maps: maxSize/],
  ],
});

test("st.sets(st.booleans()) has four values: a run tries each once and reports the space exhausted", () => {
  const seen: string[] = [];
  let outcome = "";
  check(
    property(st.sets(st.booleans()), (s) => {
      seen.push(toLiteral(s));
    }),
    { ...QUIET, onEvent: (e) => (e.type === "result" ? (outcome = e.outcome) : undefined) },
  );
  assert.deepEqual([...seen].sort(), ["new Set()", "new Set([false, true])", "new Set([false])", "new Set([true])"]);
  assert.equal(outcome, "exhausted");
});

test("a set never holds two values SameValueZero calls equal: NaN once, 0 and -0 not both", () => {
  for (const s of valuesOf(st.sets(st.floats()), 3, 500)) {
    const xs = [...s];
    assert.ok(!(xs.includes(0) && xs.some((x) => Object.is(x, -0) || x === 0) && xs.filter((x) => x === 0).length > 1));
    assert.ok(xs.filter((x) => Number.isNaN(x)).length <= 1);
  }
});

test("a set's elements are inserted in the order of their choices: the minimal set prints simplest first", () => {
  assert.equal(toLiteral(find(st.sets(st.integers()), (s) => s.size >= 3, QUIET)), "new Set([0, 1, -1])");
  assert.equal(
    toLiteral(find(st.maps(st.text(), st.integers()), (m) => m.size >= 2, QUIET)),
    'new Map([["", 0], ["0", 0]])',
  );
});

test("code that assumes a set of fewer than three: found on at least 18 of 20 seeds, minimal new Set([0, 1, -1]) on each", () => {
  const { minimal, foundEarly } = bugRuns(st.sets(st.integers()), (s) => s.size < 3);
  assert.ok(foundEarly >= 18, `found within 100 examples on ${foundEarly}/20 seeds`);
  assert.deepEqual(
    minimal.map((m) => m?.repro),
    minimal.map(() => "new Set([0, 1, -1])"),
  );
});

test("st.sets and st.maps nest, and their values are typed", () => {
  const nested: Map<string, Set<number>> = find(
    st.maps(st.text({ alphabet: "ab" }), st.sets(st.integers())),
    (m) => [...m.values()].some((s) => s.size >= 2),
    QUIET,
  );
  assert.equal(toLiteral(nested), 'new Map([["", new Set([0, 1])]])');
});
