/**
 * st.anything: any value a JavaScript function might be given — undefined, null, booleans, numbers (−0, NaN,
 * ±Infinity included), bigints, strings, dates (invalid ones too), arrays (sparse ones too), plain objects,
 * null-prototype objects, objects with an own `"__proto__"`, Maps, Sets and typed arrays, nested up to
 * `maxDepth` containers; each kind past JSON's can be left out (`withMap: false`, …). Composed of the other
 * strategies level by level, as st.json is: a weighted st.oneOf whose first alternative is `undefined`, so
 * everything shrinks toward `undefined`, and whose values print as literals that evaluate back deep-equal.
 */
import { invalid } from "../util/errors.ts";
import { describe, Strategy } from "./strategy.ts";
import { checkBoolean, checkOptions } from "./options.ts";
import { booleans } from "./booleans.ts";
import { floats } from "./floats.ts";
import { integers } from "./integers.ts";
import { bigints } from "./bigints.ts";
import { bytes } from "./bytes.ts";
import { dates } from "./dates.ts";
import { just } from "./just.ts";
import { oneOf } from "./oneOf.ts";
import { lists } from "./lists.ts";
import { dictionaries } from "./dictionaries.ts";
import { maps } from "./maps.ts";
import { sets } from "./sets.ts";
import { jsonStrings } from "./json.ts";

export interface AnythingOptions {
  /** How many containers deep a value may nest (default 3; 0: no containers). */
  maxDepth?: number;
  /** Bigints, and BigInt64Arrays among the typed arrays (default true). */
  withBigInt?: boolean;
  /** Dates, invalid ones too (default true). */
  withDate?: boolean;
  /** Maps (default true). */
  withMap?: boolean;
  /** Sets (default true). */
  withSet?: boolean;
  /** Typed arrays: Uint8Array, Int32Array, Float64Array, BigInt64Array (default true). */
  withTypedArray?: boolean;
  /** Arrays with holes, `[1, , 3]` (default true). */
  withSparseArray?: boolean;
  /** Objects made by `Object.create(null)` (default true). */
  withNullPrototype?: boolean;
}

/** The kinds a flag can leave out, with the option naming each. */
const KINDS = [
  "withBigInt",
  "withDate",
  "withMap",
  "withSet",
  "withTypedArray",
  "withSparseArray",
  "withNullPrototype",
] as const;

/** Where a sparse array has a hole (a value no other alternative draws). */
const HOLE: unique symbol = Symbol("hole");

/** An array with holes where the list drew HOLE: `[1, , 3]`. */
function sparse(items: unknown[]): unknown[] {
  const out = new Array<unknown>(items.length);
  items.forEach((x, i) => {
    if (x !== HOLE) out[i] = x;
  });
  return out;
}

function nullPrototype(o: Record<string, unknown>): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(o))
    Object.defineProperty(out, k, { value: o[k], writable: true, enumerable: true, configurable: true });
  return out;
}

function typedArrays(withBigInt: boolean): Strategy<ArrayBufferView> {
  return oneOf(
    bytes(),
    lists(integers({ min: -(2 ** 31), max: 2 ** 31 - 1 })).map((xs) => Int32Array.from(xs)),
    lists(floats()).map((xs) => Float64Array.from(xs)),
    ...(withBigInt
      ? [lists(bigints({ min: -(2n ** 63n), max: 2n ** 63n - 1n })).map((xs) => BigInt64Array.from(xs))]
      : []),
  );
}

/** The alternatives whose flag is on. */
function kept(
  alternatives: [on: boolean, weight: number, strategy: Strategy<unknown>][],
): [number, Strategy<unknown>][] {
  return alternatives.filter(([on]) => on).map(([, weight, s]) => [weight, s]);
}

/**
 * Any value; shrinks toward `undefined`. Favours −0, NaN, empty containers, holes, `"__proto__"` keys and strings
 * that break naive code. The `with…` options (all true by default) leave a kind out: `withBigInt: false` for code
 * that serializes with JSON.stringify, `withMap: false`, …
 * @example st.anything() // undefined, null, -0, 12n, new Map([[NaN, [, 1]]]), Object.assign(Object.create(null), {}), …
 * @example st.anything({ maxDepth: 1, withBigInt: false, withTypedArray: false }) // undefined, [NaN], { a: new Date(NaN) }, …
 */
export function anything(options?: AnythingOptions): Strategy<unknown> {
  const api = "st.anything";
  const o = checkOptions(api, options, ["maxDepth", ...KINDS]);
  const maxDepth = o.maxDepth ?? 3;
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > 100)
    invalid(api, `maxDepth must be an integer from 0 to 100, got ${describe(o.maxDepth)}`);
  for (const k of KINDS) checkBoolean(api, k, o[k]);
  const on = (k: (typeof KINDS)[number]): boolean => o[k] ?? true;
  const leaf = (): [number, Strategy<unknown>][] =>
    kept([
      [true, 2, just(undefined)],
      [true, 2, just(null)],
      [true, 2, booleans()],
      [true, 3, floats()],
      [on("withBigInt"), 2, bigints()],
      [true, 3, jsonStrings()],
      [on("withDate"), 1, dates({ allowInvalid: true })],
      [on("withTypedArray"), 1, typedArrays(on("withBigInt"))],
    ]);
  let level: Strategy<unknown> = oneOf(...leaf());
  for (let d = 0; d < maxDepth; d++) {
    const inner = level;
    const keys = jsonStrings();
    level = oneOf(
      ...leaf(),
      ...kept([
        [true, 2, lists(inner)],
        [on("withSparseArray"), 1, lists(oneOf([3, inner], [1, just(HOLE)])).map(sparse)],
        [true, 2, dictionaries(keys, inner)],
        [on("withNullPrototype"), 1, dictionaries(keys, inner).map(nullPrototype)],
        [on("withMap"), 1, maps(inner, inner)],
        [on("withSet"), 1, sets(inner)],
      ]),
    );
  }
  return level;
}
