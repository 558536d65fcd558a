/**
 * The names a file imports, read from the tokens of `scan.ts`: what the recogniser of our calls needs to know
 * which `property`/`machine` is ours, what the quick fixes need to find a machine's class in another file or to
 * add `explore` to an import, and what runner detection reads (`vitest`, `node:test`, …). Where each name is
 * visible is the scope resolver's business (`scopes.ts`).
 *
 * Like the rest of `source/`, it never fails on half-typed code: what it cannot read, it does not report.
 */
import type { Tokenized } from "./tokens.ts";

/** One name an import (or a `require`) binds in the file. */
export interface ImportBinding {
  /** The local name. */
  readonly local: string;
  /** `"*"` for a namespace (`import * as x`, `const x = require(…)`), `"default"` for a default import, else the imported name. */
  readonly imported: string;
  readonly specifier: string;
  /** The token of the local name, and of the statement's first word (`import`, or the `const` of a `require`). */
  readonly token: number;
  readonly statement: number;
  /** For a name in a `{ … }` list (`import { a }`, `const { a } = require(…)`): the list's brace tokens, where a name can be added. */
  readonly braces?: readonly [open: number, close: number];
}

/** An imported name and the local one it binds, with the local name's token. */
type Pair = readonly [imported: string, local: string, token: number];

/**
 * Every import binding in source order: `import a, { b, c as d } from "m"`, `import * as ns from "m"`,
 * `const ns = require("m")`, `const { b, c: d } = require("m")`. Type-only imports (`import type …`) bind no
 * value and are left out.
 */
export function importBindings(t: Tokenized): ImportBinding[] {
  const out: ImportBinding[] = [];
  const add = (
    statement: number,
    specifier: string | undefined,
    pairs: readonly Pair[],
    braces?: readonly [number, number],
  ): void => {
    if (specifier !== undefined)
      for (const [imported, local, token] of pairs)
        out.push({
          local,
          imported,
          specifier,
          token,
          statement,
          ...(braces && imported !== "*" && imported !== "default" ? { braces } : {}),
        });
  };
  for (let i = 0; i < t.n; i++) {
    const word = t.ident(i);
    if (word === "import" && !t.isMemberAccess(i) && !t.is(i + 1, "(") && !t.is(i + 1, ".")) {
      let j = i + 1;
      if (t.ident(j) === "type" && !t.is(j + 1, ",") && t.ident(j + 1) !== "from") continue;
      const pairs: Pair[] = [];
      let braces: readonly [number, number] | undefined;
      const first = t.ident(j);
      if (first !== undefined && first !== "from") {
        pairs.push(["default", first, j]);
        j++;
        if (t.is(j, ",")) j++;
      }
      if (t.is(j, "*") && t.ident(j + 1) === "as" && t.ident(j + 2) !== undefined) {
        pairs.push(["*", t.ident(j + 2)!, j + 2]);
        j += 3;
      } else if (t.is(j, "{")) {
        pairs.push(...specifiers(t, j, "as"));
        braces = [j, t.close[j]!];
        j = t.close[j]! + 1;
      }
      if (t.ident(j) === "from") add(i, t.string(j + 1), pairs, braces);
    } else if ((word === "const" || word === "let" || word === "var") && (t.is(i + 2, "=") || t.is(i + 1, "{"))) {
      const destructured = t.is(i + 1, "{");
      const eq = destructured ? t.close[i + 1]! + 1 : i + 2;
      if (!t.is(eq, "=") || t.ident(eq + 1) !== "require" || !t.is(eq + 2, "(")) continue;
      const specifier = t.string(eq + 3);
      if (destructured) add(i, specifier, specifiers(t, i + 1, ":"), [i + 1, t.close[i + 1]!]);
      else if (t.ident(i + 1) !== undefined) add(i, specifier, [["*", t.ident(i + 1)!, i + 1]]);
    }
  }
  return out;
}

/** Our package, or a relative path (the project's own tests, or a user's re-export). */
export function isOurModule(specifier: string): boolean {
  return (
    specifier === "shrinkscope" ||
    specifier.startsWith("shrinkscope/") ||
    specifier.startsWith(".") ||
    specifier.startsWith("/")
  );
}

/** `{ a, b as c }` (or `{ a, b: c }` for destructuring) → [imported, local, local's token] triples. */
function specifiers(t: Tokenized, open: number, rename: "as" | ":"): Pair[] {
  const out: Pair[] = [];
  const end = t.close[open]!;
  for (let k = open + 1; k < end; k++) {
    let imported = t.ident(k);
    if (imported === undefined) continue;
    if (imported === "type" && t.ident(k + 1) !== undefined && t.ident(k + 1) !== "as") imported = t.ident(++k)!;
    const renamed = rename === "as" ? t.ident(k + 1) === "as" : t.is(k + 1, ":");
    const localToken = renamed ? k + 2 : k;
    const local = t.ident(localToken);
    if (local !== undefined) out.push([imported, local, localToken]);
    if (renamed) k += 2;
    while (k + 1 < end && !t.is(k + 1, ",")) k++;
  }
  return out;
}
