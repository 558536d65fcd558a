/**
 * Which names a file binds, and where they are visible, read from the tokens of `scan.ts`: its imports (what
 * discovery needs to know which `property`/`machine` is ours, and what the quick fixes need to find a machine's
 * class in another file) and whether a declaration is in scope at an offset (a regression test inserted after
 * the enclosing test may only use names declared around it, not inside it).
 *
 * Like the rest of `source/`, it never fails on half-typed code: what it cannot read, it does not report.
 */
import type { Tokenized } from "./scan.ts";
import { OPENERS } from "./scan.ts";

/** One name an import (or a `require`) binds in the file. */
export interface ImportBinding {
  /** The local name. */
  readonly local: string;
  /** `"*"` for a namespace (`import * as x`, `const x = require(…)`), `"default"` for a default import, else the imported name. */
  readonly imported: string;
  readonly specifier: string;
  /** For a name in a `{ … }` list (`import { a }`, `const { a } = require(…)`): the list's brace tokens, where a name can be added. */
  readonly braces?: readonly [open: number, close: number];
}

/**
 * Every import binding in source order: `import a, { b, c as d } from "m"`, `import * as ns from "m"`,
 * `const ns = require("m")`, `const { b, c: d } = require("m")`. Type-only imports (`import type …`) bind no
 * value and are left out.
 */
export function importBindings(t: Tokenized): ImportBinding[] {
  const out: ImportBinding[] = [];
  const add = (specifier: string | undefined, pairs: ReadonlyArray<readonly [imported: string, local: string]>, braces?: readonly [number, number]): void => {
    if (specifier !== undefined) for (const [imported, local] of pairs) out.push({ local, imported, specifier, ...(braces && imported !== "*" && imported !== "default" ? { braces } : {}) });
  };
  for (let i = 0; i < t.n; i++) {
    const word = t.ident(i);
    if (word === "import" && !t.isMemberAccess(i) && !t.is(i + 1, "(") && !t.is(i + 1, ".")) {
      let j = i + 1;
      if (t.ident(j) === "type" && !t.is(j + 1, ",") && t.ident(j + 1) !== "from") continue;
      const pairs: Array<readonly [string, string]> = [];
      let braces: readonly [number, number] | undefined;
      const first = t.ident(j);
      if (first !== undefined && first !== "from") {
        pairs.push(["default", first]);
        j++;
        if (t.is(j, ",")) j++;
      }
      if (t.is(j, "*") && t.ident(j + 1) === "as" && t.ident(j + 2) !== undefined) {
        pairs.push(["*", t.ident(j + 2)!]);
        j += 3;
      } else if (t.is(j, "{")) {
        pairs.push(...specifiers(t, j, "as"));
        braces = [j, t.close[j]!];
        j = t.close[j]! + 1;
      }
      if (t.ident(j) === "from") add(t.string(j + 1), pairs, braces);
    } else if ((word === "const" || word === "let" || word === "var") && (t.is(i + 2, "=") || t.is(i + 1, "{"))) {
      const destructured = t.is(i + 1, "{");
      const eq = destructured ? t.close[i + 1]! + 1 : i + 2;
      if (!t.is(eq, "=") || t.ident(eq + 1) !== "require" || !t.is(eq + 2, "(")) continue;
      const specifier = t.string(eq + 3);
      if (destructured) add(specifier, specifiers(t, i + 1, ":"), [i + 1, t.close[i + 1]!]);
      else if (t.ident(i + 1) !== undefined) add(specifier, [["*", t.ident(i + 1)!]]);
    }
  }
  return out;
}

/** Our package, or a relative path (the project's own tests, or a user's re-export). */
export function isOurModule(specifier: string): boolean {
  return specifier === "shrinkscope" || specifier.startsWith("shrinkscope/") || specifier.startsWith(".") || specifier.startsWith("/");
}

/** Which identifiers call our exports `names` in this file. */
export interface OurNames<N extends string> {
  /** Local name → export: each of `names` unless imported from elsewhere, plus renamed imports of them. */
  readonly bare: Map<string, N>;
  /** `import * as ss from "shrinkscope"` / `const ss = require(…)`: `ss.name(…)` counts. */
  readonly namespaces: Set<string>;
}

