/**
 * A regression test from a property's minimal arguments: the property's own body run on them, reading like a
 * test a person would write.
 *   - an inline body with a block and plain parameters is inlined: each parameter becomes a declaration
 *     (`const xs: number[] = [0, 1];`, type annotations kept) followed by the body's own statements; an
 *     expression body becomes a statement;
 *   - where inlining would change what the code means (a `return` of a value, `this`/`arguments` in a
 *     `function`, a parameter redeclared by `var`, a default that would apply, type parameters the
 *     annotations name, a shared-references argument list) the body is called in place instead,
 *     `((xs) => { … })([0, 1])`;
 *   - a named body (`property(st.integers(), checkSorted)`) is called by name, `checkSorted(10)`, and awaited
 *     unless the file shows it is a plain synchronous function.
 * Async bodies make the test function `async`.
 */
import type { FunctionShape, Param, PlainBody, PropertyCall, SourceText } from "../read/index.ts";
import { readSnippet } from "../read/index.ts";
import { RETURNED_FALSE } from "../../../engine/internals.ts";
import type { Generated, Line } from "./generated.ts";
import { linesOf, wrap } from "./lines.ts";

/** The regression test's statements, unindented, and whether the test function must be async. */
export function testBody(call: PropertyCall, body: PlainBody, repro: string, ts: boolean): Generated | undefined {
  if (body.kind === "named")
    return {
      lines: [{ text: `${body.await ? "await " : ""}${body.text}(${repro});`, verbatim: false }],
      async: body.await,
    };
  const inlined = inline(call.t, body.fn, repro, ts);
  if (inlined !== undefined) return inlined;
  // Called in place. Awaited when it is async or returns a value (which may be a promise the engine awaited).
  return calledInPlace(call.t, body.range[0], body.range[1], repro, body.fn.async || returnsValue(call.t, body.fn));
}

/**
 * For a body that failed by returning false (a predicate): the body called on the arguments, and the test failing
 * as the property did when it returns false — `if ((await (xs) => …)([0, 0])) === false) throw …`. Inlined, or run
 * as a statement, its `false` would pass.
 */
export function resultChecked(call: PropertyCall, body: PlainBody, repro: string): Generated {
  const awaited = body.kind === "named" ? body.await : true;
  const open = `if ((${awaited ? "await " : ""}`;
  const close = `) === false) throw new Error(${JSON.stringify(RETURNED_FALSE)});`;
  if (body.kind === "named")
    return { lines: [{ text: `${open}${body.text}(${repro})${close}`, verbatim: false }], async: awaited };
  const t = call.t;
  return {
    lines: wrap(
      linesOf(t, t.tokens[body.range[0]]!.start, t.tokens[body.range[1]]!.end, false),
      `${open}(`,
      `)(${repro})${close}`,
    ),
    async: true,
  };
}

/** `(the expression at tokens first..last)(repro);`, awaited or not. */
export function calledInPlace(t: SourceText, first: number, last: number, repro: string, awaited: boolean): Generated {
  return {
    lines: wrap(
      linesOf(t, t.tokens[first]!.start, t.tokens[last]!.end, false),
      `${awaited ? "await " : ""}(`,
      `)(${repro});`,
    ),
    async: awaited,
  };
}

