/**
 * The one binding resolver: which declaration a name means at a place in the file, by JavaScript's own scoping.
 * A name resolves to the innermost declaration whose scope holds the reference: `let`, `const`, `class` and
 * `function` declarations are visible in their block, `var` in its function, parameters in their function, imports
 * in the whole module; a name declared in a sibling block is not visible, and an inner declaration shadows an outer
 * one. Position inside the scope does not matter (a declaration later in the block is the one a reference means,
 * as in JavaScript). A name with no declaration around it is a global: `resolve` says undefined.
 *
 * Discovery (`test("x", p)`), the quick fixes (`check(p)`, a named body or settings object, the machine's class)
 * and the regression test's checks (is `LedgerMachine` visible where the test goes?) all ask this one resolver, so
 * they can never pick different declarations of the same name.
 *
 * It reads the tokens of `scan.ts` and, like the rest of `source/`, never fails on half-typed code: a declaration it
 * cannot read is left out, and brackets that never close run to the end of the file.
 */
import type { Tokenized } from "./tokens.ts";
import { OPENERS } from "./tokens.ts";
import type { ImportBinding } from "./imports.ts";
import { expressionEnd, parseParams, returnTypeRange } from "./functions.ts";

export interface Declaration {
  readonly kind: "import" | "variable" | "function" | "class" | "parameter";
  readonly name: string;
  /** The token of the declared name. */
  readonly token: number;
  /** The declaring keyword's token (`const`, `function`, `class`, `import`); for a parameter, its name's. */
  readonly keyword: number;
  /**
   * Where the name is visible: tokens strictly between `open` and `close` (the brackets of its block, or of its
   * function's parameters and body); `open` is -1 and `close` the token count for the whole module.
   */
  readonly open: number;
  readonly close: number;
  /** A variable bound directly (`const name (: T)? = init`, not destructured): the initializer's first token. */
  readonly init?: number;
  /** For `const name: T = …`: the annotation's tokens. */
  readonly type?: readonly [number, number];
  /** An import (or a `require`): what it binds. */
  readonly binding?: ImportBinding;
}

/** Keywords whose `(…)` is a statement head, not a parameter list (`catch (e)` does bind its parameter). */
const HEADS = new Set(["if", "for", "while", "switch", "with"]);
const VARIABLES = new Set(["const", "let", "var"]);
/** Words that may stand before a declaration that starts a statement. */
const STATEMENT_PREFIX = new Set(["export", "default", "abstract", "async"]);
/** Keywords after which `function`/`class` is an expression (its name then binds only inside itself). */
const EXPRESSION_BEFORE = new Set([
  "return",
  "typeof",
  "void",
  "new",
  "yield",
  "await",
  "throw",
  "case",
  "in",
  "of",
  "instanceof",
  "delete",
  "extends",
]);

/** The declarations of a file, by name, each with its scope. */
export class Scopes {
  private readonly byName = new Map<string, Declaration[]>();
  /** For each token, the innermost bracket opener around it (-1 at the top level). */
  private readonly parent: Int32Array;
  /** Openers of function bodies (`{` after parameters or `=>`): where `var` stops. */
  private readonly functionBodies = new Set<number>();

  constructor(
    private readonly t: Tokenized,
    private readonly imports: readonly ImportBinding[],
  ) {
    this.parent = parents(t);
    this.collectParameters();
    this.collectImports();
    this.collectDeclarations();
  }

  /** The declaration `name` means at token `at`; undefined for a global (or a name the file does not declare). */
  resolve(name: string, at: number): Declaration | undefined {
    let best: Declaration | undefined;
    for (const d of this.byName.get(name) ?? []) {
      if (d.open < at && at < d.close && (best === undefined || d.open > best.open)) best = d;
    }
    return best;
  }

  /** The declaration of `name` at the top level of the module (what it exports), if any. */
  topLevel(name: string): Declaration | undefined {
    return (this.byName.get(name) ?? []).find((d) => d.open === -1);
  }

  /** Whether code inserted at `offset` would see a declaration of `name` (not a global). */
  visibleAt(name: string, offset: number): boolean {
    const { tokens, n } = this.t;
    return (this.byName.get(name) ?? []).some(
      (d) => (d.open < 0 || tokens[d.open]!.end <= offset) && (d.close >= n || offset <= tokens[d.close]!.start),
    );
  }

  private add(d: Declaration): void {
    const list = this.byName.get(d.name);
    if (list === undefined) this.byName.set(d.name, [d]);
    else list.push(d);
  }

  /** Imports bind in the whole module; a `require` destructured in a block binds in that block. */
  private collectImports(): void {
    for (const b of this.imports) {
      const [open, close] = this.t.ident(b.statement) === "import" ? [-1, this.t.n] : this.blockScope(b.statement);
      this.add({ kind: "import", name: b.local, token: b.token, keyword: b.statement, open, close, binding: b });
    }
  }