/**
 * What our exports `names` are called in this file: by default the bare names are ours, but
 * `import { find } from "lodash"` makes `find` not ours; `import { property as p } from "shrinkscope"` makes `p`
 * ours; a namespace (or default) import makes `ss.property` ours.
 */
export function ourNames<N extends string>(t: Tokenized, names: ReadonlySet<N>): OurNames<N> {
  const bare = new Map<string, N>([...names].map((c) => [c, c]));
  const namespaces = new Set<string>();
  for (const b of importBindings(t)) {
    const ours = isOurModule(b.specifier);
    if (b.imported === "*" || b.imported === "default") {
      if (ours) namespaces.add(b.local);
    } else if (ours && names.has(b.imported as N)) bare.set(b.local, b.imported as N);
    else if (!ours) bare.delete(b.local);
  }
  return { bare, namespaces };
}

/** `{ a, b as c }` (or `{ a, b: c }` for destructuring) → [imported, local] pairs. */
function specifiers(t: Tokenized, open: number, rename: "as" | ":"): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const end = t.close[open]!;
  for (let k = open + 1; k < end; k++) {
    let imported = t.ident(k);
    if (imported === undefined) continue;
    if (imported === "type" && t.ident(k + 1) !== undefined && t.ident(k + 1) !== "as") imported = t.ident(++k)!;
    const renamed = rename === "as" ? t.ident(k + 1) === "as" : t.is(k + 1, ":");
    const local = renamed ? t.ident(k + 2) : imported;
    if (local !== undefined) out.push([imported, local]);
    if (renamed) k += 2;
    while (k + 1 < end && !t.is(k + 1, ",")) k++;
  }
  return out;
}

/** The innermost bracket (its opener's token index) around token `i`, or -1 at the top level. */
export function enclosingBracket(t: Tokenized, i: number): number {
  let found = -1;
  for (let j = 0; j < i; j++) {
    const tok = t.tokens[j]!;
    // Brackets nest (matchBrackets closes skipped openers implicitly), so a later opener that is still open is deeper.
    if (tok.kind === "punct" && OPENERS[tok.text] !== undefined && t.close[j]! > i) found = j;
  }
  return found;
}

const VARIABLES = new Set(["const", "let", "var"]);
const DECLARES = new Set([...VARIABLES, "class", "function"]);

/**
 * Where declarations of `name` start: `class name`, `function name` (`async`, `function*` too), `const|let|var
 * name`, and a `name` bound by a destructuring `const { a: name } = …`. Token indices of the declaring keyword.
 */
function declarations(t: Tokenized, name: string): number[] {
  const out: number[] = [];
  for (let i = 1; i < t.n; i++) {
    if (t.ident(i) !== name || t.isMemberAccess(i)) continue;
    const before = t.is(i - 1, "*") && t.ident(i - 2) === "function" ? i - 2 : i - 1;
    if (DECLARES.has(t.ident(before) ?? "") && !t.isMemberAccess(before)) {
      out.push(before);
      continue;
    }
    // In a pattern: a binding, not a key (`{ key: name }`, `{ name }`, `{ name = 1 }`, `[a, name]`).
    if (t.is(i + 1, ":") || !(t.is(i - 1, "{") || t.is(i - 1, ",") || t.is(i - 1, "[") || t.is(i - 1, ":") || t.is(i - 1, "..."))) continue;
    for (let b = enclosingBracket(t, i); b >= 0 && (t.is(b, "{") || t.is(b, "[")); b = enclosingBracket(t, b)) {
      if (VARIABLES.has(t.ident(b - 1) ?? "") && t.is(t.close[b]! + 1, "=")) {
        out.push(b - 1);
        break;
      }
    }
  }
  return out;
}

/**
 * Whether `name` is declared where code at `offset` can see it: imported, or declared (by the forms of
 * `declarations`) in a bracket that also holds `offset`. Names the file does not declare (globals, parameters)
 * count as not visible: the callers then offer nothing rather than code that may not resolve.
 */
export function visibleAt(t: Tokenized, name: string, offset: number): boolean {
  if (importBindings(t).some((b) => b.local === name)) return true;
  return declarations(t, name).some((d) => {
    const scope = enclosingBracket(t, d);
    if (scope < 0) return true;
    const close = t.close[scope]!;
    return t.tokens[scope]!.end <= offset && (close >= t.n || offset <= t.tokens[close]!.start);
  });
}
