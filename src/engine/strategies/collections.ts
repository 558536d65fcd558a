/** Strategies that combine others: lists, tuples, records. */
import type { BooleanConstraints, ChoiceValue } from "../choice/types.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { checkBoolean, checkOptions, describe, guard, requireStrategy, Strategy } from "./strategy.ts";
import type { ValueOfStrategy } from "./strategy.ts";
import { checkSizes } from "./primitives.ts";

export interface ListsOptions<T> {
  minSize?: number;
  maxSize?: number;
  /**
   * No two elements equal, by structure:
   * - primitives by SameValueZero, as a Set compares them: NaN equals NaN, 0 equals −0, and NaN is not null;
   * - arrays element by element (a hole differs from `undefined`); plain objects and class instances by
   *   prototype and own enumerable properties, string and symbol keyed, in any order (a property holding
   *   `undefined` differs from a missing one);
   * - Maps by their entries and Sets by their elements, each compared by structure, in any order;
   * - Dates by time, RegExps by source and flags, typed arrays, DataViews and ArrayBuffers by type and
   *   contents, boxed primitives by value, errors by prototype, message and own enumerable properties;
   * - functions and symbols by identity.
   * A value that contains itself cannot be compared this way: drawing one throws InvalidArgument (use uniqueBy).
   */
  unique?: boolean;
  /** No two elements with the same key (keys compared by SameValueZero, so return a primitive to compare by content). */
  uniqueBy?: (value: T) => unknown;
}

const MORE_FORCED: BooleanConstraints = { p: 0.5 };
/** The "more" flag a small case generates (setReplayQueue: generated, not forced, so shrinking may still change it). */
const NO_MORE: ChoiceValue[] = [false];
const MAX_DUPLICATE_STREAK = 10;

/**
 * Structural keys for `unique`: one string per object, equal exactly when the objects are equal in the sense
 * documented on ListsOptions.unique. Made per list draw: identities (prototypes, functions, symbols) are
 * numbered as they are met, and the shared objects of a DAG are keyed once.
 */
class StructuralKeys {
  private readonly ids = new Map<unknown, number>();
  private readonly memo = new Map<object, string>();
  private readonly onStack = new Set<object>();

  private id(x: unknown): number {
    let n = this.ids.get(x);
    if (n === undefined) this.ids.set(x, (n = this.ids.size));
    return n;
  }

  key(v: unknown): string {
    switch (typeof v) {
      case "undefined":
        return "u";
      case "boolean":
        return v ? "t" : "f";
      case "number":
        // SameValueZero: NaN is one value, and −0 is 0.
        return Number.isNaN(v) ? "N" : `d${v === 0 ? 0 : v}`;
      case "bigint":
        return `b${v}`;
      case "string":
        // Length-prefixed, so no string can pass for the structure around it.
        return `s${v.length}:${v}`;
      case "symbol":
        return `y${this.id(v)}`;
      case "function":
        return `F${this.id(v)}`;
    }
    if (v === null) return "n";
    const o = v as object;
    const known = this.memo.get(o);
    if (known !== undefined) return known;
    if (this.onStack.has(o)) invalid("st.lists", "unique cannot compare a value that contains itself (a cycle); pass uniqueBy with a key of your own");
    this.onStack.add(o);
    let k: string;
    try {
      k = this.objectKey(o);
    } catch (e) {
      if (e instanceof RangeError) invalid("st.lists", "unique cannot compare a value nested this deeply; pass uniqueBy with a key of your own");
      throw e;
    } finally {
      this.onStack.delete(o);
    }
    this.memo.set(o, k);
    return k;
  }

