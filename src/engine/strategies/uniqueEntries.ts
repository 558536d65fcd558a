/**
 * The drawing shared by st.sets, st.maps and st.dictionaries: collections whose entries have distinct keys.
 *
 * Each entry is drawn as a list element is (a "one more?" boolean, then the entry: its key, then for a map its
 * value), so deleting an entry is deleting its span. What a list does not need is a canonical form: the set
 * {a, b} drawn as a then b and as b then a would be two test cases with one value, and a duplicate skipped and
 * drawn again would make countless more — a small space (`st.sets(st.booleans())`, 4 values) could then never be
 * exhausted. So a collection's choices are valid only in one arrangement: each key is drawn from choices that
 * come strictly after the previous key's in shortlex order (the order shrinking uses), and a duplicate key ends
 * the case as invalid. Every collection has exactly one choice sequence per arrangement of its entries' choices,
 * and it is the simplest one, so shrinking moves toward it anyway.
 *
 * Generation cannot draw keys in order directly (a strategy draws whatever it draws), so it plans: at the first
 * decision made fresh, the rest of the collection is drawn on a scratch test case from the same randomness, the
 * duplicates and keys not after the previous one are dropped, the entries sorted by their keys' choices, and
 * their choices queued on the real case (`setReplayQueue`: generated, not forced, so shrinking can still change
 * them, and steered by the DataTree like any generated value). The real case then draws the entries from the
 * queue; if the DataTree steers away from the plan, the next decision plans again.
 */
import type { BooleanConstraints, ChoiceType, ChoiceValue } from "../choice/types.ts";
import { TYPE_NAMES } from "../choice/storage.ts";
import { choiceEquals } from "../choice/identity.ts";
import { compareChoice, indexNumber } from "../choice/complexityIndex.ts";
import { permitted } from "../choice/domain.ts";
import { StopTest, TestCase } from "../core/testCase.ts";
import { InvalidArgument, invalid } from "../util/errors.ts";
import type { Random } from "../util/random.ts";

const MORE_FORCED: BooleanConstraints = { p: 0.5 };
/** A plan drops at most this many proposed entries in a row (duplicates, keys out of order) before it stops. */
const MAX_DROPPED_STREAK = 10;

/** How one kind of collection draws an entry's key and value, and what makes two keys the same. */
export interface EntryParts<K, E> {
  /** The call misuse is reported under ("st.sets"). */
  readonly api: string;
  drawKey(tc: TestCase): K;
  /** The entry, once its key is known to be new (a set's entry is its key). */
  drawEntry(tc: TestCase, key: K): E;
  /** What two keys are compared by (SameValueZero, as a Set compares). */
  identity(key: K): unknown;
  /**
   * While planning: values to try as the key's first choice now and then (a dictionary's special keys and the
   * case variants of its keys so far), or null. Generated, so shrinking can still change them.
   */
  suggest?(random: Random, keys: readonly K[]): ChoiceValue | null;
}

/** Sizes and the "one more?" probability of a collection (the same average length as st.lists). */
export class EntrySizes {
  readonly more: BooleanConstraints;
  constructor(
    readonly minSize: number,
    readonly maxSize: number,
  ) {
    const average = Math.min(Math.max(minSize * 2, minSize + 5), 0.5 * (minSize + maxSize));
    const extra = Math.max(average - minSize, 0.5);
    this.more = { p: extra / (extra + 1) };
  }
}

/** Draw the entries of one collection (see the file's comment): each passed to `add` in order. */
export function drawEntries<K, E>(
  tc: TestCase,
  parts: EntryParts<K, E>,
  sizes: EntrySizes,
  add: (key: K, entry: E) => void,
): void {
  // Each entry takes at least its "one more?" flag and the collection a final one: more never fits.
  if (sizes.minSize >= tc.maxChoices)
    invalid(
      parts.api,
      `minSize (${sizes.minSize}) can never fit in the choice budget of a test case (maxChoices is ${tc.maxChoices}, and each entry takes at least one choice); raise the maxChoices setting above ${sizes.minSize} or lower minSize`,
    );
  const seen = new Set<unknown>();
  const keys: K[] = [];
  let prevStart = -1;
  let prevEnd = -1;
  for (;;) {
    const n = keys.length;
    if (tc.generating && !tc.queueing) plan(tc, parts, sizes, n, seen, keys, prevStart, prevEnd);
    // Labelled as a list's element is (its "one more?" flag, then the entry): the shrinker and the variations
    // treat a collection's entries as they treat a list's.
    tc.startSpan("list element");
    let go: boolean;
    if (n >= sizes.maxSize) go = tc.draw("boolean", MORE_FORCED, false);
    else if (n < sizes.minSize) go = tc.draw("boolean", MORE_FORCED, true);
    else go = tc.drawBoolean(sizes.more);
    if (!go) {
      tc.endSpan();
      return;
    }
    const start = tc.choiceCount;
    const key = parts.drawKey(tc);
    const end = tc.choiceCount;
    const id = parts.identity(key);
    // Not the one arrangement of these entries: a duplicate, or a key not after the previous one.
    if (seen.has(id) || (prevStart >= 0 && compareRuns(tc, prevStart, prevEnd, tc, start, end) >= 0)) tc.reject();
    seen.add(id);
    keys.push(key);
    prevStart = start;
    prevEnd = end;
    add(key, parts.drawEntry(tc, key));
    tc.endSpan();
  }
}

