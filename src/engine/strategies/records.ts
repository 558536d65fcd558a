/**
 * st.records: objects with a fixed set of keys, a value from each key's strategy; with `optional`, keys that are
 * each present or absent (a "present?" boolean, absent being the simplest), never present holding `undefined`.
 */
import type { BooleanConstraints } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, requireStrategy, Strategy } from "./strategy.ts";
import type { ValueOfStrategy } from "./strategy.ts";
import { checkOptions, guard } from "./options.ts";

/** The options of {@link records}. */
export interface RecordsOptions<O extends Record<string, Strategy<unknown>>> {
  /**
   * A second shape: each of its keys is absent or present with a value from its strategy (absent is the
   * simplest). An absent key is not a key of the object at all: `"note" in r` is false, never `note: undefined`.
   */
  optional?: O;
}

/** A mapped type written out as one object type, so `{ id: number } & { note?: string }` shows as `{ id: number; note?: string }`. */
type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** The value of `st.records(shape, { optional })`: the shape's keys, and the optional shape's keys marked `?`. */
export type RecordValue<S, O> = Flatten<
  { [K in keyof S]: ValueOfStrategy<S[K]> } & { [K in Exclude<keyof O, keyof S>]?: ValueOfStrategy<O[K]> }
>;

/** Whether an optional key is present: as likely as not, absent the simplest. */
const PRESENT: BooleanConstraints = { p: 0.5 };

type Shape = { keys: (string | symbol)[]; strategies: Strategy<unknown>[] };

/** Define `key` on `out` as an own data property (`__proto__` too: assigning it would replace the prototype). */
function defineField(out: Record<string | symbol, unknown>, key: string | symbol, value: unknown, define: boolean) {
  if (define) Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

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
    for (let i = 0; i < this.keys.length; i++)
      defineField(out, this.keys[i], this.strategies[i].draw(tc), this.protoKey);
    return out as T;
  }
}

/** A record with optional keys: the required fields as Records draws them, then each optional key's "present?" and value. */
class RecordsWithOptional<T> extends Records<T> {
  private readonly optionalProtoKey: boolean;
  constructor(
    keys: readonly (string | symbol)[],
    strategies: readonly Strategy<unknown>[],
    private readonly optionalKeys: readonly (string | symbol)[],
    private readonly optionalStrategies: readonly Strategy<unknown>[],
  ) {
    super(keys, strategies);
    this.optionalProtoKey = optionalKeys.includes("__proto__");
  }
  protected override doDraw(tc: TestCase): T {
    const out = super.doDraw(tc) as Record<string | symbol, unknown>;
    for (let i = 0; i < this.optionalKeys.length; i++) {
      // One span per optional key: deleting it (its "present?" and value) leaves the key absent.
      tc.startSpan("optional field");
      if (tc.drawBoolean(PRESENT))
        defineField(out, this.optionalKeys[i], this.optionalStrategies[i].draw(tc), this.optionalProtoKey);
      tc.endSpan();
    }
    return out as T;
  }
}

/** The shape's own enumerable keys and their strategies, read once (a getter that throws is the call's misuse). */
function readShape(api: string, shape: unknown, what: string): Shape {
  return guard(api, `reading the ${what}`, () => {
    if (typeof shape !== "object" || shape === null || Array.isArray(shape) || shape instanceof Strategy)
      invalid(
        api,
        `${what === "shape" ? "expects" : `${what} must be`} an object of strategies, got ${describe(shape)}`,
      );
    const keys = Reflect.ownKeys(shape).filter((k) => Object.prototype.propertyIsEnumerable.call(shape, k));
    const prefix = what === "shape" ? "" : `${what} `;
    const strategies = keys.map((k) => {
      const s = (shape as Record<string | symbol, unknown>)[k];
      requireStrategy(api, s, `${prefix}key ${typeof k === "symbol" ? String(k) : JSON.stringify(k)}`);
      return s;
    });
    return { keys, strategies };
  });
}

/**
 * Objects with a value from each strategy under its key: st.records({ id: st.integers() }) gives { id: number }.
 * The fields are the shape's own enumerable keys, symbols included, and each is an own data property of every
 * generated object — `__proto__` too (a shape made with JSON.parse or defineProperty can have one).
 *
 * With `optional`, a second shape whose keys are each absent or present: st.records({ id: st.integers() },
 * { optional: { note: st.text() } }) gives { id: number; note?: string }, simplest { id: 0 }. An absent key is
 * absent (`"note" in r` is false), never a key holding `undefined`.
 *
 * @example
 * const user = st.records({ id: st.integers({ min: 1 }), name: st.text() }, { optional: { email: st.text() } });
 * // { id: 1, name: "" }, { id: 7, name: "Ada", email: "a@b" }, …
 */
export function records<S extends Record<string, Strategy<unknown>>>(
  shape: S,
): Strategy<{ [K in keyof S]: ValueOfStrategy<S[K]> }>;
export function records<S extends Record<string, Strategy<unknown>>, O extends Record<string, Strategy<unknown>>>(
  shape: S,
  options: RecordsOptions<O>,
): Strategy<RecordValue<S, O>>;
export function records(
  shape: Record<string, Strategy<unknown>>,
  options?: RecordsOptions<Record<string, Strategy<unknown>>>,
): Strategy<unknown> {
  const api = "st.records";
  // The shape is user data: a getter that throws (or a Proxy trap) is InvalidArgument naming the call, here.
  const { keys, strategies } = readShape(api, shape, "shape");
  const o = checkOptions(api, options, ["optional"]);
  if (o.optional === undefined) return new Records(keys, strategies);
  const optional = readShape(api, o.optional, "optional");
  for (const k of optional.keys) {
    if (keys.includes(k))
      invalid(
        api,
        `key ${typeof k === "symbol" ? String(k) : JSON.stringify(k)} is in both the shape and optional; a key is either always there or optional`,
      );
  }
  return new RecordsWithOptional(keys, strategies, optional.keys, optional.strategies);
}
