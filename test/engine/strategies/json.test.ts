// st.json and st.anything: the strategy laws (laws.ts) — JSON's own round trip as the oracle for st.json, the
// printed literal evaluating back deep-equal for st.anything — with their boundaries; the bugs of
// bench/bugs/json.mjs (its code under test shared through json-code.mjs) found and shrunk to their minimal examples.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { find, st } from "../../../src/engine/index.ts";
import type { JsonValue } from "../../../src/engine/strategies/json.ts";
import { strategyLaws } from "./laws.ts";
import { bugRuns } from "./bugScenario.ts";
import { deepEqual, survives, writeJson } from "../../../bench/bugs/json-code.mjs";

const QUIET = { database: null, deadline: null, seed: 1 } as const;

/** Containers deep: 0 for a scalar. */
const depth = (v: unknown): number =>
  v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v as object).map(depth)) : 0;
const someString = (v: unknown, is: (s: string) => boolean): boolean =>
  typeof v === "string"
    ? is(v)
    : v !== null && typeof v === "object" && Object.entries(v).some(([k, x]) => is(k) || someString(x, is));
const some = (v: unknown, is: (x: unknown) => boolean): boolean => {
  if (is(v)) return true;
  if (v instanceof Map) return [...v].some(([k, x]) => some(k, is) || some(x, is));
  if (v instanceof Set) return [...v].some((x) => some(x, is));
  return v !== null && typeof v === "object" && !ArrayBuffer.isView(v) && Object.values(v).some((x) => some(x, is));
};

