// The laws every strategy keeps, as one suite a strategy's test file calls with its own oracle: a user relies on
// each (valid values, the same values for the same seed, the documented simplest value, shrinking that never makes
// a case bigger, printed literals that paste back, replay from the database, boundaries that show up, bad options
// named). What each law means is in its test's name.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  check,
  find,
  property,
  toLiteral,
  InMemoryDatabase,
  InvalidArgument,
  PropertyFailure,
} from "../../../src/engine/index.ts";
import type { EngineEvent, Strategy } from "../../../src/engine/index.ts";

export interface StrategyLaws<T> {
  /** How the suite names the strategy, e.g. `st.dates()`. */
  name: string;
  strategy: Strategy<T>;
  /** The independent oracle: true, or a string saying what is wrong with the value. */
  valid: (value: T) => true | string;
  /** What find(strategy, () => true) gives (compared with assert.deepStrictEqual). */
  simplest: T;
  /** Values the generator must favour: each must turn up within the first 1,000 draws of seed 1. */
  boundaries?: Record<string, (value: T) => boolean>;
  /** Constructions that must throw InvalidArgument with a message matching the pattern. */
  badOptions?: [make: () => unknown, message: RegExp][];
  /** Seeds for the validity law (default 10) and examples per seed (default 1,000). */
  seeds?: number;
  examples?: number;
}

const QUIET = {
  database: null,
  deadline: null,
  suppressHealthCheck: ["filterTooMuch", "tooSlow", "dataTooLarge"],
} as const;

/** An invalid Date, as `comparable` writes it: one value, where two `new Date(NaN)` are never deep-equal. */
class InvalidDate {}

/**
 * `v` with every invalid Date replaced by an InvalidDate, else the same structure (holes, prototypes, own
 * "__proto__" keys, Map and Set entries kept): Node 20's deepStrictEqual compares Dates' times with !==, so two
 * `new Date(NaN)` are unequal there, and the print law would fail on a value that evaluates back exactly.
 */
export function comparable(v: unknown, seen = new Map<object, unknown>()): unknown {
  if (v === null || typeof v !== "object") return v;
  if (seen.has(v)) return seen.get(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? new InvalidDate() : v;
  if (ArrayBuffer.isView(v)) return v;
  if (v instanceof Map) {
    const out = new Map();
    seen.set(v, out);
    for (const [k, x] of v) out.set(comparable(k, seen), comparable(x, seen));
    return out;
  }
  if (v instanceof Set) {
    const out = new Set();
    seen.set(v, out);
    for (const x of v) out.add(comparable(x, seen));
    return out;
  }
  const out: object = Array.isArray(v) ? new Array(v.length) : Object.create(Object.getPrototypeOf(v));
  seen.set(v, out);
  for (const k of Object.keys(v))
    Object.defineProperty(out, k, {
      value: comparable((v as Record<string, unknown>)[k], seen),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return out;
}

/** The values a run with `seed` generates, in order. */
export function valuesOf<T>(strategy: Strategy<T>, seed: number, examples = 1000): T[] {
  const values: T[] = [];
  check(
    property(strategy, (v) => {
      values.push(v);
    }),
    { ...QUIET, seed, maxExamples: examples },
  );
  return values;
}

/** A cheap, well-spread hash of a value's printed form: which values a law's property fails on. */
function hashOf(value: unknown): number {
  const s = toLiteral(value);
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

function shortlex(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

export function strategyLaws<T>(laws: StrategyLaws<T>): void {
  const { name, strategy, valid } = laws;
  const seeds = laws.seeds ?? 10;
  const examples = laws.examples ?? 1000;

  test(`${name}: ${examples} values on each of ${seeds} seeds are valid by the oracle, and print as literals that evaluate back deep-equal`, () => {
    for (let seed = 1; seed <= seeds; seed++) {
      for (const v of valuesOf(strategy, seed, examples)) {
        const verdict = valid(v);
        assert.equal(verdict, true, `seed ${seed}: ${toLiteral(v)}: ${verdict}`);
        const printed = toLiteral(v);
        assert.deepStrictEqual(comparable((0, eval)(`(${printed})`)), comparable(v), printed);
      }
    }
  });

  test(`${name}: the same seed gives the same values`, () => {
    assert.deepStrictEqual(valuesOf(strategy, 7, 200).map(toLiteral), valuesOf(strategy, 7, 200).map(toLiteral));
  });

  test(`${name}: the simplest value is ${toLiteral(laws.simplest)}`, () => {
    assert.deepStrictEqual(
      find(strategy, () => true, QUIET),
      laws.simplest,
    );
  });

  test(`${name}: shrinking ends on a valid value no bigger than the first failure, and the database replays it`, () => {
    for (let seed = 1; seed <= 5; seed++) {
      const fails = (v: T) => hashOf(v) % 3 === 0;
      let first: number[] | undefined;
      let last: number[] | undefined;
      const onEvent = (e: EngineEvent) => {
        if (e.type === "test-case" && e.status === "interesting" && first === undefined)
          first = e.choices.map((c) => c.index);
        if (e.type === "shrink-target") last = e.choices.map((c) => c.index);
      };
      const database = new InMemoryDatabase();
      const settings = { ...QUIET, database, seed, maxExamples: 300, key: `${name} laws` };
      const failure = catchFailure(() =>
        check(
          property(strategy, (v) => assert.ok(!fails(v))),
          { ...settings, onEvent },
        ),
      );
      if (failure === undefined) continue; // no value on this seed hashed to a failure
      assert.ok(first !== undefined, "the run reported its first failing case");
      assert.ok(shortlex(last ?? first, first) <= 0, `seed ${seed}: shrinking ended bigger than it started`);
      const minimal = failure.args[0] as T;
      assert.equal(valid(minimal), true, `seed ${seed}: the minimal example ${toLiteral(minimal)} is not valid`);
      const replayed = catchFailure(() =>
        check(
          property(strategy, (v) => assert.ok(!fails(v))),
          { ...settings, seed: seed + 1000, phases: ["reuse"] },
        ),
      );
      assert.ok(replayed !== undefined, `seed ${seed}: the saved failure did not replay`);
      assert.deepStrictEqual(replayed.args[0], minimal, `seed ${seed}: the database replayed another value`);
    }
  });

  const boundaries = Object.entries(laws.boundaries ?? {});
  if (boundaries.length > 0) {
    test(`${name}: within 1,000 draws it generates ${boundaries.map(([b]) => b).join(", ")}`, () => {
      const values = valuesOf(strategy, 1, 1000);
      const missing = boundaries.filter(([, is]) => !values.some(is)).map(([b]) => b);
      assert.deepEqual(missing, [], `never generated in ${values.length} values`);
    });
  }

  if (laws.badOptions !== undefined) {
    test(`${name}: bad options throw InvalidArgument naming the call and the option`, () => {
      for (const [make, message] of laws.badOptions ?? []) {
        assert.throws(make, (e: unknown) => e instanceof InvalidArgument && message.test(e.message), String(message));
      }
    });
  }
}

function catchFailure(run: () => void): PropertyFailure | undefined {
  try {
    run();
    return undefined;
  } catch (e) {
    if (e instanceof PropertyFailure) return e;
    throw e;
  }
}
