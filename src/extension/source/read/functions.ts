/**
 * Function expressions and declarations read from tokens: what the quick fixes need to know about a property's
 * body (async or not, its parameters, a block or an expression body), and what the scope resolver needs to
 * know where a function's parameters are visible.
 */
import type { Tokenized } from "./tokens.ts";

/** One parameter; every range is an inclusive token range. */
export interface Param {
  readonly rest: boolean;
  /** The binding: a name, or a `{…}`/`[…]` destructuring pattern. */
  readonly pattern: readonly [number, number];
  /** The name when the binding is a plain identifier. */
  readonly name: string | undefined;
  readonly optional: boolean;
  readonly type: readonly [number, number] | undefined;
  readonly initializer: readonly [number, number] | undefined;
}

export interface FunctionShape {
  readonly async: boolean;
  readonly generator: boolean;
  /** `function` expressions have their own `this` and `arguments`; arrows do not. */
  readonly arrow: boolean;
  /** Undefined when a parameter has a shape we do not take apart (a TS `this` parameter, say). */
  readonly params: readonly Param[] | undefined;
  readonly body:
    | { readonly kind: "block"; readonly open: number; readonly close: number }
    | { readonly kind: "expression"; readonly first: number; readonly last: number };
  /** The return type annotation's tokens, if any. */
  readonly returnType: readonly [number, number] | undefined;
  /** `<T>(x: T) => …`: annotations may name type parameters that mean nothing outside the function. */
  readonly typeParameters: boolean;
}

/**
 * The function expression spanning tokens `first..last` exactly (`(x) => …`, `async x => …`,
 * `function (x) { … }`, `<T,>(x: T): void => …`), or undefined when those tokens are something else.
 */
export function functionAt(t: Tokenized, first: number, last: number): FunctionShape | undefined {
  let k = first;
  // `async` starts an async function only before `function`, a parameter list or `<T>`; `async(x)` may be a call.
  const n = k + 1;
  const async =
    t.ident(k) === "async" &&
    (t.ident(n) === "function" ||
      (t.ident(n) !== undefined && t.is(n + 1, "=>")) ||
      t.is(n, "<") ||
      (t.is(n, "(") && isArrowAfterParams(t, n, last)));
  if (async) k++;
  if (t.ident(k) === "function") {
    k++;
    const generator = t.is(k, "*");
    if (generator) k++;
    if (t.ident(k) !== undefined) k++; // a named function expression
    const typeParameters = t.is(k, "<");
    if (typeParameters) k = t.typeArgumentsEnd(k, last + 1) ?? k;
    if (!t.is(k, "(") || !t.proper[k]) return undefined;
    const params = parseParams(t, k);
    let j = t.close[k]! + 1;
    const returnType = returnTypeRange(t, j, last);
    if (returnType !== undefined) j = returnType[1] + 1;
    if (!t.is(j, "{") || t.close[j] !== last || !t.proper[j]) return undefined;
    return {
      async,
      generator,
      arrow: false,
      params,
      body: { kind: "block", open: j, close: last },
      returnType,
      typeParameters,
    };
  }
  let params: Param[] | undefined;
  let j: number;
  const typeParameters = t.is(k, "<");
  if (t.ident(k) !== undefined && t.is(k + 1, "=>")) {
    params = [
      { rest: false, pattern: [k, k], name: t.ident(k), optional: false, type: undefined, initializer: undefined },
    ];
    j = k + 1;
  } else {
    if (t.is(k, "<")) k = t.typeArgumentsEnd(k, last + 1) ?? k;
    if (!t.is(k, "(") || !t.proper[k]) return undefined;
    params = parseParams(t, k);
    j = t.close[k]! + 1;
  }
  const returnType = t.is(j, "=>") ? undefined : returnTypeRange(t, j, last);
  if (returnType !== undefined) j = returnType[1] + 1;
  if (!t.is(j, "=>") || j >= last) return undefined;
  const b = j + 1;
  const body =
    t.is(b, "{") && t.close[b] === last && t.proper[b]
      ? ({ kind: "block", open: b, close: last } as const)
      : ({ kind: "expression", first: b, last } as const);
  return { async, generator: false, arrow: true, params, body, returnType, typeParameters };
}

/** `async (…) =>`: whether the `(…)` at `open` is followed (after an optional return type) by `=>`. */
function isArrowAfterParams(t: Tokenized, open: number, last: number): boolean {
  if (!t.proper[open]) return false;
  let j = t.close[open]! + 1;
  const returnType = returnTypeRange(t, j, last);
  if (returnType !== undefined) j = returnType[1] + 1;
  return t.is(j, "=>");
}

