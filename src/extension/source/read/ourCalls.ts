/**
 * The one recogniser of our calls: whether the identifier at a token starts a call of one of shrinkscope's
 * functions — `property(…)`, `check(…)`, `find(…)`, `machine(…)`, `simTest(…)`, `explore(…)`, and shrinkscope/fc's
 * `asyncProperty(…)` (its `fc.property(…)` is `property` by name) — imported under
 * any alias (`import { property as p }`), through a namespace or default import (`ss.property(…)`), or by its
 * own name when the file does not declare that name otherwise (a global, or a file whose import is half typed),
 * with or without `<…>` type arguments (`property<[number]>(…)`). What a name means is the scope resolver's
 * answer at that token, so a parameter or a local `check` shadows ours, and another library's `find` is not ours.
 *
 * Discovery (which tests are properties, where the CodeLens and diagnostics go) and the quick fixes (which call
 * to take apart) both ask here, so they always agree on which calls are ours.
 */
import { isOurModule } from "./imports.ts";
import type { SourceText } from "./sourceText.ts";

export const OUR_CALLEES = ["property", "check", "find", "machine", "simTest", "explore", "asyncProperty"] as const;
export type OurCallee = (typeof OUR_CALLEES)[number];
/**
 * The calls that make a test a property test (`machine(Class, spec)` returns the same kind of test function;
 * `asyncProperty` is shrinkscope/fc's, `fc.asyncProperty(…)`, shaped as `property(…)`).
 */
export type PropertyCallee = Extract<OurCallee, "property" | "check" | "find" | "machine" | "asyncProperty">;
export const PROPERTY_CALLEES: ReadonlySet<OurCallee> = new Set<PropertyCallee>([
  "property",
  "check",
  "find",
  "machine",
  "asyncProperty",
]);

const CALLEES: ReadonlySet<string> = new Set(OUR_CALLEES);

function isOurCallee(name: string | undefined): name is OurCallee {
  return name !== undefined && CALLEES.has(name);
}

/** A call of ours, as token indices. */
export interface OurCall {
  readonly callee: OurCallee;
  /** The callee's first token (`property`, or `ss` of `ss.property`). */
  readonly token: number;
  /** The `(` and the token that closes it (the token count when it never does). */
  readonly open: number;
  readonly close: number;
  /** Whether the `(` is closed by its own `)`: a call being typed is not. */
  readonly proper: boolean;
  readonly args: ReadonlyArray<readonly [number, number]>;
}

/** The call of ours starting at identifier token `k`, or undefined when it is anything else. */
export function ourCallAt(s: SourceText, k: number): OurCall | undefined {
  const name = s.ident(k);
  if (name === undefined || s.isMemberAccess(k)) return undefined;
  let callee: OurCallee | undefined;
  let last = k;
  const d = isOurCallee(name) || s.imports.some((b) => b.local === name) ? s.resolve(name, k) : undefined;
  if (d === undefined) {
    if (isOurCallee(name)) callee = name;
  } else if (d.kind === "import" && d.binding !== undefined && isOurModule(d.binding.specifier)) {
    const imported = d.binding.imported;
    if (imported === "*" || imported === "default") {
      const member = s.ident(k + 2);
      if ((s.is(k + 1, ".") || s.is(k + 1, "?.")) && isOurCallee(member)) {
        callee = member;
        last = k + 2;
      }
    } else if (isOurCallee(imported)) {
      callee = imported;
    }
  }
  if (callee === undefined) return undefined;
  let open = last + 1;
  if (s.is(open, "<")) open = s.typeArgumentsEnd(open) ?? open;
  if (!s.is(open, "(")) return undefined;
  const close = s.close[open]!;
  return { callee, token: k, open, close, proper: s.proper[open] === 1, args: s.splitArguments(open, close) };
}

/** The call of ours whose callee starts at `offset` (as discovery reports it), closed; else undefined. */
export function ourCallAtOffset(s: SourceText, offset: number): OurCall | undefined {
  const call = ourCallAt(s, s.tokenAt(offset));
  return call?.proper ? call : undefined;
}

/**
 * The call of ours a name means at token `at`: `const name (: T)? = (await)? ourCall(…)` where the name resolves
 * there. Undefined when the name is a parameter, an import, a global, or bound to anything else.
 */
export function boundCall(s: SourceText, name: string, at: number): OurCall | undefined {
  const d = s.resolve(name, at);
  if (d?.kind !== "variable" || d.init === undefined) return undefined;
  const init = s.ident(d.init) === "await" ? d.init + 1 : d.init;
  return ourCallAt(s, init);
}
