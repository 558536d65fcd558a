/**
 * A regular expression made into a plan for drawing its matches: the parser's syntax tree (from
 * @eslint-community/regexpp) turned into the few things a draw needs — fixed text, one character from a set,
 * a sequence, a choice of alternatives, a repetition, a capturing group, a back-reference, an assertion — with
 * every character set computed once, here, and whatever can match nothing cut away. The draw (draw.ts) then only
 * walks the plan; nothing it does parses or computes a set.
 */
import type { AST } from "@eslint-community/regexpp";
import type { BooleanConstraints, IntegerConstraints, StringConstraints } from "../../choice/types.ts";
import { IntervalSet } from "../../choice/intervals.ts";
import { invalid } from "../../util/errors.ts";
import type { CharMode } from "./charSets.ts";
import {
  caseClosure,
  complement,
  dotSet,
  drawable,
  escapeSet,
  intersect,
  NO_CHARACTERS,
  onlySurrogates,
  propertySet,
  subtract,
  union,
  wordSet,
} from "./charSets.ts";

/** One way a character may be drawn: from a set (a string choice of one character), or one fixed character. */
export interface CharPart {
  readonly set: IntervalSet;
  /** The one-character string choice, or null when the set holds one character (no choice is made). */
  readonly choice: StringConstraints | null;
  /** The character, when the set holds one. */
  readonly only: string;
}

export type Plan =
  | { readonly kind: "text"; readonly text: string }
  | {
      readonly kind: "char";
      /** The characters as written first, then (with `i`) the ones case-insensitivity adds: an index picks one. */
      readonly parts: readonly CharPart[];
      readonly pick: IntegerConstraints;
      /** parts narrowed to what an assertion before it allows next, by that allowed set (made on first use). */
      readonly narrowed: Map<IntervalSet, { parts: readonly CharPart[]; pick: IntegerConstraints } | null>;
    }
  | { readonly kind: "seq"; readonly items: readonly Plan[] }
  | { readonly kind: "alt"; readonly options: readonly Plan[]; readonly pick: IntegerConstraints }
  | {
      readonly kind: "repeat";
      readonly item: Plan;
      readonly min: number;
      readonly max: number;
      /** The "one more?" flag of each repetition past min (its p sets the average count). */
      readonly more: BooleanConstraints;
      /** The capturing groups inside the item, which each repetition starts without. */
      readonly groups: readonly number[];
      /** Whether the item can match "" (else no repetition of it is empty, and nothing is saved to undo one). */
      readonly canBeEmpty: boolean;
    }
  | { readonly kind: "group"; readonly index: number; readonly item: Plan }
  | { readonly kind: "backref"; readonly groups: readonly number[] }
  | {
      readonly kind: "assert";
      readonly what: "start" | "end" | "boundary" | "notBoundary";
      readonly multiline: boolean;
      /** Word characters where it stands (`i` with `u` adds ſ and K), and the rest. */
      readonly word: IntervalSet;
      readonly nonWord: IntervalSet;
    }
  /** A look-ahead: zero width; whether it holds is left to the RegExp itself (see fromRegex.ts). */
  | { readonly kind: "lookahead" };

export interface CompiledRegex {
  readonly plan: Plan;
  readonly groupCount: number;
  /**
   * Whether a drawn string may fail to match: the pattern has assertions (which the draw follows, but can be
   * boxed in by: `a\bb`) or constructs it does not follow (look-aheads, `v` with `i`, a set of lone surrogates
   * with `u`). Such strings are checked against the RegExp.
   */
  readonly mayFail: boolean;
}

const EMPTY_TEXT: Plan = { kind: "text", text: "" };

/**
 * The plan for a parsed pattern. `api` names the call in errors; `describe` is the pattern as the user gave it.
 * Returns null when the pattern matches no string at all.
 */
