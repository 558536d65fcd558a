/**
 * shrinkscope/fc's arbitraries draw what fast-check's draw: the same ranges and defaults, checked on the values of
 * both (fast-check 4 is the oracle: a check that holds on its values must hold on ours), and bad constraints throw
 * InvalidArgument naming the call.
 */
import assert from "node:assert/strict";
import * as net from "node:net";
import { test } from "node:test";
import realFc from "fast-check";
import fc from "../../../src/engine/fc.ts";
import { configure, InvalidArgument, st } from "../../../src/engine/index.ts";
import { failure } from "../helpers.ts";

configure({ database: null });

const N = 300;
const ours = <T>(arb: unknown, n = N): T[] => fc.sample(arb as never, { numRuns: n, seed: 7 }) as T[];
const theirs = <T>(arb: unknown, n = N): T[] => realFc.sample(arb as never, { numRuns: n, seed: 7 }) as T[];

/** `holds` is true of every value of both libraries' arbitraries (fast-check's showing the check is fair). */
function bothHold<T>(name: string, mine: unknown, real: unknown, holds: (v: T) => boolean): void {
  for (const [who, values] of [
    ["fast-check", theirs<T>(real)],
    ["shrinkscope/fc", ours<T>(mine)],
  ] as const) {
    const bad = values.find((v) => !holds(v));
    assert.equal(bad, undefined, `${name}: ${who} drew ${String(bad)}`);
  }
}

const INT32 = (v: number) => Number.isInteger(v) && v >= -(2 ** 31) && v <= 2 ** 31 - 1;
const PRINTABLE_ASCII = (s: string) => /^[\x20-\x7e]*$/.test(s);

test("numbers keep fast-check's default ranges", () => {
  bothHold("integer()", fc.integer(), realFc.integer(), INT32);
  bothHold(
    "integer({ min, max })",
    fc.integer({ min: -3, max: 5 }),
    realFc.integer({ min: -3, max: 5 }),
    (v: number) => v >= -3 && v <= 5,
  );
  bothHold("nat()", fc.nat(), realFc.nat(), (v: number) => INT32(v) && v >= 0);
  bothHold("nat(10)", fc.nat(10), realFc.nat(10), (v: number) => v >= 0 && v <= 10);
  bothHold("nat({ max })", fc.nat({ max: 3 }), realFc.nat({ max: 3 }), (v: number) => v >= 0 && v <= 3);
  bothHold(
    "double({ noNaN, noDefaultInfinity })",
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    realFc.double({ noNaN: true, noDefaultInfinity: true }),
    Number.isFinite,
  );
  bothHold(
    "double({ min, max, noNaN })",
    fc.double({ min: -1, max: 1, noNaN: true }),
    realFc.double({ min: -1, max: 1, noNaN: true }),
    (v: number) => v >= -1 && v <= 1,
  );
  bothHold("float()", fc.float(), realFc.float(), (v: number) => Number.isNaN(v) || Math.fround(v) === v);
  bothHold(
    "float({ noInteger, noNaN })",
    fc.float({ noInteger: true, noNaN: true }),
    realFc.float({ noInteger: true, noNaN: true }),
    (v: number) => !Number.isInteger(v) && !Number.isNaN(v),
  );
  bothHold(
    "double({ min, max, minExcluded, maxExcluded })",
    fc.double({ min: 0, max: 1, minExcluded: true, maxExcluded: true, noNaN: true }),
    realFc.double({ min: 0, max: 1, minExcluded: true, maxExcluded: true, noNaN: true }),
    (v: number) => v > 0 && v < 1,
  );
  bothHold("bigInt(min, max)", fc.bigInt(-5n, 5n), realFc.bigInt(-5n, 5n), (v: bigint) => v >= -5n && v <= 5n);
  bothHold(
    "bigInt({ min })",
    fc.bigInt({ min: 0n }),
    realFc.bigInt({ min: 0n }),
    (v: bigint) => typeof v === "bigint" && v >= 0n,
  );
  // What a run meets first: the simplest value, as fast-check shrinks toward it.
  assert.equal(ours<number>(fc.integer())[0], 0);
  const doubles = ours<number>(fc.double(), 1000);
  assert.ok(
    doubles.some(Number.isNaN) && doubles.includes(Infinity) && doubles.some((v) => Object.is(v, -0)),
    "NaN, Infinity and -0 by default",
  );
});

