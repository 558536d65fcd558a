/** st.records: objects with a fixed set of keys, a value from each key's strategy. */
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, requireStrategy, Strategy } from "./strategy.ts";
import type { ValueOfStrategy } from "./strategy.ts";
import { guard } from "./options.ts";

class Records<T> extends Strategy<T> {
  /** A field named `__proto__`: assigning it would replace the prototype, so each field is defined instead. */
  private readonly protoKey: boolean;
  constructor(
    private readonly keys: readonly (string | symbol)[],
    private readonly strategies: readonly Strategy<unknown>[],
  ) {
    super("record");
    this.protoKey = keys.includes("__proto__");
  }
  override draw(tc: TestCase): T {
    tc.startSpan("record");
    const v = this.doDraw(tc);
    tc.endSpan();
    return v;
  }
  protected doDraw(tc: TestCase): T {
    const out: Record<string | symbol, unknown> = {};
    if (this.protoKey) {
      for (let i = 0; i < this.keys.length; i++) {
        Object.defineProperty(out, this.keys[i], {
          value: this.strategies[i].draw(tc),
          writable: true,
          enumerable: true,
          configurable: true,
        });
      }
    } else {
      for (let i = 0; i < this.keys.length; i++) out[this.keys[i]] = this.strategies[i].draw(tc);
    }
    return out as T;
  }
}

/**
 * Objects with a value from each strategy under its key: st.records({ id: st.integers() }) gives { id: number }.
 * The fields are the shape's own enumerable keys, symbols included, and each is an own data property of every
 * generated object — `__proto__` too (a shape made with JSON.parse or defineProperty can have one).
 */
export function records<S extends Record<string, Strategy<unknown>>>(
  shape: S,
): Strategy<{ [K in keyof S]: ValueOfStrategy<S[K]> }> {
  const api = "st.records";
  // The shape is user data: a getter that throws (or a Proxy trap) is InvalidArgument naming the call, here.
  const { keys, strategies } = guard(api, "reading the shape", () => {
    if (typeof shape !== "object" || shape === null || Array.isArray(shape) || shape instanceof Strategy)
      invalid(api, `expects an object of strategies, got ${describe(shape)}`);
    const keys = Reflect.ownKeys(shape).filter((k) => Object.prototype.propertyIsEnumerable.call(shape, k));
    const strategies = keys.map((k) => {
      const s = (shape as Record<string | symbol, unknown>)[k];
      requireStrategy(api, s, `key ${typeof k === "symbol" ? String(k) : JSON.stringify(k)}`);
      return s;
    });
    return { keys, strategies };
  });
  return new Records(keys, strategies);
}
