/**
 * st.lists: a "one more?" boolean before each element, so deleting an element is deleting its span; `unique`
 * and `uniqueBy` retry a duplicate a few times, then stop the list.
 */
import type { BooleanConstraints, ChoiceValue, IntegerConstraints } from "../choice/types.ts";
import type { Random } from "../util/random.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, requireStrategy, Strategy } from "./strategy.ts";
import { checkBoolean, checkFillable, checkOptions, checkSizes } from "./options.ts";
import { StructuralKeys } from "./structuralKeys.ts";
import { integerConstraintsOf } from "./integers.ts";

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
    this.#integers = integerConstraintsOf(elements);
  }
  /**
   * The elements' constraints when they are st.integers(): drawFresh draws them straight. (Private: a strategy's
   * own fields make its database key, and this one says nothing the elements do not.)
   */
  readonly #integers: IntegerConstraints | null;

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
    const unique = this.keyOf !== null || this.structural;
    if (!unique) {
      const random = tc.freshStream();
      if (random !== null) return this.drawFresh(tc, random);
    }
    const out: T[] = [];
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
        if (random !== null && tc.choiceCount >= tc.growthLimit && tc.generating && !tc.queueing)
          tc.setReplayQueue(NO_MORE);
        go = tc.drawBoolean(this.more);
      }
      if (!go) {
        tc.endSpan();
        break;
      }
      // Now and then, while generating, repeat an earlier element's choices: duplicates find bugs. (Not while
      // another strategy's queue is followed: that plan already says what comes next.)
      const repeat = tc.rangeTop > base && random !== null && tc.generating && !tc.queueing && random.bool(0.1);
      const v = repeat ? this.drawRepeated(tc, random, base) : this.elements.draw(tc);
      if (seen !== undefined) {
        let key: unknown;
        let set: Set<unknown> = seen;
        if (
          keys !== null &&
          ((typeof v === "object" && v !== null) || typeof v === "function" || typeof v === "symbol")
        ) {
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

  /**
   * An element drawn again from the choices of one kept before it (its [start, end) pairs on the case's range stack
   * from `base`), chosen with `random`: the values are queued, so an element strategy follows them as it would a
   * replay.
   */
  private drawRepeated(tc: TestCase, random: Random, base: number): T {
    const ranges = tc.rangeStack;
    const k = repeatedElement(tc, random, base);
    const from = ranges[k];
    const to = ranges[k + 1];
    const values = new Array<ChoiceValue>(to - from);
    for (let j = from; j < to; j++) values[j - from] = tc.valueAt(j);
    tc.setReplayQueue(values);
    const v = this.elements.draw(tc);
    tc.setReplayQueue(null);
    return v;
  }

  /**
   * doDraw for a list of elements not kept unique, drawn fresh (TestCase.freshStream): the same choices from the
   * same randomness, with the flags and integer elements drawn straight and, for an integer element, no element
   * span opened (spans are off, and nothing nests in it). What doDraw does out of the ordinary — a flag forced by
   * minSize or maxSize, a small case's last flag, an element repeated — it does here the same way.
   */
  private drawFresh(tc: TestCase, random: Random): T[] {
    const out: T[] = [];
    const ranges = tc.rangeStack;
    const base = tc.rangeTop;
    const ints = this.#integers;
    for (;;) {
      const n = out.length;
      if (ints === null) tc.startSpan("list element");
      const spanStart = tc.choiceCount;
      let go: boolean;
      if (n >= this.maxSize) go = tc.draw("boolean", MORE_FORCED, false);
      else if (n < this.minSize) go = tc.draw("boolean", MORE_FORCED, true);
      else if (spanStart >= tc.growthLimit && !tc.queueing) {
        tc.setReplayQueue(NO_MORE);
        go = tc.drawBoolean(this.more);
      } else go = tc.freshBoolean(this.more, random);
      if (!go) {
        if (ints === null) tc.endSpan();
        break;
      }
      let v: T;
      if (tc.rangeTop > base && !tc.queueing && random.bool(0.1))
        // An integer element is one choice: the one repeated is pushed as it stands (drawRepeated would queue it).
        v =
          ints !== null
            ? (tc.repeatInteger(ints, tc.valueAt(ranges[repeatedElement(tc, random, base)]) as number) as T)
            : this.drawRepeated(tc, random, base);
      else v = ints !== null ? (tc.freshInteger(ints, random) as T) : this.elements.draw(tc);
      const top = tc.rangeTop;
      ranges[top] = spanStart + 1;
      ranges[top + 1] = tc.choiceCount;
      tc.rangeTop = top + 2;
      out.push(v);
      if (ints === null) tc.endSpan();
    }
    tc.rangeTop = base;
    return out;
  }
}

/** Which kept element (its place on the range stack, above `base`) a list repeats: the only one, or one at random. */
function repeatedElement(tc: TestCase, random: Random, base: number): number {
  const kept = (tc.rangeTop - base) / 2;
  return base + 2 * (kept === 1 ? 0 : random.int(0, kept - 1));
}

/** Arrays of values from `elements`. Shrinks by deleting elements, then simplifying them. */
export function lists<T>(elements: Strategy<T>, options?: ListsOptions<T>): Strategy<T[]> {
  const api = "st.lists";
  requireStrategy(api, elements, "elements");
  const o = checkOptions(api, options, ["minSize", "maxSize", "unique", "uniqueBy"]);
  const { minSize, maxSize } = checkSizes(api, o.minSize, o.maxSize);
  checkBoolean(api, "unique", o.unique);
  if (o.uniqueBy !== undefined && typeof o.uniqueBy !== "function")
    invalid(api, `uniqueBy must be a function, got ${describe(o.uniqueBy)}`);
  if (o.unique === true && o.uniqueBy !== undefined)
    invalid(api, "give either unique or uniqueBy, not both (uniqueBy already makes the elements unique by its key)");
  if (o.unique === true || o.uniqueBy !== undefined) checkFillable(api, "elements", elements, minSize);
  return new Lists(elements, minSize, maxSize, o.uniqueBy ?? null, o.unique === true);
}