  private objectKey(o: object): string {
    if (Array.isArray(o)) {
      const parts = new Array<string>(o.length);
      for (let i = 0; i < o.length; i++) parts[i] = i in o ? this.key(o[i]) : "_";
      return `[${parts.join(",")}]`;
    }
    if (ArrayBuffer.isView(o)) {
      const bytes = new Uint8Array(o.buffer, o.byteOffset, o.byteLength);
      return `V${this.id(Object.getPrototypeOf(o))}:${bytes.join(",")}`;
    }
    if (o instanceof ArrayBuffer) return `A${bytesKey(new Uint8Array(o))}`;
    if (o instanceof Map) {
      const entries: string[] = [];
      for (const [k, x] of o) entries.push(`${this.key(k)}>${this.key(x)}`);
      return `M${this.id(Object.getPrototypeOf(o))}{${entries.sort().join(",")}}`;
    }
    if (o instanceof Set) {
      const items: string[] = [];
      for (const x of o) items.push(this.key(x));
      return `S${this.id(Object.getPrototypeOf(o))}{${items.sort().join(",")}}`;
    }
    if (o instanceof Date) return `D${o.getTime()}`;
    if (o instanceof RegExp) return `R${this.key(o.source)}${o.flags}`;
    let head = "";
    if (o instanceof Error) head = this.key(String(o.message));
    else if (o instanceof Number || o instanceof String || o instanceof Boolean || o instanceof BigInt || o instanceof Symbol) head = this.key(o.valueOf());
    const fields: string[] = [];
    for (const k of Reflect.ownKeys(o)) {
      if (!Object.prototype.propertyIsEnumerable.call(o, k)) continue;
      fields.push(`${this.key(k)}=${this.key((o as Record<PropertyKey, unknown>)[k])}`);
    }
    return `o${this.id(Object.getPrototypeOf(o))}${head}{${fields.sort().join(",")}}`;
  }
}

function bytesKey(bytes: Uint8Array): string {
  return bytes.join(",");
}

/**
 * Lists are drawn Hypothesis-style: before each element a boolean "one more?" choice. Deleting an element is
 * then deleting its span (the boolean and the element's choices) and the rest replays unchanged — no length
 * prefix to keep in sync. The boolean's p sets the average length; minSize and maxSize force it.
 */
class Lists<T> extends Strategy<T[]> {
  private readonly more: BooleanConstraints;
  constructor(
    private readonly elements: Strategy<T>,
    private readonly minSize: number,
    private readonly maxSize: number,
    /** uniqueBy's key, or null. */
    private readonly keyOf: ((v: T) => unknown) | null,
    /** unique: elements compared by structure. */
    private readonly structural: boolean,
  ) {
    super("list");
    const average = Math.min(Math.max(minSize * 2, minSize + 5), 0.5 * (minSize + maxSize));
    const extra = Math.max(average - minSize, 0.5);
    this.more = { p: extra / (extra + 1) };
  }

  // Overridden with the span inline: each strategy class calls its own doDraw, so the call stays monomorphic.
  override draw(tc: TestCase): T[] {
    tc.startSpan("list");
    const v = this.doDraw(tc);
    tc.endSpan();
    return v;
  }

