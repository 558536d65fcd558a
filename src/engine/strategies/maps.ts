/**
 * st.maps: `Map`s with distinct keys (SameValueZero, as a Map compares), drawn as uniqueEntries.ts draws every
 * collection of distinct keys: each entry's key, then its value, in the order of the keys' choices.
 */
import type { TestCase } from "../core/testCase.ts";
import { requireStrategy, Strategy } from "./strategy.ts";
import { checkFillable, checkOptions, checkSizes } from "./options.ts";
import type { SetsOptions } from "./sets.ts";
import { drawEntries, EntrySizes } from "./uniqueEntries.ts";
import type { EntryParts } from "./uniqueEntries.ts";

/** Options of {@link maps}: how many entries. */
export type MapsOptions = SetsOptions;

/** A map's entries: each key, then its value. */
export class MapEntries<K, V> implements EntryParts<K, V> {
  readonly api: string = "st.maps";
  constructor(
    protected readonly keys: Strategy<K>,
    protected readonly values: Strategy<V>,
  ) {}
  drawKey(tc: TestCase): K {
    return this.keys.draw(tc);
  }
  drawEntry(tc: TestCase): V {
    return this.values.draw(tc);
  }
  identity(key: K): unknown {
    return key;
  }
}

class Maps<K, V> extends Strategy<Map<K, V>> {
  constructor(
    private readonly parts: MapEntries<K, V>,
    private readonly sizes: EntrySizes,
  ) {
    super("map");
  }
  protected doDraw(tc: TestCase): Map<K, V> {
    const out = new Map<K, V>();
    drawEntries(tc, this.parts, this.sizes, (k, v) => out.set(k, v));
    return out;
  }
}

/**
 * `Map`s from keys drawn by `keys` to values drawn by `values`, no two keys the same by SameValueZero (as a `Map`
 * compares). Shrinks by deleting entries, then simplifying keys and values; the simplest is the empty map.
 *
 * @example
 * // new Map(), new Map([["a", 1]]), new Map([["", 0], ["b", -3]]), …
 * const counts = st.maps(st.text({ alphabet: "abc" }), st.integers());
 */
export function maps<K, V>(keys: Strategy<K>, values: Strategy<V>, options?: MapsOptions): Strategy<Map<K, V>> {
  const api = "st.maps";
  requireStrategy(api, keys, "keys");
  requireStrategy(api, values, "values");
  const o = checkOptions(api, options, ["minSize", "maxSize"]);
  const { minSize, maxSize } = checkSizes(api, o.minSize, o.maxSize);
  checkFillable(api, "keys", keys, minSize);
  return new Maps(new MapEntries(keys, values), new EntrySizes(minSize, maxSize));
}