  /** Parameter lists (`(…) =>`, `x =>`, `function f(…) {`, a method's `name(…) {`, `catch (e) {`) bind in their function. */
  private collectParameters(): void {
    const t = this.t;
    for (let k = 0; k < t.n; k++) {
      if (t.ident(k) !== undefined && t.is(k + 1, "=>") && !t.isMemberAccess(k)) {
        const end = bodyEnd(t, k + 2, this.functionBodies);
        if (end !== undefined)
          this.add({ kind: "parameter", name: t.ident(k)!, token: k, keyword: k, open: k, close: end });
        continue;
      }
      if (!t.is(k, "(") || !t.proper[k] || HEADS.has(t.ident(k - 1) ?? "")) continue;
      let j = t.close[k]! + 1;
      const returnType = t.is(j, ":") ? returnTypeRange(t, j, t.n - 1) : undefined;
      if (returnType !== undefined) j = returnType[1] + 1;
      let end: number | undefined;
      if (t.is(j, "=>")) end = bodyEnd(t, j + 1, this.functionBodies);
      else if (t.is(j, "{") && t.proper[j] && (t.ident(k - 1) !== undefined || t.is(k - 1, ">") || t.is(k - 1, "*"))) {
        end = t.close[j]!;
        this.functionBodies.add(j);
      }
      if (end === undefined) continue;
      for (const [name, token] of parameterNames(t, k))
        this.add({ kind: "parameter", name, token, keyword: token, open: k, close: end });
    }
  }

  private collectDeclarations(): void {
    const t = this.t;
    const imported = new Set(this.imports.map((b) => b.statement));
    for (let i = 0; i < t.n; i++) {
      const word = t.ident(i);
      // `declare const x` / `declare function f`: an ambient declaration only describes a global defined elsewhere.
      if (word === undefined || t.isMemberAccess(i) || t.ident(i - 1) === "declare") continue;
      if (VARIABLES.has(word) && !imported.has(i)) this.variables(i);
      else if (word === "function" || word === "class") this.functionOrClass(i, word);
    }
  }

  /** `const a = 1, { b, c: d } = o, [e] = xs` (or `for (const x of xs)`): each name bound. */
  private variables(keyword: number): void {
    const t = this.t;
    const [open, close] = t.ident(keyword) === "var" ? this.functionScope(keyword) : this.blockScope(keyword);
    let k = keyword + 1;
    for (;;) {
      const name = t.ident(k);
      let patternEnd: number;
      const names: Array<[string, number]> = [];
      if (name !== undefined) {
        names.push([name, k]);
        patternEnd = k;
      } else if ((t.is(k, "{") || t.is(k, "[")) && t.proper[k]) {
        patternEnd = t.close[k]!;
        names.push(...patternNames(t, k, patternEnd));
      } else {
        return;
      }
      let j = patternEnd + 1;
      let type: readonly [number, number] | undefined;
      if (t.is(j, ":")) {
        const start = j + 1;
        j = typeEnd(t, start);
        if (j - 1 >= start) type = [start, j - 1];
      }
      const init = t.is(j, "=") ? j + 1 : undefined;
      for (const [n, token] of names) {
        this.add({
          kind: "variable",
          name: n,
          token,
          keyword,
          open,
          close,
          ...(name !== undefined && init !== undefined ? { init } : {}),
          ...(name !== undefined && type !== undefined ? { type } : {}),
        });
      }
      if (init === undefined || init >= t.n) return;
      const end = expressionEnd(t, init);
      if (!t.is(end + 1, ",")) return;
      k = end + 2;
    }
  }

  /** `function name` / `class name`: a declaration binds in its block; an expression's name only inside itself. */
  private functionOrClass(keyword: number, word: string): void {
    const t = this.t;
    let k = keyword + 1;
    if (word === "function" && t.is(k, "*")) k++;
    const name = t.ident(k);
    if (name === undefined || name === "extends" || name === "implements") return;
    let before = keyword - 1;
    while (before >= 0 && STATEMENT_PREFIX.has(t.ident(before) ?? "")) before--;
    // An expression follows an operator, `(`, `,`, `=`…, or a keyword like `return`; anything else ends a statement
    // (a `;`, a block's brace, or the last token of a line without semicolons).
    const prev = t.tokens[before];
    const expression =
      prev !== undefined &&
      (prev.kind === "punct"
        ? ![";", "{", "}", ")"].includes(prev.text)
        : prev.kind === "ident" && EXPRESSION_BEFORE.has(prev.text));
    const statement = !expression;
    const scope = statement ? this.blockScope(keyword) : this.ownScope(k);
    if (scope === undefined) return;
    this.add({
      kind: word === "function" ? "function" : "class",
      name,
      token: k,
      keyword,
      open: scope[0],
      close: scope[1],
    });
  }

