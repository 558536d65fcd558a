/**
 * The characters one atom of a regular expression matches, as an IntervalSet: st.fromRegex draws each character
 * from such a set, so what it draws matches by construction. The sets follow the language's own definitions
 * (ECMAScript's CharacterClassEscape, CharacterSetMatcher and Canonicalize), and wherever the language leans on
 * Unicode data — `\s`, `\p{…}`, what `i` makes equal — the data is read from the running engine's own RegExp,
 * so the sets agree with the RegExp that checks the values, whatever Unicode version it has.
 */
import { IntervalSet } from "../../choice/intervals.ts";
import type { Intervals } from "../../choice/intervals.ts";

/** The flags that change what a character atom matches, in force where it stands (modifiers change i, m, s). */
export interface CharMode {
  /** `u` or `v`: code points rather than UTF-16 code units. */
  readonly unicode: boolean;
  readonly unicodeSets: boolean;
  readonly ignoreCase: boolean;
  readonly dotAll: boolean;
  readonly multiline: boolean;
}

const SURROGATES = new IntervalSet([[0xd800, 0xdfff]]);
const BMP = new IntervalSet([[0, 0xffff]]);
const ALL = new IntervalSet([[0, 0x10ffff]]);
const EMPTY = new IntervalSet([]);
/** `\n`, `\r`, U+2028, U+2029: what `.` skips without `s`, and where `^` and `$` match with `m`. */
export const LINE_TERMINATORS = new IntervalSet([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);
const DIGITS = new IntervalSet([[0x30, 0x39]]);
const BASIC_WORD = new IntervalSet([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);

export { EMPTY as NO_CHARACTERS };

/** Every character of the mode: code units without `u`/`v`, code points with. */
export function universe(mode: CharMode): IntervalSet {
  return mode.unicode ? ALL : BMP;
}

export function union(...sets: IntervalSet[]): IntervalSet {
  return new IntervalSet(sets.flatMap((s) => s.intervals));
}

export function intersect(a: IntervalSet, b: IntervalSet): IntervalSet {
  const out: [number, number][] = [];
  const x = a.intervals;
  const y = b.intervals;
  for (let i = 0, j = 0; i < x.length && j < y.length;) {
    const lo = Math.max(x[i][0], y[j][0]);
    const hi = Math.min(x[i][1], y[j][1]);
    if (lo <= hi) out.push([lo, hi]);
    if (x[i][1] < y[j][1]) i++;
    else j++;
  }
  return new IntervalSet(out);
}

/** The characters of `within` that are not in `set`. */
export function subtract(within: IntervalSet, set: IntervalSet): IntervalSet {
  const out: [number, number][] = [];
  for (const [lo, hi] of within.intervals) {
    let from = lo;
    for (const [a, b] of set.intervals) {
      if (b < from) continue;
      if (a > hi) break;
      if (a > from) out.push([from, a - 1]);
      from = b + 1;
      if (from > hi) break;
    }
    if (from <= hi) out.push([from, hi]);
  }
  return new IntervalSet(out);
}

export function complement(set: IntervalSet, mode: CharMode): IntervalSet {
  return subtract(universe(mode), set);
}

/**
 * What a string choice may draw for an atom matching `set`: the set without the surrogates, unless it holds
 * nothing else. A lone surrogate matches `.` or `[^a]`, but a string made of them is ill-formed text few inputs
 * ever hold; a set of surrogates alone (`[\ud800-\udbff]` without `u`) still draws them.
 */
export function drawable(set: IntervalSet): IntervalSet {
  const without = subtract(set, SURROGATES);
  return without.size > 0 ? without : set;
}

/** Whether every character of the set is a surrogate (the set is not empty). */
export function onlySurrogates(set: IntervalSet): boolean {
  return set.size > 0 && subtract(set, SURROGATES).size === 0;
}

// ------------------------------------------------------------------------------- data read from the engine

/** Characters to scan, as one string each: the BMP without surrogates, and every code point without them. */
let bmpText: string | undefined;
let allText: string | undefined;

function scanText(astral: boolean): string {
  if (!astral) return (bmpText ??= textOf(0xffff));
  return (allText ??= textOf(0x10ffff));
}

function textOf(last: number): string {
  const parts: string[] = [];
  const chunk: number[] = [];
  for (let cp = 0; cp <= last; cp++) {
    if (cp === 0xd800) cp = 0xe000;
    chunk.push(cp);
    if (chunk.length === 4096 || cp === last) {
      parts.push(String.fromCodePoint(...chunk));
      chunk.length = 0;
    }
  }
  return parts.join("");
}

/** The code point at a UTF-16 offset of scanText's string (surrogates left out, astral ones two units each). */
function codePointAt(offset: number): number {
  if (offset < 0xd800) return offset;
  if (offset < 0xf800) return offset + 0x800;
  return 0x10000 + ((offset - 0xf800) >> 1);
}

/**
 * The characters a one-character RegExp source matches, read from the engine: each run of matches over every
 * character in order is one interval; surrogates are tested one by one. `astral` scans the code points above the
 * BMP too (a `u` source).
 */
function scan(source: string, flags: string, astral: boolean): IntervalSet {
  const text = scanText(astral);
  const runs = new RegExp(`(?:${source})+`, `g${flags}`);
  const out: [number, number][] = [];
  for (let m = runs.exec(text); m !== null; m = runs.exec(text)) {
    const first = codePointAt(m.index);
    const end = m.index + m[0].length;
    const last = codePointAt(end - (end > 0xf800 ? 2 : 1));
    if (first < 0xd800 && last > 0xdfff) out.push([first, 0xd7ff], [0xe000, last]);
    else out.push([first, last]);
  }
  const one = new RegExp(`^(?:${source})$`, flags);
  for (let cp = 0xd800; cp <= 0xdfff; cp++) if (one.test(String.fromCharCode(cp))) out.push([cp, cp]);
  return new IntervalSet(out);
}

const scanned = new Map<string, IntervalSet>();

function cachedScan(source: string, flags: string, astral: boolean): IntervalSet {
  const key = `${flags}/${astral}/${source}`;
  let set = scanned.get(key);
  if (set === undefined) scanned.set(key, (set = scan(source, flags, astral)));
  return set;
}

/** White space and line terminators (`\s`), as the engine knows them. */
function spaces(): IntervalSet {
  return cachedScan("\\s", "", false);
}

/** A Unicode property escape's characters, `\p{key=value}` or `\p{value}`, as the engine knows them. */
export function propertySet(key: string, value: string | null): IntervalSet {
  return cachedScan(`\\p{${value === null ? key : `${key}=${value}`}}`, "u", true);
}

/**
 * The characters that have another character `i` may make equal to them: those that change under some case
 * mapping or under case folding. A set's case closure can only add characters from these, so it is enough to ask
 * the engine about them.
 */
function caseCandidates(mode: CharMode): IntervalSet {
  return cachedScan("[\\p{CWCM}\\p{CWCF}]", "u", mode.unicode);
}

function escapeInterval(lo: number, hi: number, mode: CharMode): string {
  const one = (cp: number) => (mode.unicode ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, "0")}`);
  return lo === hi ? one(lo) : `${one(lo)}-${one(hi)}`;
}

/** A RegExp class source for a set, in the mode's syntax. */
function classSource(set: Intervals, mode: CharMode): string {
  return `[${set.map(([lo, hi]) => escapeInterval(lo, hi, mode)).join("")}]`;
}

/**
 * What `set` matches under `i`: every character the mode's Canonicalize makes equal to one of its characters
 * (simple case folding with `u`/`v`, upper-casing without). The engine's RegExp answers for each candidate.
 */
export function caseClosure(set: IntervalSet, mode: CharMode): IntervalSet {
  if (!mode.ignoreCase || set.size === 0) return set;
  const candidates = subtract(intersect(caseCandidates(mode), universe(mode)), set);
  if (candidates.size === 0) return set;
  const matcher = new RegExp(`^${classSource(set.intervals, mode)}$`, mode.unicode ? "iu" : "i");
  const added: [number, number][] = [];
  for (const [lo, hi] of candidates.intervals)
    for (let cp = lo; cp <= hi; cp++) if (matcher.test(String.fromCodePoint(cp))) added.push([cp, cp]);
  return added.length === 0 ? set : union(set, new IntervalSet(added));
}

// ------------------------------------------------------------------------------- the atoms

/** Word characters for `\w` and `\b`: with `i` and `u`/`v`, also the characters that fold into them (ſ, K). */
export function wordSet(mode: CharMode): IntervalSet {
  return mode.ignoreCase && mode.unicode ? caseClosure(BASIC_WORD, mode) : BASIC_WORD;
}

/** `\d`, `\s`, `\w` and their negations `\D`, `\S`, `\W` (the complement of what the lower-case one matches). */
export function escapeSet(kind: "digit" | "space" | "word", negate: boolean, mode: CharMode): IntervalSet {
  const set = kind === "digit" ? DIGITS : kind === "space" ? spaces() : wordSet(mode);
  return negate ? complement(set, mode) : set;
}

/** `.`: everything, or everything but the line terminators without `s`. */
export function dotSet(mode: CharMode): IntervalSet {
  return mode.dotAll ? universe(mode) : complement(LINE_TERMINATORS, mode);
}

export { BASIC_WORD };