/** The body inlined: declarations for the parameters, then its statements; undefined when that would change its meaning. */
function inline(t: SourceText, fn: FunctionShape, repro: string, ts: boolean): Generated | undefined {
  if (fn.body.kind === "block" && returnsValue(t, fn)) return undefined;
  const lines = parameterDeclarations(t, fn, repro, ts);
  if (lines === undefined) return undefined;

  let async = fn.async;
  if (fn.body.kind === "block") {
    const { open, close } = fn.body;
    lines.push(...linesOf(t, t.tokens[open]!.end, t.tokens[close]!.start, true));
  } else {
    const { first, last } = fn.body;
    // A statement starting with these words would be a declaration, not the expression.
    if (["function", "class", "let"].includes(t.ident(first) ?? "") || t.is(first, "{")) return undefined;
    const expression = t.text(first, last);
    // The engine awaits a returned promise (`expect(p).resolves…`): so must the test.
    const awaited =
      /\.(resolves|rejects)\b|\.then\s*\(|\bPromise\b/.test(expression) && !/^\s*await\b/.test(expression);
    if (awaited) async = true;
    const exprLines = linesOf(t, t.tokens[first]!.start, t.tokens[last]!.end, false);
    const prefix = awaited ? "await " : "";
    exprLines[0] = { text: prefix + exprLines[0]!.text, verbatim: false };
    const end = exprLines.length - 1;
    exprLines[end] = { text: exprLines[end]!.text + ";", verbatim: exprLines[end]!.verbatim };
    lines.push(...exprLines);
  }
  return { lines, async };
}

/** The parameters declared as the minimal arguments; undefined when that would change what the body means. */
export function parameterDeclarations(
  t: SourceText,
  fn: FunctionShape,
  repro: string,
  ts: boolean,
): Line[] | undefined {
  if (fn.generator || fn.typeParameters || fn.params === undefined) return undefined;
  const args = reproArguments(repro);
  if (args === undefined) return undefined;
  const params = fn.params;
  const scope: readonly [number, number] =
    fn.body.kind === "block" ? [fn.body.open + 1, fn.body.close - 1] : [fn.body.first, fn.body.last];
  const names = params.flatMap((p) => boundNames(t, p));
  // `this` and `arguments` belong to a `function` body; in the test they would mean something else.
  if (!fn.arrow && anyToken(t, scope, (k) => t.ident(k) === "this" || t.ident(k) === "arguments")) return undefined;
  // `var x` / `function x` next to a parameter `x` is legal in a function, a redeclaration error after a `const x`.
  if (
    anyToken(
      t,
      scope,
      (k) =>
        names.includes(t.ident(k) ?? "") &&
        ["var", "function", "class"].includes(t.ident(k - 1) ?? "") &&
        !t.isMemberAccess(k),
    )
  )
    return undefined;
  const lines: Line[] = [];
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    let value: string;
    let literal: Literal | undefined;
    if (p.rest) {
      value = `[${args
        .slice(i)
        .map((a) => a.text)
        .join(", ")}]`;
    } else {
      const arg = args[i];
      // A missing or `undefined` argument would let a default apply: the call form states that exactly.
      if (arg === undefined || arg.text === "undefined") return undefined;
      value = arg.text;
      literal = arg.literal;
    }
    const declared =
      ts && p.type !== undefined
        ? `: ${t.text(p.type[0], p.type[1])}`
        : ts && literal !== undefined && p.name !== undefined
          ? `: ${literal}`
          : "";
    const keyword = boundNames(t, p).some((n) => reassigned(t, scope, n)) ? "let" : "const";
    lines.push({ text: `${keyword} ${t.text(p.pattern[0], p.pattern[1])}${declared} = ${value};`, verbatim: false });
  }
  return lines;
}

/** The widened type of a primitive literal argument: `const n = 10` alone would be typed `10`, and `n === 5` would not compile. */
type Literal = "number" | "string" | "boolean" | "bigint" | "never[]";

interface ReproArgument {
  readonly text: string;
  readonly literal: Literal | undefined;
}

/** The repro's arguments; undefined for the shared-references form (`...(() => { … })()`). */
function reproArguments(repro: string): ReproArgument[] | undefined {
  const r = readSnippet(repro);
  if (r.is(0, "...")) return undefined;
  return r.splitArguments(-1, r.n).map(([first, last]) => {
    const text = r.text(first, last);
    return { text, literal: literalType(r, first, last) };
  });
}

