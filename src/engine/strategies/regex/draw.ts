/**
 * Drawing one match of a regular expression's plan (plan.ts) from a test case, left to right: an alternative is an
 * integer choice, a repetition the "one more?" flags of st.lists (so deleting a repetition is deleting its span),
 * a character a one-character string choice from its set. Assertions are followed as the string grows: each
 * says what the next character may be (`\b` after a letter: not a word character; `$`: nothing, or a line
 * terminator with `m`), and the next character is drawn from what it allows; at the start of the match, what must
 * come before it is kept for the padding, which fromRegex.ts draws afterwards. A string that could not be kept
 * in line (`a\bb`: the set allowed is empty) is marked failed, and fromRegex.ts draws another.
 */
import type { BooleanConstraints, ChoiceValue } from "../../choice/types.ts";
import { IntervalSet } from "../../choice/intervals.ts";
import type { TestCase } from "../../core/testCase.ts";
import { charPart, pickAmong } from "./plan.ts";
import type { Plan } from "./plan.ts";
import { intersect, LINE_TERMINATORS, NO_CHARACTERS } from "./charSets.ts";

/** What may stand next to the match: a character of `set`, or the edge of the input when `edge`. */
export interface Allowed {
  readonly set: IntervalSet;
  readonly edge: boolean;
}

const NOTHING: Allowed = { set: NO_CHARACTERS, edge: true };
const LINE_START: Allowed = { set: LINE_TERMINATORS, edge: true };
const MORE_FORCED: BooleanConstraints = { p: 0.5 };
const PRECEDED_BY_WORD: BooleanConstraints = { p: 0.5 };
const NO_MORE: ChoiceValue[] = [false];
const NONE: readonly never[] = [];
const ONE_MORE: ChoiceValue[] = [true];
/** How often, while generating, a character comes from one of its set's ranges picked evenly (see char()). */
const EVEN_RANGE_DRAW = 1 / 8;
/** Sets of more ranges than this (a negated class, a Unicode property) draw over the whole set only. */
const EVEN_RANGES = 64;
/** How many narrowed forms of a character's parts are kept. */
const NARROWED_KEPT = 16;
/** How often, while generating, a repetition with a bounded count aims for its largest count. */
const AIM_FOR_MAX = 1 / 16;
/** Largest counts are aimed for up to this many repetitions. */
const MAX_AIMED = 1000;

function both(a: Allowed | null, b: Allowed): Allowed {
  if (a === null) return b;
  return { set: intersect(a.set, b.set), edge: a.edge && b.edge };
}

/** One draw of a match: the text so far and what the assertions met so far ask of its surroundings. */
export class Drawing {
  /** The match so far. */
  text = "";
  /** The last character of the match (a code point with `u`, else a code unit), or -1 while there is none. */
  private last = -1;
  private captures: (string | undefined)[];
  /** What the next character must be (set by `$`, `\b`, `\B`); null: anything. */
  pending: Allowed | null = null;
  /** What must come before the match (set by `^`, `\b`, `\B` at its start); null: anything. */
  before: Allowed | null = null;
  /** At the start, whether what comes before ends in a word character, once an assertion has decided it. */
  private precededByWord: boolean | undefined;
  /**
   * `\b` and `\B` met at the start while either kind of character could come before: the first character of
   * the match decides what comes before (`\bfoo`: not a word character), or finish() does if there is none.
   */
  private undecided: readonly Extract<Plan, { kind: "assert" }>[] = NONE;
  /** An assertion could not be kept: the string may not match. */
  failed = false;

  constructor(
    private readonly tc: TestCase,
    groupCount: number,
    private readonly unicode: boolean,
    /** Whether padding may come before the match (else the match starts the input). */
    private readonly padded: boolean,
  ) {
    this.captures = new Array<string | undefined>(groupCount + 1);
  }