test("strings keep fast-check's units and lengths", () => {
  bothHold("string()", fc.string(), realFc.string(), PRINTABLE_ASCII);
  bothHold(
    "string({ minLength, maxLength })",
    fc.string({ minLength: 2, maxLength: 4 }),
    realFc.string({ minLength: 2, maxLength: 4 }),
    (s: string) => s.length >= 2 && s.length <= 4,
  );
  bothHold(
    "string({ unit: 'binary-ascii' })",
    fc.string({ unit: "binary-ascii" }),
    realFc.string({ unit: "binary-ascii" }),
    (s: string) => /^[\x00-\x7f]*$/.test(s),
  );
  bothHold(
    "string({ unit: 'binary' })",
    fc.string({ unit: "binary" }),
    realFc.string({ unit: "binary" }),
    (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s),
  );
  // A unit that is an arbitrary: lengths count units, as fast-check counts them.
  const unit = fc.constantFrom("ab", "c");
  bothHold(
    "string({ unit: arbitrary, maxLength })",
    fc.string({ unit, maxLength: 2 }),
    realFc.string({ unit: realFc.constantFrom("ab", "c"), maxLength: 2 }),
    (s: string) => /^(ab|c){0,2}$/.test(s),
  );
  bothHold(
    "stringMatching",
    fc.stringMatching(/^[a-f]{3}-\d+$/),
    realFc.stringMatching(/^[a-f]{3}-\d+$/),
    (s: string) => /^[a-f]{3}-\d+$/.test(s),
  );
  assert.equal(ours<string>(fc.string())[0], "");
});

