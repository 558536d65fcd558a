/**
 * What the file shows about a name where it is used, for the quick fixes: is `opts` a settings object, is
 * `checkSorted` a function, an async one? The declaration is the one the scope resolver picks at the use, so
 * a name declared differently in two sibling blocks is read from the block that holds the property.
 */
import { expressionEnd, functionAt, returnsPromise } from "./functions.ts";
import type { Declaration } from "./scopes.ts";
import type { SourceText } from "./sourceText.ts";

export type Declared =
  | { readonly kind: "function"; readonly async: boolean }
  /** An object literal (`const opts = { … }`), or annotated with a settings type (`const opts: Settings`). */
  | { readonly kind: "settings"; readonly object: readonly [number, number] | undefined }
  /** Bound to something else (a call, another name): a strategy, or a function or settings made elsewhere. */
  | { readonly kind: "value" }
  /** Not declared in the file (a global), imported or a parameter (only its type could tell), or a generator. */
  | { readonly kind: "unknown" };

const UNKNOWN: Declared = { kind: "unknown" };

/** How `name` is declared where token `at` uses it: `function name(`, `const name = (…) =>`, `const name = { … }`, … */
export function declarationOf(s: SourceText, name: string, at: number): Declared {
  const d = s.resolve(name, at);
  if (d?.kind === "function") {
    // A generator: calling it runs nothing.
    if (s.is(d.keyword + 1, "*")) return UNKNOWN;
    return { kind: "function", async: s.ident(d.keyword - 1) === "async" };
  }
  if (d?.kind === "variable") return declaredValue(s, d);
  return UNKNOWN;
}

/** `const name (: Type)? = init`: what the annotation or the initializer shows. */
function declaredValue(s: SourceText, d: Declaration): Declared {
  if (d.type !== undefined) {
    const text = s.text(d.type[0], d.type[1]);
    if (/=>/.test(text)) return { kind: "function", async: /\bPromise\s*</.test(text.slice(text.lastIndexOf("=>"))) };
    if (/\b(Settings|Options)\b/.test(text))
      return {
        kind: "settings",
        object: d.init !== undefined && s.is(d.init, "{") ? [d.init, s.close[d.init]!] : undefined,
      };
  }
  const init = d.init;
  if (init === undefined) return d.type === undefined ? UNKNOWN : { kind: "value" };
  if (s.is(init, "{") && s.proper[init]) return { kind: "settings", object: [init, s.close[init]!] };
  const fn = functionAt(s, init, expressionEnd(s, init));
  if (fn !== undefined) return fn.generator ? UNKNOWN : { kind: "function", async: fn.async || returnsPromise(s, fn) };
  return { kind: "value" };
}
