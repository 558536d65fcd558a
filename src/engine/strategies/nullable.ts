/**
 * st.nullable and st.optional: a value or its absence (null, undefined), chosen by one boolean before the
 * value. The boolean's simplest value, false, is the absence, so a failure that does not need the value
 * shrinks to null or undefined, and one that does keeps the value and shrinks it.
 */
import type { BooleanConstraints } from "../choice/types.ts";
import type { TestCase } from "../core/testCase.ts";
import { requireStrategy, Strategy } from "./strategy.ts";

/** How often a value is present while generating: absence is one value, presence all the others. */
const PRESENT: BooleanConstraints = { p: 0.8 };

class OrAbsent<T, A extends null | undefined> extends Strategy<T | A> {
  constructor(
    private readonly inner: Strategy<T>,
    private readonly absent: A,
  ) {
    super("nullable");
  }
  protected doDraw(tc: TestCase): T | A {
    return tc.drawBoolean(PRESENT) ? this.inner.draw(tc) : this.absent;
  }
}

/**
 * `T | null`: a value from `strategy`, or null; shrinks to null.
 * @example st.nullable(st.integers()) // Strategy<number | null>
 */
export function nullable<T>(strategy: Strategy<T>): Strategy<T | null> {
  requireStrategy("st.nullable", strategy, "strategy");
  return new OrAbsent(strategy, null);
}

/**
 * `T | undefined`: a value from `strategy`, or undefined; shrinks to undefined.
 * @example st.optional(st.text()) // Strategy<string | undefined>
 */
export function optional<T>(strategy: Strategy<T>): Strategy<T | undefined> {
  requireStrategy("st.optional", strategy, "strategy");
  return new OrAbsent(strategy, undefined);
}
