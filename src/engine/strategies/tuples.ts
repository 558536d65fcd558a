/** st.tuples: fixed-length arrays, one value from each strategy, each in a span of its own. */
import type { TestCase } from "../core/testCase.ts";
import { requireStrategy, Strategy } from "./strategy.ts";
import type { ValueOfStrategy } from "./strategy.ts";

class Tuples<T extends unknown[]> extends Strategy<T> {
  constructor(private readonly parts: readonly Strategy<unknown>[]) {
    super("tuple");
  }
  override draw(tc: TestCase): T {
    tc.startSpan("tuple");
    const v = this.doDraw(tc);
    tc.endSpan();
    return v;
  }
  protected doDraw(tc: TestCase): T {
    const out = new Array(this.parts.length);
    for (let i = 0; i < this.parts.length; i++) out[i] = this.parts[i].draw(tc);
    return out as T;
  }
}

/** Fixed-length arrays, one value from each strategy: st.tuples(st.integers(), st.text()) gives [number, string]. */
export function tuples<const S extends readonly Strategy<unknown>[]>(
  ...parts: S
): Strategy<{ -readonly [K in keyof S]: ValueOfStrategy<S[K]> }> {
  parts.forEach((s, i) => requireStrategy("st.tuples", s, `argument ${i}`));
  return new Tuples(parts);
}
