/**
 * Arguments a schema made (`property(fromZod(User), …)`): the regression test parses them again,
 * `User.parse({ … })`, so it re-validates the example and fails loudly if the schema drifts away from it. Where
 * the value is not what the schema takes (a transform's output, a default filled in) the parse is given the input
 * the engine drew (the presentation's `inputs`), so the body still receives the value it failed on.
 *
 * The strategy is recognised as written in the file: a call of our `fromZod` (imported from `shrinkscope/zod`) on
 * a schema named by an identifier or a member chain (`User`, `schemas.User`), as the argument itself or as the
 * initialiser of a `const` it names. An argument whose schema the new test would not see (declared inside the
 * enclosing test) stays a literal.
 */
import type { PropertyCall, SourceText } from "../read/index.ts";
import { isOurModule, readSnippet } from "../read/index.ts";

/** `repro` with each argument a schema made wrapped in that schema's parse; `repro` itself when there is none. */
export function reparsedRepro(
  call: PropertyCall,
  repro: string,
  inputs: readonly (string | null)[] | undefined,
  insertAt: number,
): string {
  const t = call.t;
  const schemas = call.args.slice(0, call.bodyIndex).map(([first, last]) => schemaOf(t, first, last, insertAt));
  if (schemas.every((s) => s === undefined)) return repro;
  const r = readSnippet(repro);
  // The shared-references form (`...(() => { … })()`) is one expression for all arguments.
  if (r.is(0, "...")) return repro;
  const args = r.splitArguments(-1, r.n).map(([first, last]) => r.text(first, last));
  if (args.length !== schemas.length) return repro;
  return args
    .map((text, i) => (schemas[i] === undefined ? text : `${schemas[i]}.parse(${inputs?.[i] ?? text})`))
    .join(", ");
}

/** The schema's name when tokens first..last are `fromZod(Schema)` (or a const bound to it), visible at `insertAt`. */
function schemaOf(t: SourceText, first: number, last: number, insertAt: number): string | undefined {
  if (first === last) {
    // A name bound to the call: `const users = fromZod(User)`.
    const name = t.ident(first);
    const declared = name === undefined ? undefined : t.resolve(name, first);
    if (declared?.kind !== "variable" || declared.init === undefined || t.ident(declared.keyword) !== "const")
      return undefined;
    const init = declared.init;
    const close = init + 1 < t.n && t.is(init + 1, "(") ? t.close[init + 1] : undefined;
    // The initialiser is the call and nothing more (`fromZod(User).map(…)` is not).
    if (close === undefined || t.is(close + 1, ".") || t.is(close + 1, "(")) return undefined;
    return schemaOf(t, init, close, insertAt);
  }
  const callee = t.ident(first);
  if (callee === undefined || !t.is(first + 1, "(") || t.close[first + 1] !== last || t.isMemberAccess(first))
    return undefined;
  const binding = t.resolve(callee, first)?.binding;
  if (binding === undefined || binding.imported !== "fromZod" || !isOurModule(binding.specifier)) return undefined;
  // The schema: `Name` or `a.b.Name`, alone or before the options.
  let k = first + 2;
  const parts: string[] = [];
  for (;;) {
    const part = t.ident(k);
    if (part === undefined) return undefined;
    parts.push(part);
    k++;
    if (!t.is(k, ".")) break;
    k++;
  }
  if (k !== last && !t.is(k, ",")) return undefined;
  // The declaration the property sees must be the one the new test sees (not one inside the enclosing test).
  const d = t.resolve(parts[0]!, first + 2);
  const visible =
    d === undefined ||
    ((d.open < 0 || t.tokens[d.open]!.end <= insertAt) && (d.close >= t.n || insertAt <= t.tokens[d.close]!.start));
  return visible ? parts.join(".") : undefined;
}