  /** A function or class expression's own name: visible from its name to the end of its body. */
  private ownScope(nameToken: number): [number, number] | undefined {
    const t = this.t;
    for (let k = nameToken + 1; k < t.n && k < nameToken + 500; k++) {
      if (t.is(k, "{")) return [nameToken, t.close[k]!];
      if (t.is(k, "(") || t.is(k, "[")) k = t.close[k]!;
    }
    return undefined;
  }

  /** The scope of a block-scoped declaration whose keyword is token `k`. */
  private blockScope(k: number): [number, number] {
    const t = this.t;
    const p = this.parent[k]!;
    if (p < 0) return [-1, t.n];
    if (t.is(p, "(")) {
      // `for (const x of xs) body`: the head and the body.
      const after = t.close[p]! + 1;
      return [p, t.is(after, "{") ? t.close[after]! : after < t.n ? expressionEnd(t, after) + 1 : t.n];
    }
    return [p, t.close[p]!];
  }

  /** The scope of a `var`: its function's body, or the module. */
  private functionScope(k: number): [number, number] {
    for (let p = this.parent[k]!; p >= 0; p = this.parent[p]!)
      if (this.functionBodies.has(p)) return [p, this.t.close[p]!];
    return [-1, this.t.n];
  }
}

/** For each token, the innermost opener around it, from the matched brackets (an opener is not inside itself). */
function parents(t: Tokenized): Int32Array {
  const parent = new Int32Array(t.n).fill(-1);
  const stack: number[] = [];
  for (let i = 0; i < t.n; i++) {
    while (stack.length > 0 && t.close[stack[stack.length - 1]!]! <= i) stack.pop();
    parent[i] = stack.length > 0 ? stack[stack.length - 1]! : -1;
    const tok = t.tokens[i]!;
    if (tok.kind === "punct" && OPENERS[tok.text] !== undefined) stack.push(i);
  }
  return parent;
}

/** After `=>` at `first`: the last token of the arrow's body (its `}`), or the token after its expression. */
function bodyEnd(t: Tokenized, first: number, functionBodies: Set<number>): number | undefined {
  if (first >= t.n) return undefined;
  if (t.is(first, "{")) {
    functionBodies.add(first);
    return t.close[first]!;
  }
  return expressionEnd(t, first) + 1;
}

/** The names a parameter list binds, with their tokens. */
function parameterNames(t: Tokenized, open: number): Array<[string, number]> {
  const params = parseParams(t, open);
  if (params !== undefined)
    return params.flatMap((p) =>
      p.name !== undefined ? [[p.name, p.pattern[0]] as [string, number]] : patternNames(t, p.pattern[0], p.pattern[1]),
    );
  // A shape parseParams does not take apart (a TS `this` parameter, modifiers): the names that start each one.
  const out: Array<[string, number]> = [];
  for (const [first] of t.splitArguments(open, t.close[open]!)) {
    let k = first;
    while (t.ident(k) !== undefined && t.ident(k + 1) !== undefined) k++; // `private readonly x`
    const name = t.ident(k);
    if (name !== undefined && name !== "this") out.push([name, k]);
  }
  return out;
}

/**
 * The names a destructuring pattern `{ a, b: c, d = 1, ...e }` / `[f, [g]]` (tokens open..close) binds: not a
 * key (`b:`, `[key]:`), not what a default holds.
 */
function patternNames(t: Tokenized, open: number, close: number): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  const object = t.is(open, "{");
  for (const [first, last] of t.splitArguments(open, close)) {
    let k = first;
    if (t.is(k, "...")) k++;
    if (object) {
      // A key before `:` — a name, a string, a number or a computed `[…]` — is not bound; the pattern after it is.
      const keyEnd = t.is(k, "[") ? t.close[k]! : k;
      if (t.is(keyEnd + 1, ":")) k = keyEnd + 2;
    }
    if ((t.is(k, "{") || t.is(k, "[")) && t.proper[k] && t.close[k]! <= last)
      out.push(...patternNames(t, k, t.close[k]!));
    else if (t.ident(k) !== undefined) out.push([t.ident(k)!, k]);
  }
  return out;
}

/** The token after a type annotation starting at `start`: its `=`, `;`, `,` or `)`, or `of`/`in` in a for head. */
function typeEnd(t: Tokenized, start: number): number {
  let k = start;
  const limit = Math.min(t.n, start + 200);
  while (
    k < limit &&
    !t.is(k, "=") &&
    !t.is(k, ";") &&
    !t.is(k, ",") &&
    !t.is(k, ")") &&
    t.ident(k) !== "of" &&
    t.ident(k) !== "in"
  ) {
    if (t.is(k, "{") || t.is(k, "(") || t.is(k, "[")) k = t.close[k]! + 1;
    else if (t.is(k, "<")) k = t.typeArgumentsEnd(k) ?? k + 1;
    else k++;
  }
  return k;
}