/** `: Type` starting at `colon`, up to (not including) the `=>` or `{` that follows it at the top level. */
export function returnTypeRange(t: Tokenized, colon: number, last: number): readonly [number, number] | undefined {
  if (!t.is(colon, ":")) return undefined;
  for (let k = colon + 1; k <= last; k++) {
    if (t.is(k, "=>")) return k - 1 > colon ? [colon + 1, k - 1] : undefined;
    if (
      t.is(k, "{") &&
      k - 1 > colon &&
      !t.is(k - 1, ":") &&
      !t.is(k - 1, "|") &&
      !t.is(k - 1, "&") &&
      !t.is(k - 1, "<") &&
      !t.is(k - 1, ",")
    ) {
      // The body of a `function (): T {`: an object type `: { a: number }` follows `:`, `|`, `&`, `<` or `,`.
      return [colon + 1, k - 1];
    }
    if (t.is(k, "(") || t.is(k, "[") || t.is(k, "{")) k = t.close[k]!;
    else if (t.is(k, "<")) k = (t.typeArgumentsEnd(k, last + 1) ?? k + 1) - 1;
  }
  return undefined;
}

/** The parameters inside the `(` at `open`, or undefined when one has a shape we do not take apart. */
export function parseParams(t: Tokenized, open: number): Param[] | undefined {
  const params: Param[] = [];
  for (const [first, last] of t.splitArguments(open, t.close[open]!)) {
    let k = first;
    const rest = t.is(k, "...");
    if (rest) k++;
    let patternEnd: number;
    const name = t.ident(k);
    if (name !== undefined) {
      if (name === "this") return undefined; // a TS `this` parameter: not a real argument
      patternEnd = k;
    } else if ((t.is(k, "{") || t.is(k, "[")) && t.proper[k]) {
      patternEnd = t.close[k]!;
    } else {
      return undefined;
    }
    let j = patternEnd + 1;
    const optional = t.is(j, "?");
    if (optional) j++;
    let type: readonly [number, number] | undefined;
    if (t.is(j, ":")) {
      let e = j + 1;
      while (e <= last && !t.is(e, "=")) {
        if (t.is(e, "(") || t.is(e, "[") || t.is(e, "{")) e = t.close[e]! + 1;
        else if (t.is(e, "<")) e = t.typeArgumentsEnd(e, last + 1) ?? e + 1;
        else if (t.is(e, "=>")) e++;
        else e++;
      }
      if (e - 1 < j + 1) return undefined;
      type = [j + 1, Math.min(e, last + 1) - 1];
      j = e;
    }
    let initializer: readonly [number, number] | undefined;
    if (t.is(j, "=")) {
      if (j + 1 > last) return undefined;
      initializer = [j + 1, last];
    } else if (j <= last) {
      return undefined; // something we did not expect: an accessibility modifier, a decorator…
    }
    params.push({ rest, pattern: [k, patternEnd], name, optional, type, initializer });
  }
  return params;
}

/** The last token of the expression starting at `first`: up to a top-level `;`, `,` or closer, or a line break before a new statement. */
export function expressionEnd(t: Tokenized, first: number): number {
  let k = first;
  for (; k < t.n; k++) {
    const tok = t.tokens[k]!;
    if (tok.kind === "punct") {
      if (tok.text === ";" || tok.text === "," || tok.text === ")" || tok.text === "]" || tok.text === "}")
        return k - 1;
      if (tok.text === "(" || tok.text === "[" || tok.text === "{") {
        if (!t.proper[k]) return Math.min(t.close[k]!, t.n) - 1;
        k = t.close[k]!;
      }
    }
    // Without semicolons, a new declaration on the next line ends the expression.
    const next = t.ident(k + 1);
    if (
      (next === "const" ||
        next === "let" ||
        next === "var" ||
        next === "function" ||
        next === "test" ||
        next === "it" ||
        next === "describe") &&
      k > first &&
      lineBreakBetween(t, k)
    )
      return k;
  }
  return t.n - 1;
}

function lineBreakBetween(t: Tokenized, k: number): boolean {
  const a = t.tokens[k]!;
  const b = t.tokens[k + 1]!;
  return /[\n\r\u2028\u2029]/.test(t.src.slice(a.end, b.start));
}

/** A sync-looking function whose declared return type is a promise (`(x): Promise<void> =>`). */
export function returnsPromise(t: Tokenized, fn: FunctionShape): boolean {
  return (
    fn.returnType !== undefined && /^\s*(Promise|PromiseLike)\s*</.test(t.text(fn.returnType[0], fn.returnType[1]))
  );
}