export function compile(
  pattern: AST.Pattern,
  flags: { unicode: boolean; unicodeSets: boolean; ignoreCase: boolean; dotAll: boolean; multiline: boolean },
  api: string,
  shown: string,
): CompiledRegex | null {
  const groups: AST.CapturingGroup[] = [];
  collectGroups(pattern, groups);
  groups.sort((a, b) => a.start - b.start);
  const compiler = new Compiler(api, shown, new Map(groups.map((g, i) => [g, i + 1])));
  const mode: CharMode = { ...flags, unicode: flags.unicode || flags.unicodeSets };
  const plan = compiler.alternatives(pattern.alternatives, mode);
  if (plan === null) return null;
  return { plan: plan.plan, groupCount: groups.length, mayFail: compiler.mayFail };
}

function collectGroups(node: AST.Node, out: AST.CapturingGroup[]): void {
  if (node.type === "CapturingGroup") out.push(node);
  if ("alternatives" in node) for (const a of node.alternatives) collectGroups(a, out);
  if ("elements" in node) for (const e of node.elements) collectGroups(e as AST.Node, out);
  if (node.type === "Quantifier") collectGroups(node.element, out);
}

/** A plan and the length of its shortest match (alternatives are ordered by it, shortest first). */
interface Sized {
  plan: Plan;
  minLength: number;
}

class Compiler {
  mayFail = false;
  constructor(
    private readonly api: string,
    private readonly shown: string,
    private readonly groupIndex: Map<AST.CapturingGroup, number>,
  ) {}

  private unsupported(what: string): never {
    invalid(this.api, `${this.shown}: ${what} is not supported`);
  }

  alternatives(alternatives: readonly AST.Alternative[], mode: CharMode): Sized | null {
    const options: Sized[] = [];
    for (const a of alternatives) {
      const s = this.sequence(a.elements, mode);
      if (s !== null) options.push(s);
    }
    if (options.length === 0) return null;
    if (options.length === 1) return options[0];
    // Shortest first (a stable sort: among equal lengths, the order written), so the simplest match is the
    // shortest one.
    options.sort((a, b) => a.minLength - b.minLength);
    return {
      plan: {
        kind: "alt",
        options: options.map((o) => o.plan),
        pick: { min: 0, max: options.length - 1, shrinkTowards: 0 },
      },
      minLength: options[0].minLength,
    };
  }

  private sequence(elements: readonly AST.Element[], mode: CharMode): Sized | null {
    const items: Plan[] = [];
    let minLength = 0;
    for (const e of elements) {
      const s = this.element(e, mode);
      if (s === null) return null;
      minLength += s.minLength;
      const p = s.plan;
      const last = items[items.length - 1];
      // Fixed text joins the text before it: one plan node, and nothing to walk, per run of literal characters.
      if (p.kind === "text" && last?.kind === "text")
        items[items.length - 1] = { kind: "text", text: last.text + p.text };
      else if (p.kind === "seq") items.push(...p.items);
      else if (!(p.kind === "text" && p.text === "")) items.push(p);
    }
    if (items.length === 0) return { plan: EMPTY_TEXT, minLength };
    return { plan: items.length === 1 ? items[0] : { kind: "seq", items }, minLength };
  }

  private element(e: AST.Element, mode: CharMode): Sized | null {
    switch (e.type) {
      case "Character":
        return this.chars(single(e.value), mode, false);
      case "CharacterSet":
        return this.chars(this.characterSet(e, mode), mode, false);
      case "CharacterClass":
      case "ExpressionCharacterClass":
        return this.chars(this.classSet(e, mode), mode, e.negate);
      case "Quantifier":
        return this.quantifier(e, mode);
      case "Group":
        return this.alternatives(e.alternatives, e.modifiers === null ? mode : withModifiers(mode, e.modifiers));
      case "CapturingGroup": {
        const inner = this.alternatives(e.alternatives, mode);
        if (inner === null) return null;
        return {
          plan: { kind: "group", index: this.groupIndex.get(e) as number, item: inner.plan },
          minLength: inner.minLength,
        };
      }
      case "Backreference": {
        const resolved = Array.isArray(e.resolved) ? e.resolved : [e.resolved];
        return {
          plan: { kind: "backref", groups: resolved.map((g) => this.groupIndex.get(g) as number) },
          minLength: 0,
        };
      }
      case "Assertion":
        return this.assertion(e, mode);
    }
  }

