/**
 * st.sets: `Set`s of distinct elements (SameValueZero, as a Set compares), drawn as uniqueEntries.ts draws every
 * collection of distinct keys, so a set has one choice sequence and a small space of sets is exhausted.
 */
import type { TestCase } from "../core/testCase.ts";
import { requireStrategy, Strategy } from "./strategy.ts";
import { checkFillable, checkOptions, checkSizes } from "./options.ts";
import { drawEntries, EntrySizes } from "./uniqueEntries.ts";
import type { EntryParts } from "./uniqueEntries.ts";

/** Options of {@link sets} and {@link maps}: how many elements (entries). */
export interface SetsOptions {
  /** At least this many elements (default 0). */
  minSize?: number;
  /** At most this many elements (default 2^31 − 1). */
  maxSize?: number;
}

class SetElements<T> implements EntryParts<T, T> {
  readonly api = "st.sets";
  constructor(private readonly elements: Strategy<T>) {}
  drawKey(tc: TestCase): T {
    return this.elements.draw(tc);
  }
  drawEntry(_tc: TestCase, key: T): T {
    return key;
  }
  identity(key: T): unknown {
    return key;
  }
}

class Sets<T> extends Strategy<Set<T>> {
  constructor(
    private readonly parts: SetElements<T>,
    private readonly sizes: EntrySizes,
  ) {
    super("set");
  }
  protected doDraw(tc: TestCase): Set<T> {
    const out = new Set<T>();
    drawEntries(tc, this.parts, this.sizes, (x) => out.add(x));
    return out;
  }
}

/**
 * `Set`s of values from `elements`, no two the same by SameValueZero (as a `Set` compares: NaN equals NaN, 0
 * equals −0). Shrinks by deleting elements, then simplifying them; the simplest is the empty set. The elements
 * are inserted in the order of their choices (the simplest first), so a minimal set prints in that order.
 *
 * @example
 * // A set of at most three small integers: new Set(), new Set([0, 1, -1]), new Set([4]), …
 * const small = st.sets(st.integers({ min: -9, max: 9 }), { maxSize: 3 });
 */
export function sets<T>(elements: Strategy<T>, options?: SetsOptions): Strategy<Set<T>> {
  const api = "st.sets";
  requireStrategy(api, elements, "elements");
  const o = checkOptions(api, options, ["minSize", "maxSize"]);
  const { minSize, maxSize } = checkSizes(api, o.minSize, o.maxSize);
  checkFillable(api, "elements", elements, minSize);
  return new Sets(new SetElements(elements), new EntrySizes(minSize, maxSize));
}
