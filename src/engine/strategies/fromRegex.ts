/**
 * st.fromRegex: strings a regular expression matches, drawn by walking its syntax tree (parsed by
 * @eslint-community/regexpp, made into a plan by regex/plan.ts, drawn by regex/draw.ts) rather than by
 * generating text and keeping what matches, which would almost never match. Each choice is one decision of the
 * match — which alternative, one more repetition or not, which character — so shrinking deletes repetitions
 * and simplifies characters, and the simplest string is the shortest match. Without `fullMatch` the match sits
 * in arbitrary text, as RegExp.prototype.test finds it, empty at its simplest.
 */
import { RegExpParser } from "@eslint-community/regexpp";
import type { StringConstraints } from "../choice/types.ts";
import { intersect } from "./regex/charSets.ts";
import { IntervalSet } from "../choice/intervals.ts";
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { describe, Strategy } from "./strategy.ts";
import { checkBoolean, checkOptions, describeThrown, guard } from "./options.ts";
import { compile } from "./regex/plan.ts";
import type { Plan } from "./regex/plan.ts";
import { Drawing, PADDING } from "./regex/draw.ts";
import type { Allowed } from "./regex/draw.ts";

/**
 * Options of {@link fromRegex}.
 *
 * @example
 * st.fromRegex(/\d{3}-\d{4}/, { fullMatch: true }); // "000-0000", "512-0917", … and nothing around them
 */
export interface FromRegexOptions {
  /**
   * The whole string matches the pattern (as if it were wrapped in `^(?:…)$`, whatever `m` says). Default
   * false: the string holds a match, with arbitrary text before and after it unless an anchor rules that out.
   */
  fullMatch?: boolean;
}

const MAX_SIZE = 2 ** 31 - 1;
const FREE_PADDING: StringConstraints = { alphabet: PADDING, minSize: 0, maxSize: MAX_SIZE };
/** How many padding constraints (one per set an assertion leaves) a strategy keeps. */
const PADDINGS_KEPT = 16;

class FromRegex extends Strategy<string | null> {
  /** Padding constraints by the set an assertion leaves (private: the database key must not change as it draws). */
  readonly #paddings = new Map<IntervalSet, StringConstraints | null>();
  constructor(
    private readonly plan: Plan,
    private readonly groupCount: number,
    private readonly unicode: boolean,
    private readonly fullMatch: boolean,
    /** The RegExp's own verdict, for patterns whose strings may not match (CompiledRegex.mayFail); else null. */
    private readonly matches: ((s: string) => boolean) | null,
  ) {
    super(undefined);
  }

  protected doDraw(tc: TestCase): string | null {
    const d = new Drawing(tc, this.groupCount, this.unicode, !this.fullMatch);
    d.draw(this.plan);
    d.finish();
    let s = d.text;
    if (!this.fullMatch) {
      // The match first, then what goes before it (its needs are known only once the match is drawn), then after.
      const before = this.padding(tc, d.before);
      const after = this.padding(tc, d.pending);
      if (before === null || after === null) return null;
      s = before + s + after;
    } else if (d.pending !== null && !d.pending.edge) return null;
    if (d.failed) return null;
    return this.matches === null || this.matches(s) ? s : null;
  }

  override draw(tc: TestCase): string | null {
    return this.doDraw(tc);
  }