  private assertion(e: AST.Assertion, mode: CharMode): Sized {
    if (e.kind === "lookbehind") this.unsupported(`a look-behind (${e.negate ? "(?<!…)" : "(?<=…)"})`);
    this.mayFail = true;
    if (e.kind === "lookahead") return { plan: { kind: "lookahead" }, minLength: 0 };
    const word = wordSet(mode);
    return {
      plan: {
        kind: "assert",
        what: e.kind === "word" ? (e.negate ? "notBoundary" : "boundary") : e.kind,
        multiline: mode.multiline,
        word,
        nonWord: complement(word, { ...mode, unicode: true }),
      },
      minLength: 0,
    };
  }

  private quantifier(q: AST.Quantifier, mode: CharMode): Sized | null {
    const inner = this.element(q.element, mode);
    if (inner === null) return q.min === 0 ? { plan: EMPTY_TEXT, minLength: 0 } : null;
    if (q.max === 0) return { plan: EMPTY_TEXT, minLength: 0 };
    // A look-ahead repeated is still one look-ahead (and repeating nothing draws nothing).
    if (inner.plan.kind === "lookahead" || (inner.plan.kind === "text" && inner.plan.text === "")) return inner;
    const { min, max } = q;
    if (min === 1 && max === 1) return inner;
    const groups: number[] = [];
    collectPlanGroups(inner.plan, groups);
    // Fixed text repeated a fixed number of times is fixed text.
    if (inner.plan.kind === "text" && min === max && groups.length === 0)
      return { plan: { kind: "text", text: inner.plan.text.repeat(min) }, minLength: inner.minLength * min };
    // The average count, as st.lists sets it: about min(max(2·min, min + 5), (min + max) / 2).
    const average = Math.min(Math.max(min * 2, min + 5), 0.5 * (min + max));
    const extra = Math.max(average - min, 0.5);
    return {
      plan: {
        kind: "repeat",
        item: inner.plan,
        min,
        max,
        more: { p: extra / (extra + 1) },
        groups,
        canBeEmpty: inner.minLength === 0,
      },
      minLength: inner.minLength * min,
    };
  }

  private characterSet(e: AST.CharacterSet, mode: CharMode): IntervalSet {
    if (e.kind === "any") return dotSet(mode);
    if (e.kind === "property") {
      if (e.strings) this.unsupported(`a property of strings (${e.raw})`);
      const set = intersect(propertySet(e.key, e.value), universeOf(mode));
      // With `v`, \P{…} is the complement of the property's case closure (with `u`, of the property itself).
      return e.negate ? complement(mode.unicodeSets ? caseClosure(set, mode) : set, mode) : set;
    }
    return escapeSet(e.kind, e.negate, mode);
  }

  /** A class's characters before its own negation (which `chars` applies after the case closure). */
  private classSet(e: AST.CharacterClass | AST.ExpressionCharacterClass, mode: CharMode): IntervalSet {
    if (mode.unicodeSets && mode.ignoreCase) this.mayFail = true; // `v` folds case its own way: checked
    if (e.type === "ExpressionCharacterClass") return this.expression(e.expression, mode);
    return union(...e.elements.map((x) => this.classElement(x, mode)));
  }

  private classElement(x: AST.CharacterClassElement | AST.ClassSetOperand, mode: CharMode): IntervalSet {
    switch (x.type) {
      case "Character":
        return single(x.value);
      case "CharacterClassRange":
        return new IntervalSet([[x.min.value, x.max.value]]);
      case "CharacterSet":
        return this.characterSet(x, mode);
      case "CharacterClass": {
        const inner = this.classSet(x, mode);
        return x.negate ? complement(caseClosure(inner, mode), mode) : inner;
      }
      case "ExpressionCharacterClass": {
        const inner = this.expression(x.expression, mode);
        return x.negate ? complement(caseClosure(inner, mode), mode) : inner;
      }
      case "ClassStringDisjunction": {
        const chars = x.alternatives.map((a) => (a.elements.length === 1 ? a.elements[0].value : -1));
        if (chars.includes(-1)) this.unsupported(`a string in a class (${x.raw})`);
        return union(...chars.map((c) => single(c)));
      }
    }
  }

