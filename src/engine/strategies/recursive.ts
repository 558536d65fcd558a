/** st.recursive: recursive structures from a base case and an extension, with a bounded number of leaves. */
import type { IntegerConstraints } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, requireStrategy, Strategy } from "./strategy.ts";
import { Deferred } from "./deferred.ts";
import { checkOptions, guard } from "./options.ts";

export interface RecursiveOptions {
  /** At most this many base values in one top-level value (default 50): bounds size and recursion depth. */
  maxLeaves?: number;
}

const CHOOSE_BRANCH: IntegerConstraints = { min: 0, max: 1, shrinkTowards: 0 };

/**
 * Recursive structures: `extend` receives the strategy itself and builds one level on top. Each node chooses
 * base (0) or extend (1), so shrinking walks toward the base; once `maxLeaves` base values are drawn in one
 * top-level value, the choice is forced to base and the structure closes.
 */
class Recursive<T> extends Strategy<T> {
  private readonly extended: Strategy<T>;
  private depth = 0;
  constructor(
    private readonly base: Strategy<T>,
    extend: (self: Strategy<T>) => Strategy<T>,
    private readonly maxLeaves: number,
  ) {
    super("recursive");
    const self = new Deferred<T>(() => this);
    this.extended = guard("st.recursive", "extend", () => extend(self));
    requireStrategy("st.recursive", this.extended, "extend's result");
  }
  protected doDraw(tc: TestCase): T {
    const top = this.depth === 0;
    if (top) tc.recursionLeaves = 0;
    this.depth++;
    try {
      const full = tc.recursionLeaves >= this.maxLeaves;
      const which = full ? tc.draw("integer", CHOOSE_BRANCH, 0) : tc.draw("integer", CHOOSE_BRANCH);
      if (which === 0) {
        tc.recursionLeaves++;
        return this.base.draw(tc);
      }
      return this.extended.draw(tc);
    } finally {
      this.depth--;
    }
  }
}

export function recursive<T>(
  base: Strategy<T>,
  extend: (self: Strategy<T>) => Strategy<T>,
  options?: RecursiveOptions,
): Strategy<T> {
  const api = "st.recursive";
  requireStrategy(api, base, "base");
  if (typeof extend !== "function") invalid(api, `extend must be a function, got ${describe(extend)}`);
  const maxLeaves = checkOptions(api, options, ["maxLeaves"]).maxLeaves ?? 50;
  if (!Number.isInteger(maxLeaves) || maxLeaves < 1)
    invalid(api, `maxLeaves must be a positive integer, got ${describe(maxLeaves)}`);
  return new Recursive(base, extend, maxLeaves);
}