  draw(p: Plan): void {
    switch (p.kind) {
      case "text":
        this.emit(p.text);
        return;
      case "char":
        this.char(p);
        return;
      case "seq":
        for (const item of p.items) this.draw(item);
        return;
      case "alt": {
        const tc = this.tc;
        tc.startSpan("alternative");
        this.draw(p.options[tc.drawInteger(p.pick)]);
        tc.endSpan();
        return;
      }
      case "repeat":
        this.repeat(p);
        return;
      case "group": {
        const start = this.text.length;
        this.draw(p.item);
        this.captures[p.index] = this.text.slice(start);
        return;
      }
      case "backref": {
        // Duplicate names: at most one of the groups took part. A group that took no part matches "".
        for (const g of p.groups) {
          const captured = this.captures[g];
          if (captured !== undefined) {
            this.emit(captured);
            return;
          }
        }
        return;
      }
      case "assert":
        this.assert(p);
        return;
      case "lookahead":
        return;
    }
  }

  /** Append fixed text, which must agree with what the assertions before it allow. */
  private emit(s: string): void {
    if (s.length === 0) return;
    const first = this.unicode ? (s.codePointAt(0) as number) : s.charCodeAt(0);
    if (this.pending !== null && !this.pending.set.contains(first)) this.failed = true;
    this.pending = null;
    if (this.undecided.length > 0) this.decideFrom(first);
    this.text += s;
    const end = s.length - 1;
    const low = s.charCodeAt(end);
    this.last = this.unicode && end > 0 && low >= 0xdc00 && low <= 0xdfff ? (s.codePointAt(end - 1) as number) : low;
  }

  private char(p: Extract<Plan, { kind: "char" }>): void {
    let parts = p.parts;
    let pick = p.pick;
    const pending = this.pending;
    if (pending !== null) {
      let narrowed = p.narrowed.get(pending.set);
      if (narrowed === undefined) {
        const kept = p.parts.map((x) => intersect(x.set, pending.set)).filter((s) => s.size > 0);
        narrowed = kept.length === 0 ? null : { parts: kept.map(charPart), pick: pickAmong(kept.length) };
        // Kept for the sets assertions share (two assertions in a row make a new set each time: not kept).
        if (p.narrowed.size < NARROWED_KEPT) p.narrowed.set(pending.set, narrowed);
      }
      // Nothing the assertion allows: draw as if unconstrained, and let the string go.
      if (narrowed === null) this.failed = true;
      else ({ parts, pick } = narrowed);
    }
    const tc = this.tc;
    const part = parts.length === 1 ? parts[0] : parts[tc.drawInteger(pick)];
    let c: string;
    if (part.choice === null) c = part.only;
    else {
      const alphabet = part.choice.alphabet;
      const ranges = alphabet.intervals.length;
      const random = tc.random;
      // Now and then, while generating, a character from one of the set's ranges picked evenly: the `$` of
      // `[A-Za-z_$]` comes as often as a letter would from `[A-Z]`, where a draw over the whole alphabet would
      // rarely reach it. Queued, not forced: shrinking still sees an ordinary choice.
      if (ranges > 1 && ranges <= EVEN_RANGES && random !== null && tc.generating && random.bool(EVEN_RANGE_DRAW)) {
        const [lo, hi] = alphabet.intervals[random.int(0, ranges - 1)];
        tc.setReplayQueue([String.fromCodePoint(random.int(lo, hi))]);
      }
      c = tc.drawString(part.choice);
    }
    this.pending = null;
    this.text += c;
    this.last = this.unicode ? (c.codePointAt(0) as number) : c.charCodeAt(0);
    if (this.undecided.length > 0) this.decideFrom(this.last);
  }

  private repeat(p: Extract<Plan, { kind: "repeat" }>): void {
    const tc = this.tc;
    tc.startSpan("list");
    for (let i = 0; i < p.min; i++) {
      tc.startSpan("repeat");
      for (const g of p.groups) this.captures[g] = undefined;
      this.draw(p.item);
      tc.endSpan();
    }
    const random = tc.random;
    const aim = random !== null && tc.generating && p.max - p.min > 1 && p.max <= MAX_AIMED && random.bool(AIM_FOR_MAX);
    for (let count = p.min; ; count++) {
      tc.startSpan("list element");
      let go: boolean;
      if (count >= p.max) go = tc.draw("boolean", MORE_FORCED, false);
      else {
        // A small case while generating (engine.ts: the first cases): no more repetitions, as st.lists does;
        // otherwise now and then the largest count.
        if (random !== null && tc.generating) {
          if (tc.choiceCount >= tc.growthLimit) tc.setReplayQueue(NO_MORE);
          else if (aim) tc.setReplayQueue(ONE_MORE);
        }
        go = tc.drawBoolean(p.more);
      }
      if (!go) {
        tc.endSpan();
        break;
      }
      // The language's own rule: a repetition past the minimum that matches "" fails, and the match goes on
      // without it — captures, assertions and all as they were before it.
      const saved = p.canBeEmpty ? this.save() : null;
      for (const g of p.groups) this.captures[g] = undefined;
      this.draw(p.item);
      tc.endSpan();
      if (saved !== null && this.text.length === saved.length) {
        this.restore(saved);
        break;
      }
    }
    tc.endSpan();
  }