  private expression(x: AST.ClassIntersection | AST.ClassSubtraction, mode: CharMode): IntervalSet {
    const side = (s: AST.ClassIntersection | AST.ClassSubtraction | AST.ClassSetOperand): IntervalSet =>
      s.type === "ClassIntersection" || s.type === "ClassSubtraction"
        ? this.expression(s, mode)
        : caseClosure(this.classElement(s, mode), mode);
    const left = side(x.left);
    const right = side(x.right);
    return x.type === "ClassIntersection" ? intersect(left, right) : subtract(left, right);
  }

  /**
   * One character from `set` (as written); with `i` also from what the case closure adds, as a second part
   * picked after the first, so the simplest character is one as written. A negated class is the complement of
   * its closure, in one part.
   */
  private chars(set: IntervalSet, mode: CharMode, negate: boolean): Sized | null {
    let parts: IntervalSet[];
    if (negate) parts = [complement(caseClosure(set, mode), mode)];
    else {
      const closed = caseClosure(set, mode);
      parts = closed.size === set.size ? [set] : [set, subtract(closed, set)];
    }
    parts = parts.filter((p) => p.size > 0);
    if (parts.length === 0) return null;
    if (mode.unicode && parts.some(onlySurrogates)) this.mayFail = true; // two may pair up into one code point
    const made = parts.map(charPart);
    if (made.length === 1 && made[0].choice === null)
      return { plan: { kind: "text", text: made[0].only }, minLength: made[0].only.length };
    const plan = { kind: "char", parts: made, pick: pickAmong(made.length) } as unknown as Extract<
      Plan,
      { kind: "char" }
    >;
    // A cache filled while drawing: not enumerable, as the database key walks a strategy's enumerable fields and
    // must not change as it draws (property/key.ts).
    Object.defineProperty(plan, "narrowed", { value: new Map(), enumerable: false });
    return { plan, minLength: 1 };
  }
}

function universeOf(mode: CharMode): IntervalSet {
  return complement(NO_CHARACTERS, mode);
}

function single(cp: number): IntervalSet {
  return new IntervalSet([[cp, cp]]);
}

/** A drawing part for the characters of `set` (not empty). */
export function charPart(set: IntervalSet): CharPart {
  const alphabet = drawable(set);
  const only = alphabet.size === 1 ? String.fromCodePoint(alphabet.intervals[0][0]) : "";
  return { set, choice: alphabet.size === 1 ? null : { alphabet, minSize: 1, maxSize: 1 }, only };
}

export function pickAmong(n: number): IntegerConstraints {
  return { min: 0, max: n - 1, shrinkTowards: 0 };
}

function collectPlanGroups(p: Plan, out: number[]): void {
  switch (p.kind) {
    case "group":
      out.push(p.index);
      collectPlanGroups(p.item, out);
      return;
    case "seq":
      for (const x of p.items) collectPlanGroups(x, out);
      return;
    case "alt":
      for (const x of p.options) collectPlanGroups(x, out);
      return;
    case "repeat":
      collectPlanGroups(p.item, out);
      return;
    default:
      return;
  }
}

/** The mode inside `(?ims-ims:…)`. */
function withModifiers(mode: CharMode, m: AST.Modifiers): CharMode {
  const set = (name: "ignoreCase" | "dotAll" | "multiline"): boolean =>
    m.remove?.[name] === true ? false : m.add[name] ? true : mode[name];
  return { ...mode, ignoreCase: set("ignoreCase"), dotAll: set("dotAll"), multiline: set("multiline") };
}
