/**
 * Classes read from tokens: the class a declaration names (`class Name`, `const Name = class …`; which
 * declaration a name means is the scope resolver's answer) or `export default class`, and its prototype
 * methods, which are what a state machine calls. The machine quick fix awaits a step only when its method may
 * be async, and the diagnostics point at the failing invariant's or rule's method.
 *
 * A method is a name at the top level of the class body followed by its parameters and a block (`name(…) {`,
 * with modifiers, type parameters and a return type allowed): a field's initializer never has that shape, so
 * `ledger = new Ledger()` or `open = (x) => …` are not methods — nor are they to machine(), which only calls
 * methods on the prototype. Static methods, accessors, `#private` and computed names are left out.
 */
import type { Tokenized } from "./tokens.ts";
import { returnTypeRange } from "./functions.ts";
import type { Declaration } from "./scopes.ts";

export interface MethodShape {
  readonly name: string;
  /** Declared `async`, or annotated to return a promise. */
  readonly async: boolean;
  /** The token of its name. */
  readonly token: number;
}

export interface ClassShape {
  /** The `class` keyword's token. */
  readonly token: number;
  /** `class X extends Y`: a method not found here may be inherited. */
  readonly extends: boolean;
  readonly methods: ReadonlyMap<string, MethodShape>;
}

/** Words that may come before a method's name (static methods and accessors are then left out). */
const BEFORE_NAME = new Set([
  "public",
  "private",
  "protected",
  "override",
  "readonly",
  "async",
  "declare",
  "abstract",
  "accessor",
  "static",
  "get",
  "set",
]);

/**
 * The class a declaration names: `class Name …`, or `const Name = class …`. Undefined for anything else, and for
 * a class whose body is not closed.
 */
export function declaredClass(t: Tokenized, d: Declaration): ClassShape | undefined {
  if (d.kind === "class") return classAt(t, d.keyword);
  if (d.kind === "variable" && d.init !== undefined && t.ident(d.init) === "class") return classAt(t, d.init);
  return undefined;
}

/** The class of `export default class …`. */
export function defaultExportedClass(t: Tokenized): ClassShape | undefined {
  for (let i = 2; i < t.n; i++) {
    if (t.ident(i) === "class" && t.ident(i - 1) === "default" && t.ident(i - 2) === "export") return classAt(t, i);
  }
  return undefined;
}

/** The class whose `class` keyword is token `k`, or undefined when its body is not closed (the file is being edited). */
function classAt(t: Tokenized, token: number): ClassShape | undefined {
  let k = token + 1;
  let inherits = false;
  const limit = Math.min(t.n, k + 500);
  // The heritage: `extends Base<{ a: T }>`, `extends mixin(A, B)`, `implements I`, up to the body's `{`.
  let angle = 0;
  while (k < limit && !(t.is(k, "{") && angle === 0)) {
    if (t.ident(k) === "extends") inherits = true;
    if (t.is(k, "<")) angle++;
    else if (t.is(k, ">") && angle > 0) angle--;
    k = t.is(k, "(") || t.is(k, "[") || t.is(k, "{") ? t.close[k]! + 1 : k + 1;
  }
  if (!t.is(k, "{") || !t.proper[k]) return undefined;
  return { token, extends: inherits, methods: methodsIn(t, k, t.close[k]!) };
}

function methodsIn(t: Tokenized, open: number, close: number): Map<string, MethodShape> {
  const methods = new Map<string, MethodShape>();
  for (let k = open + 1; k < close; k++) {
    const tok = t.tokens[k]!;
    if (tok.kind === "punct" && (tok.text === "(" || tok.text === "[" || tok.text === "{")) {
      k = t.close[k]!;
      continue;
    }
    const name = t.ident(k) ?? t.string(k);
    if (name === undefined || t.isMemberAccess(k) || t.is(k - 1, "#")) continue;
    let p = k + 1;
    if (t.is(p, "?")) p++;
    if (t.is(p, "<")) p = t.typeArgumentsEnd(p) ?? p;
    if (!t.is(p, "(") || !t.proper[p]) continue;
    let body = t.close[p]! + 1;
    const returnType = returnTypeRange(t, body, close - 1);
    if (returnType !== undefined) body = returnType[1] + 1;
    // Not a method: an overload signature (`open(): void;`, whose "return type" would run on to the next member), a call in a field's initializer.
    if (!t.is(body, "{") || (returnType !== undefined && t.text(returnType[0], returnType[1]).includes(";"))) continue;
    const nameToken = k;
    k = t.close[body]!;
    const words: string[] = [];
    for (let m = nameToken - 1; m > open && (BEFORE_NAME.has(t.ident(m) ?? "") || t.is(m, "*")); m--)
      words.push(t.ident(m) ?? "*");
    if (words.includes("static") || words.includes("get") || words.includes("set") || methods.has(name)) continue;
    const promised =
      returnType !== undefined && /^\s*(Promise|PromiseLike)\s*</.test(t.text(returnType[0], returnType[1]));
    methods.set(name, { name, async: words.includes("async") || promised, token: nameToken });
  }
  return methods;
}