/** A planned entry: where its key's choices and its whole entry's choices lie on the scratch case. */
interface Planned {
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly end: number;
}

/**
 * Draw the rest of the collection on a scratch case and queue its entries' choices, in order, on `tc`; nothing
 * is queued when the plan cannot be made (its budget ran out, a strategy failed: the real case then draws
 * fresh values and meets the same end itself).
 */
function plan<K, E>(
  tc: TestCase,
  parts: EntryParts<K, E>,
  sizes: EntrySizes,
  n: number,
  seen: ReadonlySet<unknown>,
  keys: readonly K[],
  prevStart: number,
  prevEnd: number,
): void {
  const random = tc.random as Random;
  const scratch = new TestCase([], random, Math.max(1, tc.maxChoices - tc.choiceCount));
  scratch.growthLimit = tc.growthLimit - tc.choiceCount;
  scratch.recursionLeaves = tc.recursionLeaves;
  const planned: Planned[] = [];
  const ids = new Set(seen);
  const drawn = [...keys];
  let count = n;
  let dropped = 0;
  try {
    while (count < sizes.maxSize && dropped < MAX_DROPPED_STREAK) {
      // Past the minimum: one more? (and no more once the case is as big as a small case may grow).
      if (count >= sizes.minSize && (scratch.choiceCount >= scratch.growthLimit || !random.bool(sizes.more.p))) break;
      const hint = parts.suggest?.(random, drawn) ?? null;
      scratch.setReplayQueue(hint === null ? null : [hint]);
      const keyStart = scratch.choiceCount;
      const key = parts.drawKey(scratch);
      scratch.setReplayQueue(null);
      const keyEnd = scratch.choiceCount;
      const id = parts.identity(key);
      const before = prevStart >= 0 && compareRuns(tc, prevStart, prevEnd, scratch, keyStart, keyEnd) >= 0;
      if (ids.has(id) || before) {
        dropped++;
        continue;
      }
      parts.drawEntry(scratch, key);
      ids.add(id);
      drawn.push(key);
      planned.push({ keyStart, keyEnd, end: scratch.choiceCount });
      count++;
      dropped = 0;
    }
  } catch (e) {
    // Misuse is misuse whatever the choices: say so now. Anything else the real draw meets on its own.
    if (e instanceof InvalidArgument) throw e;
    if (!(e instanceof StopTest)) return;
  }
  // Two planned keys drawn from the same choices cannot both be kept (the second would come out of order).
  planned.sort((a, b) => compareRuns(scratch, a.keyStart, a.keyEnd, scratch, b.keyStart, b.keyEnd));
  const queue: ChoiceValue[] = [];
  let queuedCount = n;
  let last: Planned | undefined;
  for (const p of planned) {
    if (last !== undefined && compareRuns(scratch, last.keyStart, last.keyEnd, scratch, p.keyStart, p.keyEnd) === 0)
      continue;
    // The "one more?" flags the real draw forces are not drawn from the queue.
    if (queuedCount >= sizes.minSize) queue.push(true);
    for (let i = p.keyStart; i < p.end; i++) queue.push(scratch.valueAt(i));
    queuedCount++;
    last = p;
  }
  if (queuedCount < sizes.maxSize && queuedCount >= sizes.minSize) queue.push(false);
  tc.setReplayQueue(queue);
}

/** Shortlex over two runs of choices (each on its own case): shorter first, then the first choice that differs. */
function compareRuns(a: TestCase, aStart: number, aEnd: number, b: TestCase, bStart: number, bEnd: number): number {
  if (aEnd - aStart !== bEnd - bStart) return aEnd - aStart - (bEnd - bStart);
  for (let i = 0; i < aEnd - aStart; i++) {
    const c = compareChoices(a, aStart + i, b, bStart + i);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * Two choices in the order of their complexity indices. Choices of one deterministic strategy that differ for
 * the first time are drawn under the same constraints; under different ones (a strategy whose constraints
 * depend on something else), each index under its own, so the order is still a fixed one.
 */
function compareChoices(a: TestCase, i: number, b: TestCase, j: number): number {
  const ta = a.typeCodeAt(i);
  const tb = b.typeCodeAt(j);
  if (ta !== tb) return ta - tb;
  const type: ChoiceType = TYPE_NAMES[ta];
  const x = a.valueAt(i);
  const y = b.valueAt(j);
  if (choiceEquals(type, x, y)) return 0;
  const cx = a.data.constraints[a.base + i];
  const cy = b.data.constraints[b.base + j];
  if (cx === cy || permitted(type, y, cx)) {
    const c = compareChoice(type, x, y, cx);
    if (c !== 0) return c;
  }
  return indexNumber(type, x, cx) - indexNumber(type, y, cy);
}
