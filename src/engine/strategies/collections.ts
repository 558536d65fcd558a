/** Strategies that combine others: lists, tuples, records. */
import type { BooleanConstraints, ChoiceValue } from "../choices.ts";
import { invalid } from "../errors.ts";
import type { TestCase } from "../testcase.ts";
import { describe, requireStrategy, Strategy } from "./core.ts";
import type { ValueOfStrategy } from "./core.ts";
import { checkSizes } from "./primitives.ts";

export interface ListsOptions<T> {
  minSize?: number;
  maxSize?: number;
  /** No two elements equal (SameValueZero for primitives, structure for objects). */
  unique?: boolean;
  /** No two elements with the same key. */
  uniqueBy?: (value: T) => unknown;
}

const MORE_FORCED: BooleanConstraints = { p: 0.5 };
const MAX_DUPLICATE_STREAK = 10;

/** A key for uniqueness: primitives as themselves, objects by structure. */
function structuralKey(v: unknown): unknown {
  if (v === null || (typeof v !== "object" && typeof v !== "function")) return v;
  return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x instanceof Map || x instanceof Set ? [...x] : x));
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
    private readonly keyOf: ((v: T) => unknown) | undefined,
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
    const out: T[] = [];
    const seen = this.keyOf ? new Set<unknown>() : undefined;
    let duplicates = 0;
    // [start, end) of each kept element's choices (after its "more" flag), flat; made on the second element.
    let starts: number[] | null = null;
    let firstStart = -1;
    let firstEnd = -1;
    const random = tc.random;
    for (;;) {
      const mustStop = out.length >= this.maxSize;
      const mustGo = out.length < this.minSize;
      tc.startSpan("list element");
      const spanStart = tc.choiceCount;
      let go: boolean;
      if (mustStop) go = tc.draw("boolean", MORE_FORCED, false);
      else if (mustGo) go = tc.draw("boolean", MORE_FORCED, true);
      else go = tc.draw("boolean", this.more);
      if (!go) {
        tc.endSpan();
        break;
      }
      // Now and then, while generating, repeat an earlier element's choices: duplicates find bugs.
      if (firstStart >= 0 && random !== null && tc.generating && random.bool(0.1)) {
        let from = firstStart;
        let to = firstEnd;
        if (starts !== null) {
          const k = random.int(0, starts.length / 2 - 1);
          from = starts[2 * k];
          to = starts[2 * k + 1];
        }
        const values = new Array<ChoiceValue>(to - from);
        for (let j = from; j < to; j++) values[j - from] = tc.valueAt(j);
        tc.setReplayQueue(values);
      }
      const v = this.elements.draw(tc);
      tc.setReplayQueue(null);
      if (seen !== undefined) {
        const key = (this.keyOf as (v: T) => unknown)(v);
        if (seen.has(key)) {
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
        seen.add(key);
        duplicates = 0;
      }
      if (firstStart < 0) {
        firstStart = spanStart + 1;
        firstEnd = tc.choiceCount;
      } else {
        if (starts === null) starts = [firstStart, firstEnd];
        starts.push(spanStart + 1, tc.choiceCount);
      }
      out.push(v);
      tc.endSpan();
    }
    return out;
  }
}

/** Arrays of values from `elements`. Shrinks by deleting elements, then simplifying them. */
export function lists<T>(elements: Strategy<T>, options: ListsOptions<T> = {}): Strategy<T[]> {
  const api = "st.lists";
  requireStrategy(api, elements, "elements");
  if (typeof options !== "object" || options === null) invalid(api, `options must be an object, got ${describe(options)}`);
  const { minSize, maxSize } = checkSizes(api, options.minSize, options.maxSize);
  if (options.uniqueBy !== undefined && typeof options.uniqueBy !== "function") invalid(api, `uniqueBy must be a function, got ${describe(options.uniqueBy)}`);
  const keyOf = options.uniqueBy ?? (options.unique ? (structuralKey as (v: T) => unknown) : undefined);
  return new Lists(elements, minSize, maxSize, keyOf);
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
  private readonly keys: string[];
  private readonly strategies: Strategy<unknown>[];
  constructor(shape: Record<string, Strategy<unknown>>) {
    super("record");
    this.keys = Object.keys(shape);
    this.strategies = this.keys.map((k) => shape[k]);
  }
  override draw(tc: TestCase): T {
    tc.startSpan("record");
    const v = this.doDraw(tc);
    tc.endSpan();
    return v;
  }
  protected doDraw(tc: TestCase): T {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < this.keys.length; i++) out[this.keys[i]] = this.strategies[i].draw(tc);
    return out as T;
  }
}

/** Objects with a value from each strategy under its key: st.records({ id: st.integers() }) gives { id: number }. */
export function records<S extends Record<string, Strategy<unknown>>>(shape: S): Strategy<{ [K in keyof S]: ValueOfStrategy<S[K]> }> {
  const api = "st.records";
  if (typeof shape !== "object" || shape === null || Array.isArray(shape)) invalid(api, `expects an object of strategies, got ${describe(shape)}`);
  for (const [k, s] of Object.entries(shape)) requireStrategy(api, s, `key "${k}"`);
  return new Records(shape);
}
