// st.dictionaries: the strategy laws (laws.ts) with the keys that break object code among its boundaries; every
// key an own data property ("__proto__" too, never the prototype); a for…in merge that drops "__proto__" found
// and shrunk to its minimal example.
import { test } from "node:test";
import assert from "node:assert/strict";
import { find, st, toLiteral } from "../../../src/engine/index.ts";
import { strategyLaws, valuesOf } from "./laws.ts";
import { bugRuns } from "./bugScenario.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;
const has = (d: object, k: string) => Object.prototype.hasOwnProperty.call(d, k);

strategyLaws({
  name: "st.dictionaries(st.text(), st.integers())",
  strategy: st.dictionaries(st.text(), st.integers()),
  valid: (d) => {
    if (Object.getPrototypeOf(d) !== Object.prototype) return "not a plain object (its prototype changed)";
    if (Reflect.ownKeys(d).some((k) => typeof k !== "string")) return "a symbol key";
    if (!Object.values(d).every(Number.isSafeInteger)) return "a value that is not a safe integer";
    return true;
  },
  simplest: {},
  boundaries: {
    'an own "__proto__" key': (d) => has(d, "__proto__"),
    'a "constructor" key': (d) => has(d, "constructor"),
    'the empty key ""': (d) => has(d, ""),
    "two keys that differ only by case": (d) =>
      new Set(Object.keys(d).map((k) => k.toLowerCase())).size < Object.keys(d).length,
  },
  badOptions: [
    [() => st.dictionaries("k" as never, st.integers()), /^st\.dictionaries: keys must be a strategy, got string "k"/],
    [
      () => st.dictionaries(st.text(), st.integers(), { minSize: 2, maxSize: 1 }),
      /^st\.dictionaries: minSize \(2\) must not be greater than maxSize \(1\)/,
    ],
  ],
});

test("a key strategy that draws a non-string is InvalidArgument naming st.dictionaries", () => {
  assert.throws(
    () => find(st.dictionaries(st.integers() as never, st.integers()), (d) => Object.keys(d).length > 0, QUIET),
    /^InvalidArgument: st\.dictionaries: keys must draw strings, the key strategy drew number/,
  );
});

test('"__proto__" is an own key holding the value, and prints so that it pastes back as one', () => {
  const d = find(st.dictionaries(st.text(), st.integers()), (d) => has(d, "__proto__") && has(d, ""), QUIET);
  assert.equal(Object.getPrototypeOf(d), Object.prototype);
  assert.equal(toLiteral(d), '{ "": 0, ["__proto__"]: 0 }');
  assert.deepStrictEqual((0, eval)(`(${toLiteral(d)})`), d);
});

test("keys are unique: as many own keys as entries drawn", () => {
  for (const d of valuesOf(st.dictionaries(st.text({ alphabet: "ab", maxSize: 2 }), st.booleans()), 2, 300))
    assert.ok(Object.keys(d).length <= 7, toLiteral(d));
});

test('a naive for…in merge that drops "__proto__": found on at least 18 of 20 seeds, minimal { ["__proto__"]: 0 }', () => {
  const merge = (into: Record<string, number>, from: Record<string, number>) => {
    for (const k in from) into[k] = from[k];
    return into;
  };
  const { minimal, foundEarly } = bugRuns(
    st.dictionaries(st.text(), st.integers()),
    (d) => Object.keys(merge({}, d)).length === Object.keys(d).length,
  );
  assert.ok(foundEarly >= 18, `found within 100 examples on ${foundEarly}/20 seeds`);
  assert.deepEqual(
    minimal.map((m) => m?.repro),
    minimal.map(() => '{ ["__proto__"]: 0 }'),
  );
});