  private save() {
    return {
      length: this.text.length,
      captures: this.captures.slice(),
      pending: this.pending,
      before: this.before,
      precededByWord: this.precededByWord,
      undecided: this.undecided,
      failed: this.failed,
    };
  }

  private restore(s: ReturnType<Drawing["save"]>): void {
    this.captures = s.captures;
    this.pending = s.pending;
    this.before = s.before;
    this.precededByWord = s.precededByWord;
    this.undecided = s.undecided;
    this.failed = s.failed;
  }

  private assert(p: Extract<Plan, { kind: "assert" }>): void {
    switch (p.what) {
      case "start":
        if (this.last >= 0) {
          if (!p.multiline || !LINE_TERMINATORS.contains(this.last)) this.failed = true;
        } else if (this.padded) this.before = both(this.before, p.multiline ? LINE_START : NOTHING);
        return;
      case "end":
        this.pending = both(this.pending, p.multiline ? LINE_START : NOTHING);
        return;
      case "boundary":
      case "notBoundary": {
        let word: boolean;
        if (this.last >= 0) word = p.word.contains(this.last);
        else if (!this.padded)
          word = false; // the start of the input
        else if (this.precededByWord !== undefined) word = this.precededByWord;
        else {
          const before = this.before;
          const canWord = before === null || intersect(before.set, p.word).size > 0;
          const canOther = before === null || before.edge || intersect(before.set, p.nonWord).size > 0;
          if (canWord && canOther) {
            this.undecided = [...this.undecided, p];
            return;
          }
          word = this.precede(canWord, p);
        }
        this.follow(p, word);
        return;
      }
    }
  }

  /** What may come next after `\b` or `\B` (p), given whether the character before is a word character. */
  private follow(p: Extract<Plan, { kind: "assert" }>, previousWord: boolean): void {
    // \b: the next character is of the other kind (the end of the input is not a word character); \B: the same.
    const nextWord = p.what === "notBoundary" ? previousWord : !previousWord;
    this.pending = both(this.pending, nextWord ? { set: p.word, edge: false } : { set: p.nonWord, edge: true });
  }

  /** Fix what comes before the match: a word character or not (which `p` says what is). */
  private precede(word: boolean, p: Extract<Plan, { kind: "assert" }>): boolean {
    this.precededByWord = word;
    this.before = both(this.before, word ? { set: p.word, edge: false } : { set: p.nonWord, edge: true });
    return word;
  }

  /** The match's first character `c` decides what comes before it, for the `\b` and `\B` met before it. */
  private decideFrom(c: number): void {
    for (const p of this.undecided) {
      const nextWord = p.word.contains(c);
      const previousWord = p.what === "notBoundary" ? nextWord : !nextWord;
      if (this.precededByWord === undefined) this.precede(previousWord, p);
      else if (this.precededByWord !== previousWord) this.failed = true;
    }
    this.undecided = NONE;
  }

  /** After the match: `\b` and `\B` still undecided (the match is empty) are decided by a choice. */
  finish(): void {
    const undecided = this.undecided;
    if (undecided.length === 0) return;
    this.undecided = NONE;
    const word = this.precededByWord ?? this.precede(this.tc.drawBoolean(PRECEDED_BY_WORD), undecided[0]);
    for (const p of undecided) this.follow(p, word);
  }
}

/** The characters of the text padding: every code point but the surrogates, as st.text draws. */
export const PADDING = new IntervalSet([
  [0, 0xd7ff],
  [0xe000, 0x10ffff],
]);
