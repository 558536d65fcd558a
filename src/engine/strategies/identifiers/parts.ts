/**
 * What the identifier strategies share: string choices over a fixed alphabet whose largest size follows what is
 * left of a length limit (one constraints object per size, as the DataTree keeps a kind of choice per object).
 * Special values are queued through specials.ts, as dates and bigints queue theirs.
 */
import type { BooleanConstraints, StringConstraints } from "../../choice/types.ts";
import { IntervalSet } from "../../choice/intervals.ts";
import type { Random } from "../../util/random.ts";
import type { TestCase } from "../../core/testCase.ts";
import { queueSpecial } from "../specials.ts";

/** Letters and digits: what a hostname label begins and ends with. */
export const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
export const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** String constraints over one alphabet, by [minSize, maxSize], made once each. */
export class StringChoices {
  readonly #alphabet: IntervalSet;
  readonly #made = new Map<number, StringConstraints>();
  constructor(readonly chars: string) {
    this.#alphabet = IntervalSet.fromString(chars);
  }
  get(minSize: number, maxSize: number): StringConstraints {
    const key = minSize * 1024 + maxSize;
    let c = this.#made.get(key);
    if (c === undefined) this.#made.set(key, (c = { alphabet: this.#alphabet, minSize, maxSize }));
    return c;
  }
  /** `n` characters of the alphabet, picked at random: a special value to queue. */
  random(r: Random, n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += this.chars[r.int(0, this.chars.length - 1)];
    return s;
  }
}

/** A special value: the choices to queue, made from the randomness. */
export type Special = (r: Random) => (string | number | boolean)[];

/** Queue one of `specials` with probability `p` (specials.ts); whether it did. The caller ends the queue. */
export function queueOne(tc: TestCase, p: number, specials: readonly Special[]): boolean {
  const special = queueSpecial(tc, p, specials);
  if (special === null) return false;
  tc.setReplayQueue(special(tc.random as Random));
  return true;
}

const FORCED: BooleanConstraints = { p: 0.5 };

/**
 * Items drawn as a list's elements (a "one more?" flag, then the item, in one span labelled as a list's, so the
 * shrinker deletes them as it deletes elements): the first forced when `atLeastOne`, none once `room(n)` (what is
 * left of a length limit before item n) is below 1.
 */
export function drawItems(
  tc: TestCase,
  more: BooleanConstraints,
  atLeastOne: boolean,
  room: (n: number) => number,
  item: (n: number, room: number) => void,
): void {
  for (let n = 0; ; n++) {
    const left = room(n);
    tc.startSpan("list element");
    const go =
      n === 0 && atLeastOne
        ? tc.draw("boolean", FORCED, true)
        : left < 1
          ? tc.draw("boolean", FORCED, false)
          : tc.drawBoolean(more);
    if (go) item(n, left);
    tc.endSpan();
    if (!go) return;
  }
}
