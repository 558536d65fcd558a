/**
 * Arguments a schema parsed (`property(fromZod(User), …)`): the regression test parses them again,
 * `User.parse({ … })`, so it re-validates the example and fails loudly if the schema drifts away from it. The
 * parse is given the input the engine drew (the presentation's `inputs`), which is what the schema takes where
 * the value itself is a transform's output.
 *
 * The engine says which arguments a parse made: an argument without an input (an explicit example, invalid
 * mode's values, an engine that does not report inputs) stays a literal. The file says which schema: a call of
 * our `fromZod` on a schema named by an identifier or a member chain (`User`, `schemas.User`), as the argument
 * itself or as a `const` it names. The name must mean the same schema where the new test goes (not one declared
 * inside the enclosing test, nor one a describe block shadows) and in it (not a parameter or a local of the
 * body, which the inlined test declares first). Anything less certain stays a literal.
 */
import type { PropertyCall, SourceText } from "../read/index.ts";
import { isOurModule, readSnippet } from "../read/index.ts";

/** `repro` with each argument a schema parsed written as that schema's parse of its input; else `repro` itself. */
export function reparsedRepro(
  call: PropertyCall,
  repro: string,
  inputs: readonly (string | null)[] | undefined,
  insertAt: number,
): string {
  if (inputs === undefined || !inputs.some((i) => typeof i === "string")) return repro;
  const t = call.t;
  const strategies = call.args.slice(0, call.bodyIndex);
  // A spread strategy argument (`...rest`) makes source positions and arguments disagree.
  if (strategies.length !== inputs.length || strategies.some(([first]) => t.is(first, "..."))) return repro;
  const r = readSnippet(repro);
  // The shared-references form (`...(() => { … })()`) is one expression for all arguments.
  if (r.is(0, "...")) return repro;
  const args = r.splitArguments(-1, r.n).map(([first, last]) => r.text(first, last));
  if (args.length !== strategies.length) return repro;
  const insertToken = lastTokenBefore(t, insertAt);
  return args
    .map((text, i) => {
      const input = inputs[i];
      // `undefined` lets a parameter's default apply, which the inlined test must see; a comment marks a value
      // that does not print back as itself.
      if (typeof input !== "string" || text === "undefined" || input.includes("/*")) return text;
      const [first, last] = strategies[i]!;
      const schema = schemaOf(t, first, last, insertToken);
      return schema === undefined || boundInBody(call, schema.split(".")[0]!) ? text : `${schema}.parse(${input})`;
    })
    .join(", ");
}

/** The schema's name when tokens first..last are `fromZod(Schema)` (or a const bound to it), meaning the same at `at`. */
function schemaOf(t: SourceText, first: number, last: number, at: number): string | undefined {
  if (first === last) {
    // A name bound to the call: `const users = fromZod(User)`.
    const name = t.ident(first);
    const declared = name === undefined ? undefined : t.resolve(name, first);
    if (declared?.kind !== "variable" || declared.init === undefined || t.ident(declared.keyword) !== "const")
      return undefined;
    const init = declared.init;
    const close = init + 1 < t.n && t.is(init + 1, "(") ? t.close[init + 1] : undefined;
    // The initialiser is the call and nothing more (`fromZod(User).map(…)`, `fromZod(User)!.map(…)` are not).
    if (close === undefined || [".", "?.", "!", "(", "[", "`"].some((p) => t.is(close + 1, p))) return undefined;
    return schemaOf(t, init, close, at);
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
  if ((k !== last && !t.is(k, ",")) || parts[0] === "this" || parts[0] === "super") return undefined;
  // The root name must resolve to the same declaration (or to none: a global) where the new test goes.
  const here = t.resolve(parts[0]!, first + 2);
  const there = t.resolve(parts[0]!, at);
  return here?.token === there?.token ? parts.join(".") : undefined;
}

/** Whether the inline body binds `name` (a parameter, or a local it declares): the test's own `name` would shadow the schema. */
function boundInBody(call: PropertyCall, name: string): boolean {
  if (call.body.kind !== "inline") return false;
  const t = call.t;
  const [from, to] = call.body.range;
  for (let k = from; k <= to; k++) {
    if (t.ident(k) !== name || t.isMemberAccess(k)) continue;
    // `User.parse(…)` in the body reads the schema; any other mention may bind the name: keep the literal.
    if (!t.is(k + 1, ".")) return true;
  }
  return false;
}

/** The index of the last token that ends at or before `offset` (where code inserted at `offset` sits). */
function lastTokenBefore(t: SourceText, offset: number): number {
  let lo = 0;
  let hi = t.n - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (t.tokens[mid]!.end <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