test("collections keep fast-check's sizes and rules", () => {
  bothHold(
    "array",
    fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
    realFc.array(realFc.nat(), { minLength: 1, maxLength: 3 }),
    (xs: number[]) => xs.length >= 1 && xs.length <= 3,
  );
  const distinct = (xs: unknown[]) => new Set(xs.map((x) => (Object.is(x, -0) ? "-0" : x))).size === xs.length;
  bothHold(
    "uniqueArray",
    fc.uniqueArray(fc.integer({ min: 0, max: 5 })),
    realFc.uniqueArray(realFc.integer({ min: 0, max: 5 })),
    distinct,
  );
  bothHold(
    "uniqueArray({ selector })",
    fc.uniqueArray(fc.record({ id: fc.nat(3) }), { selector: (r) => r.id }),
    realFc.uniqueArray(realFc.record({ id: realFc.nat(3) }), { selector: (r) => r.id }),
    (xs: { id: number }[]) => distinct(xs.map((x) => x.id)),
  );
  bothHold(
    "uniqueArray({ comparator })",
    fc.uniqueArray(fc.nat(9), { comparator: (a, b) => a % 3 === b % 3 }),
    realFc.uniqueArray(realFc.nat(9), { comparator: (a, b) => a % 3 === b % 3 }),
    (xs: number[]) => distinct(xs.map((x) => x % 3)),
  );
  // SameValue (the default) tells -0 from +0: both may be in one array.
  assert.ok(ours<number[]>(fc.uniqueArray(fc.constantFrom(0, -0), { minLength: 2 }), 5).every((xs) => xs.length === 2));
  const keys = (o: object) => Object.keys(o).sort().join(",");
  bothHold(
    "record",
    fc.record({ a: fc.nat(), b: fc.string() }),
    realFc.record({ a: realFc.nat(), b: realFc.string() }),
    (r: object) => keys(r) === "a,b",
  );
  const partial = ours<Record<string, unknown>>(fc.record({ a: fc.nat(), b: fc.nat() }, { requiredKeys: ["a"] }));
  assert.ok(
    partial.every((r) => "a" in r && (!("b" in r) || typeof r.b === "number")),
    "b is absent or a number, never undefined",
  );
  assert.ok(partial.some((r) => !("b" in r)) && partial.some((r) => "b" in r));
  bothHold(
    "dictionary",
    fc.dictionary(fc.string(), fc.nat(), { maxKeys: 3 }),
    realFc.dictionary(realFc.string(), realFc.nat(), { maxKeys: 3 }),
    (d: object) => Object.keys(d).length <= 3,
  );
  bothHold(
    "tuple",
    fc.tuple(fc.nat(), fc.boolean()),
    realFc.tuple(realFc.nat(), realFc.boolean()),
    (t: unknown[]) => t.length === 2 && typeof t[1] === "boolean",
  );
  const base = [1, 2, 3, 4];
  bothHold("subarray", fc.subarray(base), realFc.subarray(base), (xs: number[]) =>
    xs.every((x, i) => i === 0 || xs[i - 1] < x),
  );
  // Pinned from bench:migration (immutable-js's slice tests call fc.sparseArray; it was missing).
  const sparse = (min: number, max: number, trailing: boolean) => (xs: number[]) => {
    const present = Object.keys(xs).length;
    return (
      xs.length <= 3 &&
      present >= min &&
      present <= max &&
      xs.every((x) => x >= 0 && x <= 9) &&
      (trailing || xs.length === 0 || Object.hasOwn(xs, xs.length - 1))
    );
  };
  bothHold(
    "sparseArray",
    fc.sparseArray(fc.nat(9), { maxLength: 3 }),
    realFc.sparseArray(realFc.nat(9), { maxLength: 3 }),
    sparse(0, 3, true),
  );
  bothHold(
    "sparseArray with noTrailingHole and element bounds",
    fc.sparseArray(fc.nat(9), { maxLength: 3, minNumElements: 1, maxNumElements: 2, noTrailingHole: true }),
    realFc.sparseArray(realFc.nat(9), { maxLength: 3, minNumElements: 1, maxNumElements: 2, noTrailingHole: true }),
    sparse(1, 2, false),
  );
  assert.ok(
    ours<number[]>(fc.sparseArray(fc.nat(9), { maxLength: 3 })).some((xs) => Object.keys(xs).length < xs.length),
    "sparseArray leaves holes",
  );
  // Pinned from bench:migration (fp-ts-std's URL tests call these; they were missing).
  const PCHARS = "(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|%[0-9A-F]{2})";
  for (const [name, pattern] of [
    ["webPath", `^(?:/${PCHARS}*)*$`],
    ["webSegment", `^${PCHARS}*$`],
    ["webQueryParameters", `^(?:${PCHARS}|[/?])*$`],
    ["webFragments", `^(?:${PCHARS}|[/?])*$`],
  ] as const) {
    const re = new RegExp(pattern);
    bothHold(
      name,
      (fc as never as Record<string, () => unknown>)[name]!(),
      (realFc as never as Record<string, () => unknown>)[name]!(),
      (s: string) => re.test(s),
    );
  }
  bothHold("lorem", fc.lorem(), realFc.lorem(), (s: string) => /^[a-z]+( [a-z]+)*$/.test(s));
  bothHold(
    "lorem sentences",
    fc.lorem({ mode: "sentences", maxCount: 2 }),
    realFc.lorem({ mode: "sentences", maxCount: 2 }),
    (s: string) => /^[A-Z][a-z]*[ a-z,]*\.( [A-Z][ a-z,]*\.)*$/.test(s),
  );
  bothHold(
    "shuffledSubarray",
    fc.shuffledSubarray(base, { minLength: 4 }),
    realFc.shuffledSubarray(base, { minLength: 4 }),
    (xs: number[]) => [...xs].sort().join() === "1,2,3,4",
  );
  bothHold(
    "uint8Array",
    fc.uint8Array({ maxLength: 4 }),
    realFc.uint8Array({ maxLength: 4 }),
    (a: Uint8Array) => a instanceof Uint8Array && a.length <= 4,
  );
  bothHold(
    "int16Array({ min, max })",
    fc.int16Array({ min: -2, max: 2 }),
    realFc.int16Array({ min: -2, max: 2 }),
    (a: Int16Array) => a instanceof Int16Array && a.every((x) => x >= -2 && x <= 2),
  );
  bothHold(
    "float32Array({ noNaN })",
    fc.float32Array({ noNaN: true }),
    realFc.float32Array({ noNaN: true }),
    (a: Float32Array) => a instanceof Float32Array && !a.some(Number.isNaN),
  );
  bothHold(
    "bigUint64Array",
    fc.bigUint64Array(),
    realFc.bigUint64Array(),
    (a: BigUint64Array) => a instanceof BigUint64Array,
  );
});