function literalType(r: SourceText, first: number, last: number): Literal | undefined {
  const k = r.is(first, "-") ? first + 1 : first;
  if (k !== last) return r.is(first, "[") && r.is(last, "]") && last === first + 1 ? "never[]" : undefined;
  const tok = r.tokens[k]!;
  if (tok.kind === "number") return /n$/.test(r.src.slice(tok.start, tok.end)) ? "bigint" : "number";
  if (k !== first) return undefined;
  if (tok.kind === "string" || (tok.kind === "template" && !tok.substitutions)) return "string";
  if (tok.text === "true" || tok.text === "false") return "boolean";
  return undefined;
}

/** The names a parameter binds (for a destructuring pattern, every name in it: a superset is only more careful). */
function boundNames(t: SourceText, p: Param): string[] {
  if (p.name !== undefined) return [p.name];
  const out: string[] = [];
  for (let k = p.pattern[0]; k <= p.pattern[1]; k++) {
    const name = t.ident(k);
    if (name !== undefined) out.push(name);
  }
  return out;
}

function anyToken(t: SourceText, [first, last]: readonly [number, number], test: (k: number) => boolean): boolean {
  for (let k = first; k <= last; k++) if (test(k)) return true;
  return false;
}

const ASSIGNMENT = /^(=(?!=)|\+=|-=|\*=|\/=|%=|\*\*=|<<=|>>=|>>>=|&=|\|=|\^=|&&=|\|\|=|\?\?=)/;

/** Whether the body assigns to `name` (`name = …`, `name += …`, `name++`): then it is declared with `let`. */
function reassigned(t: SourceText, scope: readonly [number, number], name: string): boolean {
  return anyToken(t, scope, (k) => {
    if (t.ident(k) !== name || t.isMemberAccess(k)) return false;
    if ((t.is(k - 1, "++") || t.is(k - 1, "--")) && t.touching(k - 1)) return true;
    if (t.is(k + 1, "++") || t.is(k + 1, "--")) return true;
    if (t.is(k - 1, "(") && t.ident(k - 2) === "for" && (t.ident(k + 1) === "of" || t.ident(k + 1) === "in"))
      return true;
    let op = "";
    for (
      let j = k + 1;
      j < t.n && op.length < 4 && t.tokens[j]!.kind === "punct" && (j === k + 1 || t.touching(j - 1));
      j++
    )
      op += t.tokens[j]!.text;
    return ASSIGNMENT.test(op);
  });
}

/** Control statements whose `(…) {` is a block, not a function or method body. */
const CONTROL = new Set(["if", "for", "while", "switch", "catch", "with", "await"]);

/**
 * Whether a block body has a `return <value>` of its own (not in a nested function). Inlined, that value
 * would become the test callback's return, which runners treat differently (jest rejects one).
 */
function returnsValue(t: SourceText, fn: FunctionShape): boolean {
  if (fn.body.kind === "expression") return true;
  const { open, close } = fn.body;
  for (let k = open + 1; k < close; k++) {
    if (t.is(k, "{") && nestedFunctionBody(t, k)) {
      k = t.close[k]!;
      continue;
    }
    if (t.ident(k) !== "return" || t.isMemberAccess(k)) continue;
    const next = t.tokens[k + 1];
    const bare =
      next === undefined ||
      t.is(k + 1, ";") ||
      k + 1 === close ||
      /[\n\r\u2028\u2029]/.test(t.src.slice(t.tokens[k]!.end, next.start));
    if (!bare) return true;
  }
  return false;
}

/** Whether the `{` at `k` opens a function's body: after `=>`, or after the `)` of a function's or method's parameters. */
function nestedFunctionBody(t: SourceText, k: number): boolean {
  if (t.is(k - 1, "=>")) return true;
  if (!t.is(k - 1, ")")) return false;
  // Find the `(` this `)` closes: walk back over the parameters by bracket matching.
  let depth = 0;
  for (let j = k - 1; j >= 0; j--) {
    if (t.is(j, ")") || t.is(j, "]") || t.is(j, "}")) depth++;
    else if (t.is(j, "(") || t.is(j, "[") || t.is(j, "{")) {
      if (--depth === 0) {
        const before = t.ident(j - 1);
        return before !== undefined && !CONTROL.has(before);
      }
    }
  }
  return false;
}