  protected doDraw(tc: TestCase): T[] {
    // Each element takes at least its "more" flag and the list a final one: more than the budget never fits.
    if (this.minSize >= tc.maxChoices) {
      invalid(
        "st.lists",
        `minSize (${this.minSize}) can never fit in the choice budget of a test case (maxChoices is ${tc.maxChoices}, and each element takes at least one choice); raise the maxChoices setting above ${this.minSize} or lower minSize`,
      );
    }
    const out: T[] = [];
    const unique = this.keyOf !== null || this.structural;
    const seen = unique ? new Set<unknown>() : undefined;
    // Structural keys are strings; primitives are kept as themselves in `seen`, so the two never collide.
    const keys = this.structural ? new StructuralKeys() : null;
    const seenObjects = this.structural ? new Set<string>() : null;
    let duplicates = 0;
    // [start, end) of each kept element's choices (after its "more" flag), flat, from `base` of the case's
    // scratch stack up to its top (a list inside an element pushes above ours and pops back before we go on).
    const ranges = tc.rangeStack;
    const base = tc.rangeTop;
    const random = tc.random;
    for (;;) {
      const mustStop = out.length >= this.maxSize;
      const mustGo = out.length < this.minSize;
      tc.startSpan("list element");
      const spanStart = tc.choiceCount;
      let go: boolean;
      if (mustStop) go = tc.draw("boolean", MORE_FORCED, false);
      else if (mustGo) go = tc.draw("boolean", MORE_FORCED, true);
      else {
        // A small case while generating (engine.ts: the first cases): no more elements, by a generated false.
        if (random !== null && tc.choiceCount >= tc.growthLimit && tc.generating) tc.setReplayQueue(NO_MORE);
        go = tc.drawBoolean(this.more);
      }
      if (!go) {
        tc.endSpan();
        break;
      }
      // Now and then, while generating, repeat an earlier element's choices: duplicates find bugs.
      if (tc.rangeTop > base && random !== null && tc.generating && random.bool(0.1)) {
        const kept = (tc.rangeTop - base) / 2;
        const k = base + 2 * (kept === 1 ? 0 : random.int(0, kept - 1));
        const from = ranges[k];
        const to = ranges[k + 1];
        const values = new Array<ChoiceValue>(to - from);
        for (let j = from; j < to; j++) values[j - from] = tc.valueAt(j);
        tc.setReplayQueue(values);
      }
      const v = this.elements.draw(tc);
      tc.setReplayQueue(null);
      if (seen !== undefined) {
        let key: unknown;
        let set: Set<unknown> = seen;
        if (keys !== null && ((typeof v === "object" && v !== null) || typeof v === "function" || typeof v === "symbol")) {
          key = keys.key(v);
          set = seenObjects as Set<unknown>;
        } else key = keys !== null ? v : (this.keyOf as (v: T) => unknown)(v);
        if (set.has(key)) {
          tc.endSpan(true);
          if (++duplicates >= MAX_DUPLICATE_STREAK) {
            if (out.length < this.minSize) tc.reject();
            tc.startSpan("list element");
            tc.draw("boolean", MORE_FORCED, false);
            tc.endSpan();
            break;
          }
          continue;
        }
        set.add(key);
        duplicates = 0;
      }
      const top = tc.rangeTop;
      ranges[top] = spanStart + 1;
      ranges[top + 1] = tc.choiceCount;
      tc.rangeTop = top + 2;
      out.push(v);
      tc.endSpan();
    }
    tc.rangeTop = base;
    return out;
  }
}

/** Arrays of values from `elements`. Shrinks by deleting elements, then simplifying them. */
export function lists<T>(elements: Strategy<T>, options?: ListsOptions<T>): Strategy<T[]> {
  const api = "st.lists";
  requireStrategy(api, elements, "elements");
  const o = checkOptions(api, options, ["minSize", "maxSize", "unique", "uniqueBy"]);
  const { minSize, maxSize } = checkSizes(api, o.minSize, o.maxSize);
  checkBoolean(api, "unique", o.unique);
  if (o.uniqueBy !== undefined && typeof o.uniqueBy !== "function") invalid(api, `uniqueBy must be a function, got ${describe(o.uniqueBy)}`);
  if (o.unique === true && o.uniqueBy !== undefined) invalid(api, "give either unique or uniqueBy, not both (uniqueBy already makes the elements unique by its key)");
  return new Lists(elements, minSize, maxSize, o.uniqueBy ?? null, o.unique === true);
}

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
export function tuples<const S extends readonly Strategy<unknown>[]>(...parts: S): Strategy<{ -readonly [K in keyof S]: ValueOfStrategy<S[K]> }> {
  parts.forEach((s, i) => requireStrategy("st.tuples", s, `argument ${i}`));
  return new Tuples(parts);
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
    if (this.protoKey) {
      for (let i = 0; i < this.keys.length; i++) {
        Object.defineProperty(out, this.keys[i], { value: this.strategies[i].draw(tc), writable: true, enumerable: true, configurable: true });
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
export function records<S extends Record<string, Strategy<unknown>>>(shape: S): Strategy<{ [K in keyof S]: ValueOfStrategy<S[K]> }> {
  const api = "st.records";
  // The shape is user data: a getter that throws (or a Proxy trap) is InvalidArgument naming the call, here.
  const { keys, strategies } = guard(api, "reading the shape", () => {
    if (typeof shape !== "object" || shape === null || Array.isArray(shape) || shape instanceof Strategy) invalid(api, `expects an object of strategies, got ${describe(shape)}`);
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