  /** Text next to the match, of the characters `allowed` leaves (all of them when null); null when none can go. */
  private padding(tc: TestCase, allowed: Allowed | null): string | null {
    if (allowed === null) return tc.drawString(FREE_PADDING);
    let c = this.#paddings.get(allowed.set);
    if (c === undefined) {
      const alphabet = intersect(PADDING, allowed.set);
      c = alphabet.size === 0 ? null : { alphabet, minSize: 0, maxSize: MAX_SIZE };
      if (this.#paddings.size < PADDINGS_KEPT) this.#paddings.set(allowed.set, c);
    }
    if (c === null) return allowed.edge ? "" : null;
    // Only characters `allowed` names may touch the match; with no edge allowed, at least one must.
    return tc.drawString(allowed.edge ? c : { ...c, minSize: 1 });
  }
}

/**
 * Strings that `pattern` matches — `pattern.test(s)`, or with `fullMatch` the whole of `s`. Supported: characters
 * and escapes, classes (negated, ranges, `\d \w \s`, `\p{…}` with `u`, `v`'s set operations), `.`, quantifiers
 * greedy or lazy, groups, named groups and back-references, alternation, the anchors `^ $ \b \B`, look-aheads
 * (checked with the RegExp itself), and the flags `i m s u v` (`d g y` change nothing here). Shrinks toward the
 * shortest match: the shortest alternative, the fewest repetitions, the simplest characters ("0", then "1", …
 * "A", … "a", …). Look-behinds and strings in classes throw InvalidArgument.
 *
 * @example
 * st.fromRegex(/[a-z]+@x\.com/, { fullMatch: true }); // simplest "a@x.com"
 * st.fromRegex("\\d{3}-\\d{2}", { fullMatch: true }); // simplest "000-00"
 * st.fromRegex(/^[A-Z]{2}\d{2}/); // "AA00", then anything after it
 */
export function fromRegex(pattern: RegExp | string, options?: FromRegexOptions): Strategy<string> {
  const api = "st.fromRegex";
  const o = checkOptions(api, options, ["fullMatch"]);
  checkBoolean(api, "fullMatch", o.fullMatch);
  const fullMatch = o.fullMatch === true;
  const { source, flags } = readPattern(api, pattern);
  const shown = `/${source}/${flags}`;
  const has = (f: string) => flags.includes(f);
  const unicode = has("u") || has("v");
  let ast;
  try {
    ast = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(source, 0, source.length, {
      unicode: has("u"),
      unicodeSets: has("v"),
    });
  } catch (e) {
    invalid(api, `${shown} could not be read: ${describeThrown(e)}`);
  }
  const compiled = compile(
    ast,
    { unicode: has("u"), unicodeSets: has("v"), ignoreCase: has("i"), dotAll: has("s"), multiline: has("m") },
    api,
    shown,
  );
  if (compiled === null) invalid(api, `${shown} matches no string (a class or set in it has no character)`);
  const strategy = new FromRegex(
    compiled.plan,
    compiled.groupCount,
    unicode,
    fullMatch,
    compiled.mayFail ? verdict(source, flags, fullMatch) : null,
  );
  // A pattern with assertions or look-aheads: a drawn string that does not match is drawn again (a filter's
  // retries, then the case is rejected).
  return compiled.mayFail ? strategy.filter((s): s is string => s !== null) : (strategy as Strategy<string>);
}

/** The RegExp's verdict on a string: it holds a match, or with `fullMatch` is one. */
function verdict(source: string, flags: string, fullMatch: boolean): (s: string) => boolean {
  const plain = flags.replace(/[gy]/g, "");
  if (!fullMatch) {
    const re = new RegExp(source, plain);
    return (s) => re.test(s);
  }
  // Sticky at 0, and nothing after the match: a match of the whole string, whatever `m` makes of `^` and `$`.
  const re = new RegExp(`(?:${source})(?![\\s\\S])`, `${plain}y`);
  return (s) => {
    re.lastIndex = 0;
    return re.test(s);
  };
}

/** The pattern's source and flags, checked by the engine's own RegExp. */
function readPattern(api: string, pattern: unknown): { source: string; flags: string } {
  if (typeof pattern === "string") {
    try {
      new RegExp(pattern);
    } catch (e) {
      invalid(api, `${JSON.stringify(pattern)} is not a valid regular expression: ${describeThrown(e)}`);
    }
    return { source: pattern, flags: "" };
  }
  const read = guard(api, "reading the pattern", () => {
    if (Object.prototype.toString.call(pattern) !== "[object RegExp]") return null;
    const re = pattern as RegExp;
    return { source: String(re.source), flags: String(re.flags) };
  });
  if (read === null) invalid(api, `pattern must be a RegExp or a string, got ${describe(pattern)}`);
  try {
    new RegExp(read.source, read.flags);
  } catch (e) {
    invalid(api, `/${read.source}/${read.flags} is not a valid regular expression: ${describeThrown(e)}`);
  }
  return read;
}
