/**
 * st.anything: any value a JavaScript function might be given — undefined, null, booleans, numbers (−0, NaN,
 * ±Infinity included), bigints, strings, dates (invalid ones too), arrays (sparse ones too), plain objects,
 * null-prototype objects, objects with an own `"__proto__"`, Maps, Sets and typed arrays, nested up to
 * `maxDepth` containers. Composed of the other strategies level by level, as st.json is: a weighted st.oneOf
 * whose first alternative is `undefined`, so everything shrinks toward `undefined`, and whose values print as
 * literals that evaluate back deep-equal.
 */
import { invalid } from "../util/errors.ts";
import { describe, Strategy } from "./strategy.ts";
import { checkOptions } from "./options.ts";
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
}

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

function typedArrays(): Strategy<ArrayBufferView> {
  return oneOf(
    bytes(),
    lists(integers({ min: -(2 ** 31), max: 2 ** 31 - 1 })).map((xs) => Int32Array.from(xs)),
    lists(floats()).map((xs) => Float64Array.from(xs)),
    lists(bigints({ min: -(2n ** 63n), max: 2n ** 63n - 1n })).map((xs) => BigInt64Array.from(xs)),
  );
}

/**
 * Any value; shrinks toward `undefined`. Favours −0, NaN, empty containers, holes, `"__proto__"` keys and strings
 * that break naive code.
 * @example st.anything() // undefined, null, -0, 12n, new Map([[NaN, [, 1]]]), Object.assign(Object.create(null), {}), …
 */
export function anything(options?: AnythingOptions): Strategy<unknown> {
  const api = "st.anything";
  const o = checkOptions(api, options, ["maxDepth"]);
  const maxDepth = o.maxDepth ?? 3;
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > 100)
    invalid(api, `maxDepth must be an integer from 0 to 100, got ${describe(o.maxDepth)}`);
  const leaf = (): [number, Strategy<unknown>][] => [
    [2, just(undefined)],
    [2, just(null)],
    [2, booleans()],
    [3, floats()],
    [2, bigints()],
    [3, jsonStrings()],
    [1, dates({ allowInvalid: true })],
    [1, typedArrays()],
  ];
  let level: Strategy<unknown> = oneOf(...leaf());
  for (let d = 0; d < maxDepth; d++) {
    const inner = level;
    const keys = jsonStrings();
    level = oneOf(
      ...leaf(),
      [2, lists(inner)],
      [1, lists(oneOf([3, inner], [1, just(HOLE)])).map(sparse)],
      [2, dictionaries(keys, inner)],
      [1, dictionaries(keys, inner).map(nullPrototype)],
      [1, maps(inner, inner)],
      [1, sets(inner)],
    );
  }
  return level;
}
