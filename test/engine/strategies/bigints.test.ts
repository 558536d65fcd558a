// st.bigints: the strategy laws (laws.ts) unbounded, half-bounded and bounded in each of its encodings; the
// round-trip-through-a-number bug found and shrunk to 2^53 + 1 on every seed; small ranges enumerated once;
// printing, explain, unique lists and type inference.
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, find, property, st, toLiteral, PropertyFailure } from "../../../src/engine/index.ts";
import type { Strategy } from "../../../src/engine/index.ts";
import { strategyLaws, valuesOf } from "./laws.ts";
import { bugRuns } from "./bugScenario.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;

/** The independent oracle: a bigint within [min, max] (undefined: unbounded). */
function inRange(min?: bigint, max?: bigint): (x: bigint) => true | string {
  return (x) => {
    if (typeof x !== "bigint") return `not a bigint: ${typeof x}`;
    if (min !== undefined && x < min) return "below min";
    if (max !== undefined && x > max) return "above max";
    return true;
  };
}
const is = (v: bigint) => (x: bigint) => x === v;
const abs = (x: bigint) => (x < 0n ? -x : x);

strategyLaws({
  name: "st.bigints()",
  strategy: st.bigints(),
  valid: inRange(),
  simplest: 0n,
  boundaries: {
    "2^31": is(2n ** 31n),
    "-(2^31)": is(-(2n ** 31n)),
    "2^53 - 1": is(2n ** 53n - 1n),
    "2^53": is(2n ** 53n),
    "2^53 + 1": is(2n ** 53n + 1n),
    "-(2^53 + 1)": is(-(2n ** 53n + 1n)),
    "2^63": is(2n ** 63n),
    "-(2^63)": is(-(2n ** 63n)),
    "2^63 - 1": is(2n ** 63n - 1n),
    "2^64 - 1": is(2n ** 64n - 1n),
    "a small negative value": (x) => x < 0n && x > -100n,
    "above 2^128": (x) => abs(x) > 2n ** 128n,
  },
  badOptions: [
    [
      () => st.bigints({ min: 5 as never }),
      /^st\.bigints: min must be a bigint, got number 5 \(write 5n, or BigInt\(5\)\)/,
    ],
    [() => st.bigints({ max: 1.5 as never }), /^st\.bigints: max must be a bigint, got number 1\.5/],
    [() => st.bigints({ max: "7" as never }), /^st\.bigints: max must be a bigint, got string "7"/],
    [() => st.bigints({ min: 3n, max: 2n }), /^st\.bigints: min \(3n\) must not be greater than max \(2n\)/],
    [() => st.bigints({ mn: 3n } as never), /^st\.bigints: unknown option "mn" \(did you mean "min"\?/],
  ],
});

strategyLaws({
  name: "st.bigints({ min: 0n, max: 3n })",
  strategy: st.bigints({ min: 0n, max: 3n }),
  valid: inRange(0n, 3n),
  simplest: 0n,
  boundaries: { "0n": is(0n), "3n": is(3n) },
});

strategyLaws({
  name: "st.bigints({ min: 10n ** 20n })",
  strategy: st.bigints({ min: 10n ** 20n }),
  valid: inRange(10n ** 20n),
  simplest: 10n ** 20n,
  boundaries: { min: is(10n ** 20n), "min + 2^64 - 1": (x) => x - 10n ** 20n === 2n ** 64n - 1n || x > 10n ** 20n },
});

strategyLaws({
  name: "st.bigints({ max: -5n })",
  strategy: st.bigints({ max: -5n }),
  valid: inRange(undefined, -5n),
  simplest: -5n,
  boundaries: { max: is(-5n), "below -(2^64)": (x) => x < -(2n ** 64n) },
});

const LOW = -(2n ** 70n) + 3n;
const HIGH = 2n ** 64n + 5n;
strategyLaws({
  name: "st.bigints({ min: -(2^70) + 3n, max: 2^64 + 5n })",
  strategy: st.bigints({ min: LOW, max: HIGH }),
  valid: inRange(LOW, HIGH),
  simplest: 0n,
  boundaries: { min: is(LOW), max: is(HIGH), "2^64 - 1": is(2n ** 64n - 1n), "-(2^63)": is(-(2n ** 63n)) },
});

strategyLaws({
  name: "st.bigints({ min: 2^60, max: 2^60 + 1000n })",
  strategy: st.bigints({ min: 2n ** 60n, max: 2n ** 60n + 1000n }),
  valid: inRange(2n ** 60n, 2n ** 60n + 1000n),
  simplest: 2n ** 60n,
  boundaries: { min: is(2n ** 60n), max: is(2n ** 60n + 1000n) },
});

test("BigInt(Number(x)) === x is found within 100 examples and shrinks to 9007199254740993n on every seed", () => {
  const { minimal, foundEarly } = bugRuns(st.bigints(), (x) => BigInt(Number(x)) === x);
  minimal.forEach((m, seed) => {
    assert.ok(m !== undefined, `seed ${seed}: the property passed`);
    assert.deepStrictEqual(m.args, [9007199254740993n], `seed ${seed}`);
    assert.equal(m.repro, "9007199254740993n");
  });
  assert.ok(foundEarly >= 18, `found within 100 examples on ${foundEarly} of 20 seeds`);
});

test("find shrinks by magnitude, the value above the target first, and infers bigint", () => {
  const big: bigint = find(st.bigints(), (x) => abs(x) > 2n ** 53n, QUIET);
  assert.equal(big, 2n ** 53n + 1n);
  assert.equal(
    find(st.bigints(), (x) => x < -1000n, QUIET),
    -1001n,
  );
  assert.equal(
    find(st.bigints(), (x) => abs(x) >= 2n ** 70n + 12345n, { ...QUIET, seed: 2 }),
    2n ** 70n + 12345n,
  );
  // Bounded on both sides beyond 2^53: the bound nearest 0n, then by magnitude.
  assert.equal(
    find(st.bigints({ min: 2n ** 80n, max: 2n ** 90n }), () => true, QUIET),
    2n ** 80n,
  );
  assert.equal(
    find(st.bigints({ min: -(2n ** 90n), max: -(2n ** 80n) }), (x) => x < -(2n ** 80n) - 7n, QUIET),
    -(2n ** 80n) - 8n,
  );
});

test("a small range is drawn whole, each value once, and then the run ends", () => {
  for (const [min, max] of [
    [0n, 3n],
    [2n ** 64n - 2n, 2n ** 64n + 1n],
    [-(2n ** 53n) - 1n, -(2n ** 53n) + 2n],
  ] as const) {
    const seen: bigint[] = [];
    check(
      property(st.bigints({ min, max }), (x) => {
        seen.push(x);
      }),
      { ...QUIET, seed: 1 },
    );
    assert.deepEqual(
      [...seen].sort((a, b) => (a < b ? -1 : 1)),
      [0n, 1n, 2n, 3n].map((k) => min + k),
    );
  }
});

test("every value of a range wider than 2^53 near its bounds is reachable, and only those", () => {
  // Both bounds beyond the safe integers, so the magnitude is drawn as limbs held to the bound's.
  const min = -(2n ** 64n);
  const max = 2n ** 64n + 2n;
  const values = valuesOf(st.bigints({ min, max }), 3, 3000);
  for (const x of values) assert.equal(inRange(min, max)(x), true, String(x));
  for (const edge of [min, max, 2n ** 64n - 1n]) assert.ok(values.includes(edge), `never drew ${edge}`);
  // The largest magnitudes: limbs and low bits held to the bound's, each legal one drawn.
  for (const target of [2n ** 64n, 2n ** 64n + 1n, 2n ** 64n + 2n])
    assert.equal(
      find(st.bigints({ min, max }), (x) => x === target, { ...QUIET, maxExamples: 5000 }),
      target,
    );
});

test("unique lists of bigints, and their printing", () => {
  const xs: bigint[] = find(st.lists(st.bigints(), { unique: true }), (ys) => ys.length >= 3, QUIET);
  // Three distinct small values: [0n, 1n, -1n] in some order on most seeds. (A list's elements of different
  // lengths are not sorted, and an element left at 2^53, one limb above zero low bits, cannot become -1n while
  // 0n is taken.)
  assert.equal(new Set(xs).size, 3);
  assert.ok(
    xs.every((x) => abs(x) <= 2n ** 53n),
    toLiteral(xs),
  );
  const four = find(st.lists(st.bigints({ min: 0n, max: 3n }), { unique: true }), (ys) => ys.length >= 4, QUIET);
  assert.deepEqual(four, [0n, 1n, 2n, 3n]);
  for (const ys of valuesOf(st.lists(st.bigints(), { unique: true }), 2, 300))
    assert.equal(new Set(ys).size, ys.length);
});

test("explain marks a free argument beside a bigint that matters", () => {
  try {
    check(
      property(st.bigints(), st.text(), (x, _s) => {
        if (BigInt(Number(x)) !== x) throw new Error("lost");
      }),
      { ...QUIET, seed: 1 },
    );
    assert.fail("the property passed");
  } catch (e) {
    if (!(e instanceof PropertyFailure)) throw e;
    assert.match(e.message, /9007199254740993n,\n\s+"" \/\/ or any other generated value/);
  }
});

test("unbounded bigints are small on average: a list's worth of limbs", () => {
  const s: Strategy<bigint> = st.bigints();
  const values = valuesOf(s, 9, 2000);
  const bits = values.map((x) => abs(x).toString(2).length);
  const mean = bits.reduce((a, b) => a + b, 0) / bits.length;
  assert.ok(mean > 20 && mean < 80, `mean bit length ${mean}`);
  assert.ok(Math.max(...bits) < 1024, `longest ${Math.max(...bits)} bits`);
});