test("choices keep fast-check's weights, nil and first alternative", () => {
  bothHold(
    "constantFrom",
    fc.constantFrom("a", "b"),
    realFc.constantFrom("a", "b"),
    (v: string) => v === "a" || v === "b",
  );
  bothHold(
    "oneof weighted",
    fc.oneof({ arbitrary: fc.constant(1), weight: 0 }, fc.constant(2)),
    realFc.oneof({ arbitrary: realFc.constant(1), weight: 0 }, realFc.constant(2)),
    (v: number) => v === 2,
  );
  // (Paired with a number: a run never draws one input twice, so nil alone would show once.)
  const options = ours<[number | null, number]>(fc.tuple(fc.option(fc.nat()), fc.nat()), 1000).map(([o]) => o);
  const nils = options.filter((v) => v === null).length;
  assert.ok(nils > 80 && nils < 300, `about one in six is null (freq 6), got ${nils} of 1000`);
  assert.equal(options[0], null, "the simplest option is nil");
  assert.ok(ours<unknown>(fc.option(fc.nat(), { nil: undefined, freq: 2 })).includes(undefined));
  const c = fc.constant({ k: 1 });
  const drawn = ours<object>(c, 3);
  assert.ok(
    drawn.every((v) => v === drawn[0]),
    "fc.constant gives the same reference, as fast-check's",
  );
  const clones = ours<number[][]>(fc.clone(fc.array(fc.nat()), 3));
  assert.ok(
    clones.every(
      ([a, b, x]) =>
        a !== b && b !== x && JSON.stringify(a) === JSON.stringify(b) && JSON.stringify(b) === JSON.stringify(x),
    ),
  );
});

test("domain values are valid by the checks fast-check's pass", () => {
  bothHold(
    "date({ noInvalidDate })",
    fc.date({ noInvalidDate: true }),
    realFc.date({ noInvalidDate: true }),
    (d: Date) => d instanceof Date && !Number.isNaN(d.getTime()),
  );
  const min = new Date("2020-01-01T00:00:00.000Z");
  const max = new Date("2020-12-31T00:00:00.000Z");
  bothHold(
    "date({ min, max })",
    fc.date({ min, max, noInvalidDate: true }),
    realFc.date({ min, max, noInvalidDate: true }),
    (d: Date) => d >= min && d <= max,
  );
  assert.ok(
    ours<Date>(fc.date(), 1000).some((d) => Number.isNaN(d.getTime())),
    "an invalid Date now and then by default, as fast-check 4's",
  );
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  bothHold(
    "uuid({ version: 4 })",
    fc.uuid({ version: 4 }),
    realFc.uuid({ version: 4 }),
    (s: string) => UUID.test(s) && s[14] === "4",
  );
  bothHold("ipV4", fc.ipV4(), realFc.ipV4(), (s: string) => net.isIPv4(s));
  bothHold("ipV6", fc.ipV6(), realFc.ipV6(), (s: string) => net.isIPv6(s));
  bothHold("emailAddress", fc.emailAddress(), realFc.emailAddress(), (s: string) => /^[^@]+@[^@]+$/.test(s));
  bothHold("webUrl", fc.webUrl(), realFc.webUrl(), (s: string) => URL.canParse(s));
  bothHold("domain", fc.domain(), realFc.domain(), (s: string) => URL.canParse(`https://${s}/`));
  bothHold("json", fc.json(), realFc.json(), (s: string) => JSON.stringify(JSON.parse(s)) === s);
  bothHold(
    "jsonValue",
    fc.jsonValue(),
    realFc.jsonValue(),
    (v: unknown) => JSON.stringify(JSON.parse(JSON.stringify(v) ?? "null")) !== undefined,
  );
  bothHold(
    "object",
    fc.object(),
    realFc.object(),
    (o: unknown) => typeof o === "object" && o !== null && !Array.isArray(o),
  );
  fc.assert(
    fc.property(fc.func<[number], number>(fc.nat()), (g) => g(1) === g(1) && typeof g(2) === "number"),
    { numRuns: 20 },
  );
});

test("recursive arbitraries stay small, as fast-check's depth bias keeps them", () => {
  type Tree = number | [Tree, Tree];
  const { tree } = fc.letrec<{ tree: Tree; node: [Tree, Tree]; leaf: number }>((tie) => ({
    tree: fc.oneof(tie("leaf"), tie("node")) as never,
    node: fc.tuple(tie("tree"), tie("tree")) as never,
    leaf: fc.nat() as never,
  }));
  const size = (t: Tree): number => (typeof t === "number" ? 1 : size(t[0]) + size(t[1]));
  const sizes = ours<Tree>(tree, 500).map(size);
  assert.ok(Math.max(...sizes) < 200, `largest tree ${Math.max(...sizes)} leaves`);
  assert.ok(
    sizes.some((n) => n > 2),
    "trees grow past one node",
  );
  type Nested = 0 | [number, Nested];
  const nested: (n?: number) => InstanceType<typeof fc.Arbitrary<Nested>> = fc.memo((n) =>
    n <= 1 ? fc.constant(0 as const) : (fc.oneof(fc.constant(0 as const), fc.tuple(fc.nat(), nested())) as never),
  );
  const deepest = (v: Nested): number => (v === 0 ? 0 : 1 + deepest(v[1]));
  assert.ok(
    Math.max(...ours<Nested>(nested(3)).map(deepest)) <= 2,
    "a memo called without a depth builds the one below",
  );
  assert.throws(() => fc.sample(fc.letrec((t) => ({ a: t("b") })).a, 1), /tie\("b"\) names no arbitrary/);
});

