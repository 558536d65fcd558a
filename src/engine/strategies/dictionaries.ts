/**
 * st.dictionaries: plain objects with string keys, drawn as uniqueEntries.ts draws every collection of distinct
 * keys. The keys that break code that copies or merges objects — `"__proto__"` (assigning it sets the prototype
 * instead), `"constructor"`, `""`, keys that differ only by case — are suggested to the key strategy now and then,
 * and every key is an own data property (`"__proto__"` too: defined, never assigned).
 */
import type { ChoiceValue } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import type { Random } from "../util/random.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, requireStrategy, Strategy } from "./strategy.ts";
import { checkFillable, checkOptions, checkSizes } from "./options.ts";
import { drawEntries, EntrySizes } from "./uniqueEntries.ts";
import { MapEntries } from "./maps.ts";

/** Options of {@link dictionaries}: how many keys. */
export interface DictionariesOptions {
  /** At least this many keys (default 0). */
  minSize?: number;
  /** At most this many keys (default 2^31 − 1). */
  maxSize?: number;
}

/** Keys that object code mishandles: the prototype's own names, and the empty key. */
const SPECIAL_KEYS: readonly string[] = ["__proto__", "constructor", "", "prototype", "toString", "hasOwnProperty"];

/** A map's entries whose keys must be strings, offered the special keys and case variants while generating. */
class DictionaryEntries<V> extends MapEntries<string, V> {
  override readonly api = "st.dictionaries";
  override drawKey(tc: TestCase): string {
    const key = super.drawKey(tc);
    if (typeof key !== "string") invalid(this.api, `keys must draw strings, the key strategy drew ${describe(key)}`);
    return key;
  }
  /** One key in 8 a special key, one in 16 an earlier key with its case changed (when that changes it). */
  suggest(random: Random, keys: readonly string[]): ChoiceValue | null {
    const roll = random.uint32();
    if ((roll & 7) === 0) return SPECIAL_KEYS[(roll >>> 8) % SPECIAL_KEYS.length];
    if ((roll & 15) === 1 && keys.length > 0) {
      const key = keys[(roll >>> 8) % keys.length];
      const upper = key.toUpperCase();
      const variant = upper !== key ? upper : key.toLowerCase();
      if (variant !== key) return variant;
    }
    return null;
  }
}

class Dictionaries<V> extends Strategy<Record<string, V>> {
  constructor(
    private readonly parts: DictionaryEntries<V>,
    private readonly sizes: EntrySizes,
  ) {
    super("dictionary");
  }
  protected doDraw(tc: TestCase): Record<string, V> {
    const out: Record<string, V> = {};
    drawEntries(tc, this.parts, this.sizes, (k, v) => {
      if (k === "__proto__")
        Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
      else out[k] = v;
    });
    return out;
  }
}

/**
 * Plain objects whose own keys are drawn by `keys` (strings, all different) and whose values are drawn by
 * `values`. Every key is an own enumerable data property, `"__proto__"` included (defined, so it never sets the
 * prototype). Shrinks by deleting keys, then simplifying keys and values; the simplest is `{}`. While
 * generating, the key strategy is offered `"__proto__"`, `"constructor"`, `""` and other special keys, and
 * case variants of the keys drawn so far, now and then.
 *
 * @example
 * // {}, { "": 0 }, { a: 1, A: -2 }, { ["__proto__"]: 0 }, …
 * const headers = st.dictionaries(st.text(), st.integers(), { maxSize: 5 });
 */
export function dictionaries<V>(
  keys: Strategy<string>,
  values: Strategy<V>,
  options?: DictionariesOptions,
): Strategy<Record<string, V>> {
  const api = "st.dictionaries";
  requireStrategy(api, keys, "keys");
  requireStrategy(api, values, "values");
  const o = checkOptions(api, options, ["minSize", "maxSize"]);
  const { minSize, maxSize } = checkSizes(api, o.minSize, o.maxSize);
  checkFillable(api, "keys", keys, minSize);
  return new Dictionaries(new DictionaryEntries(keys, values), new EntrySizes(minSize, maxSize));
}