strategyLaws({
  name: "st.json()",
  strategy: st.json(),
  valid: (v) => isDeepStrictEqual(JSON.parse(JSON.stringify(v)), v) || "changed by a trip through JSON",
  simplest: null,
  boundaries: {
    "nesting five deep": (v) => depth(v) === 5,
    "an empty array": (v) => some(v, (x) => Array.isArray(x) && x.length === 0),
    "an empty object": (v) => some(v, (x) => isDeepStrictEqual(x, {})),
    "a number of 1e300 or more": (v) => some(v, (x) => typeof x === "number" && Math.abs(x) >= 1e300),
    'a " or \\ in a string': (v) => someString(v, (s) => /["\\]/.test(s)),
    "a control character in a string": (v) => someString(v, (s) => /[\u0000-\u001f]/.test(s)),
    'an own "__proto__" key': (v) =>
      some(v, (x) => x !== null && typeof x === "object" && Object.hasOwn(x, "__proto__")),
  },
  badOptions: [
    [() => st.json({ maxDepth: -1 }), /^st\.json: maxDepth must be an integer from 0 to 100, got number -1/],
    [() => st.json({ depth: 2 } as never), /^st\.json: unknown option "depth"/],
  ],
});

strategyLaws({
  name: "st.json({ maxDepth: 1 })",
  strategy: st.json({ maxDepth: 1 }),
  valid: (v) =>
    (depth(v) <= 1 && isDeepStrictEqual(JSON.parse(JSON.stringify(v)), v)) || "deeper than 1, or changed by JSON",
  simplest: null,
  boundaries: {
    "an array of one level": (v) => Array.isArray(v) && v.length > 0,
    "an object of one level": (v) => depth(v) === 1 && !Array.isArray(v) && Object.keys(v as object).length > 0,
  },
  seeds: 3,
});

strategyLaws({
  name: "st.json({ maxDepth: 0 })",
  strategy: st.json({ maxDepth: 0 }),
  valid: (v) => (depth(v) === 0 && isDeepStrictEqual(JSON.parse(JSON.stringify(v)), v)) || "a container, or changed",
  simplest: null,
  boundaries: {
    "2^53": (v) => v === 2 ** 53,
    "a fraction": (v) => typeof v === "number" && !Number.isInteger(v),
    "a lone surrogate": (v) => typeof v === "string" && /[\ud800-\udfff]/.test(v),
  },
  seeds: 3,
});

const is = (x: unknown) => (v: unknown) => Object.is(v, x);
strategyLaws({
  name: "st.anything()",
  strategy: st.anything(),
  valid: () => true, // the law's own check: printed, it evaluates back deep-equal
  simplest: undefined,
  boundaries: {
    "-0": (v) => some(v, is(-0)),
    NaN: (v) => some(v, (x) => Number.isNaN(x)),
    "a bigint": (v) => some(v, (x) => typeof x === "bigint"),
    "a null-prototype object": (v) =>
      some(v, (x) => typeof x === "object" && x !== null && Object.getPrototypeOf(x) === null),
    'an own "__proto__"': (v) => some(v, (x) => typeof x === "object" && x !== null && Object.hasOwn(x, "__proto__")),
    "a Map": (v) => some(v, (x) => x instanceof Map),
    "a Set": (v) => some(v, (x) => x instanceof Set),
    "a Date": (v) => some(v, (x) => x instanceof Date),
    "an invalid Date": (v) => some(v, (x) => x instanceof Date && Number.isNaN(x.getTime())),
    "a typed array": (v) => some(v, (x) => ArrayBuffer.isView(x)),
    "a sparse array": (v) => some(v, (x) => Array.isArray(x) && Object.keys(x).length < x.length),
  },
  badOptions: [
    [() => st.anything({ maxDepth: 1.5 }), /^st\.anything: maxDepth must be an integer/],
    [() => st.anything({ withMap: "no" as never }), /^st\.anything: withMap must be true or false, got string "no"/],
    [() => st.anything({ withMaps: false } as never), /^st\.anything: unknown option "withMaps"/],
  ],
});

/** The kinds st.anything's flags leave out, each with how to tell it (a bigint inside a typed array too). */
const EXOTIC: [string, (x: unknown) => boolean][] = [
  ["a bigint", (x) => typeof x === "bigint" || x instanceof BigInt64Array],
  ["a Date", (x) => x instanceof Date],
  ["a Map", (x) => x instanceof Map],
  ["a Set", (x) => x instanceof Set],
  ["a typed array", (x) => ArrayBuffer.isView(x)],
  ["a sparse array", (x) => Array.isArray(x) && Object.keys(x).length < x.length],
  ["a null-prototype object", (x) => typeof x === "object" && x !== null && Object.getPrototypeOf(x) === null],
];
const exotic = (x: unknown): string | undefined => EXOTIC.find(([, is]) => is(x))?.[0];
strategyLaws({
  name: "st.anything({ maxDepth: 2, with…: false })",
  strategy: st.anything({
    maxDepth: 2,
    withBigInt: false,
    withDate: false,
    withMap: false,
    withSet: false,
    withTypedArray: false,
    withSparseArray: false,
    withNullPrototype: false,
  }),
  valid: (v) => {
    let found: string | undefined;
    some(v, (x) => (found ??= exotic(x)) !== undefined);
    return (found === undefined && depth(v) <= 2) || `${found ?? "deeper than 2"}: left out by its option`;
  },
  simplest: undefined,
  boundaries: { "-0": (v) => some(v, is(-0)), NaN: (v) => some(v, (x) => Number.isNaN(x)) },
  seeds: 3,
});

strategyLaws({
  name: "st.anything({ withBigInt: false })",
  strategy: st.anything({ withBigInt: false }),
  valid: (v) => !some(v, (x) => exotic(x) === "a bigint") || "a bigint, left out by withBigInt: false",
  simplest: undefined,
  boundaries: { "a Float64Array": (v) => some(v, (x) => x instanceof Float64Array) },
  seeds: 3,
});

test("st.json inside a record and a list: a request whose body is an array of two, shrunk to its simplest", () => {
  const request = st.records({ path: st.text({ alphabet: "/ab", minSize: 1 }), body: st.json() });
  const r = find(st.lists(request), (rs) => rs.some((r) => Array.isArray(r.body) && r.body.length >= 2), QUIET);
  assert.deepEqual(r, [{ path: "a", body: [null, null] }]); // "a" before "/" in the text order
});

test("st.json's values are typed JsonValue; st.anything's unknown", () => {
  const v: JsonValue = find(st.json(), (v) => Array.isArray(v) && v.length > 1, QUIET);
  assert.deepEqual(v, [null, null]);
  const a: unknown = find(st.anything(), (v) => typeof v === "bigint", QUIET);
  assert.equal(a, 0n);
});

test('a JSON writer that forgets control characters: found on at least 18 of 20 seeds, minimal "\\0" (alone, or as an object\'s one key)', () => {
  const { minimal, foundEarly } = bugRuns(
    st.json(),
    survives((v) => JSON.parse(writeJson(v)), isDeepStrictEqual),
  );
  assert.ok(foundEarly >= 18, `found within 100 examples on ${foundEarly}/20 seeds`);
  // Lifting a key's string out of its object to the top is not a move the shrinker makes (a key is not a value).
  for (const m of minimal) assert.ok(['"\\0"', '{ "\\0": null }'].includes(m?.repro ?? ""), m?.repro);
  assert.ok(minimal.filter((m) => m?.repro === '"\\0"').length >= 8, "the string alone on fewer than 8 seeds");
});

test("a deep copy through JSON (JSON.parse(JSON.stringify(v))): found on every seed, minimal undefined", () => {
  const { minimal, foundEarly } = bugRuns(
    st.anything(),
    survives((v) => JSON.parse(JSON.stringify(v)), isDeepStrictEqual),
  );
  assert.equal(foundEarly, 20);
  assert.deepEqual(
    minimal.map((m) => m?.repro),
    minimal.map(() => "undefined"),
  );
});

test("structuredClone checked by a deep equality that compares with ===: found on every seed, minimal NaN or new Date(NaN)", () => {
  const { minimal, foundEarly } = bugRuns(st.anything(), survives(structuredClone, deepEqual));
  assert.ok(foundEarly >= 18, `found within 100 examples on ${foundEarly}/20 seeds`);
  // A NaN compared with ===, as a number, as an invalid Date's time or as a float array's one element: from one the
  // shrinker cannot reach another (another alternative of st.anything, whose choices are of other types).
  const nan = ["NaN", "new Date(NaN)", "new Float64Array([NaN])", "new Float32Array([NaN])"];
  for (const m of minimal) assert.ok(nan.includes(m?.repro ?? ""), m?.repro);
  assert.ok(minimal.some((m) => m?.repro === "NaN"));
});