test("fc arbitraries and st strategies mix, and .map / .filter / .chain are fast-check's", () => {
  const mixed = ours<[number, string]>(fc.tuple(st.integers({ min: 0, max: 3 }) as never, fc.string()));
  assert.ok(mixed.every(([n, s]) => n >= 0 && n <= 3 && typeof s === "string"));
  const chained = ours<number[]>(fc.nat(4).chain((n) => fc.array(fc.constant(n), { minLength: n, maxLength: n })));
  assert.ok(chained.every((xs) => xs.every((x) => x === xs.length)));
  assert.ok(
    ours<number>(
      fc
        .nat()
        .filter((n) => n % 2 === 0)
        .map((n) => n + 1),
    ).every((n) => n % 2 === 1),
  );
  assert.ok(fc.nat().noShrink().noBias() instanceof fc.Arbitrary);
});

test("bad constraints and hand-written arbitraries throw InvalidArgument naming the call", () => {
  assert.throws(
    () => fc.integer({ minimum: 0 } as never),
    (e: unknown) => e instanceof InvalidArgument && /fc\.integer: unknown constraint "minimum"/.test(e.message),
  );
  assert.throws(() => fc.string({ unit: "emoji" } as never), /fc\.string: unit must be one of/);
  assert.throws(() => fc.array(5 as never), /fc\.array: the element arbitrary must be an arbitrary/);
  assert.throws(() => fc.record({ a: fc.nat() }, { requiredKeys: ["b" as never] }), /requiredKeys names "b"/);
  assert.throws(() => fc.oneof(), /fc\.oneof: give at least one arbitrary/);
  assert.throws(() => fc.constantFrom(), /fc\.constantFrom: give at least one value/);
  assert.throws(() => fc.option(fc.nat(), { freq: 0 }), /freq must be a positive integer/);
  class Mine extends fc.Arbitrary<number> {
    generate(): never {
      throw new Error("never run");
    }
    shrink(): never {
      throw new Error("never run");
    }
  }
  assert.throws(
    () => new Mine(),
    (e: unknown) =>
      e instanceof InvalidArgument &&
      /Mine brings its own generate\(\) and shrink\(\)/.test(e.message) &&
      /st\.composite/.test(e.message),
  );
  assert.throws(() => new fc.Arbitrary(), /made by the fc\.\* functions/);
});

test("streams and comparators draw as the predicate reads them, and shrink like any other choice", () => {
  const f = failure(() =>
    fc.assert(
      fc.property(fc.infiniteStream(fc.nat(9)), (s) => {
        const first = [...s.take(3)];
        return first.every((v) => v < 5);
      }),
    ),
  );
  assert.match(f.message, /Minimal failing arguments/);
  const lazy = fc.check(
    fc.property(fc.infiniteStream(fc.boolean()), (s) => {
      for (let i = 0; i < 20; i++) s.next();
      return s
        .map((b) => (b ? 1 : 0))
        .take(2)
        .every((n) => n === 0 || n === 1);
    }),
  );
  assert.equal((lazy as { failed: boolean }).failed, false, "a stream reads as far as it is read");
  fc.assert(
    fc.property(
      fc.array(fc.integer()),
      fc.compareBooleanFunc<number>(),
      fc.compareFunc<number>(),
      (xs, before, cmp) => {
        // Each is a strict order of its own: irreflexive, antisymmetric, and sorting by it is stable under a re-sort.
        for (const a of xs) assert.equal(before(a, a), false);
        for (const a of xs) for (const b of xs) assert.ok(!(before(a, b) && before(b, a)));
        const sorted = [...xs].sort(cmp);
        assert.deepEqual([...sorted].sort(cmp), sorted);
      },
    ),
  );
  assert.equal(fc.noShrink(fc.nat()) instanceof fc.Arbitrary, true);
  assert.equal(fc.noBias(st.integers() as never) instanceof fc.Arbitrary, true);
});
