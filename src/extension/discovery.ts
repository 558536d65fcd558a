/**
 * Discovery: find the tests in a test file's source text, and say which of them are properties.
 *
 * The extension calls this on every edit (CodeLens "Run property", the Test Explorer tree), so it has three
 * jobs: be small, be fast, and never fail on half-typed code. It is pure (no `vscode`, no Node APIs), so it
 * also runs in unit tests.
 *
 * It reads the file through `source/read/` (the same tokens the quick fixes use, so comments, strings,
 * templates, regexes and JSX are opaque to both alike), then walks the identifiers looking for
 * `test|it|specify|describe|suite|context…` optionally followed by `.only/.skip/.each(…)/…` and then `(`.
 * Suites nest by bracket extent; tests get their suites' names as a path. Which calls are ours, and which
 * `property(…)` a callback name is bound to, are `source/read/`'s answers (its recogniser and its scope
 * resolver), which the quick fixes ask too. The tests of a text are found once and kept with it.
 *
 * What matters most is `discoverTests` at the bottom; everything above it is in the order it runs.
 *
 * Deliberately not handled (the cost/benefit is poor for a lens): `t.test(...)` subtests, tests created
 * through helpers or renamed imports of `test`, decorator-style suites (`@suite class …`), and bracket
 * recovery by indentation (a describe whose `})` was deleted swallows the tests after it, which still
 * appear, only under the wrong path).
 */

import type { PropertyCallee, ScanOptions, SourceText } from "./source/read/index.ts";
import {
  boundCall,
  decodeEscapes,
  decodeString,
  ourCallAt,
  PROPERTY_CALLEES,
  readSource,
} from "./source/read/index.ts";

export type { PropertyCallee } from "./source/read/index.ts";

/** One test call found in the source. Offsets and lines/characters are 0-based (UTF-16 code units, as VS Code). */
export interface DiscoveredTest {
  /** Enclosing describe/suite names, then the test's own name (template literals without ${} are plain names; with ${...} keep the raw text between backticks). */
  readonly path: readonly string[];
  /** The call kind: "test" | "it" | "specify" | ... (the callee, e.g. "test.only" → "test"). */
  readonly kind: string;
  /** 0-based offsets and 0-based line/character of the test call's start (the callee identifier) and of the whole call's end. */
  readonly range: {
    readonly start: number;
    readonly end: number;
    readonly startLine: number;
    readonly startCharacter: number;
    readonly endLine: number;
    readonly endCharacter: number;
  };
  /**
   * Where the property(...)/check(...)/find(...)/machine(...) call inside the callback starts, for diagnostics. When
   * the callback is an identifier bound to `property(...)` or `machine(...)` elsewhere in the file, this is that
   * binding's call.
   */
  readonly propertyCall:
    | { readonly offset: number; readonly line: number; readonly character: number; readonly callee: PropertyCallee }
    | undefined;
  /** True when the test is a property test: its callback is `property(...)` or `machine(...)` directly, or the callback body calls property/check/find/machine, or the callback is an identifier bound in the same file to one of those. */
  readonly isProperty: boolean;
  /** The position just after the whole test statement (after its closing paren, any `.timeout(…)`-style chain and an optional semicolon): where a regression test can be inserted. */
  readonly insertAfter: { readonly offset: number; readonly line: number; readonly character: number };
}

/** `jsx` (whether `<Tag>` may be JSX) and `fileName` (which picks that default): see `ScanOptions`. */
export type DiscoverOptions = ScanOptions;

// ─────────────────────────────────────────── structure ───────────────────────────────────────────

type Role = "test" | "suite";

/** Test and suite functions across node:test, vitest, jest and mocha (BDD and TDD), including jest's f/x aliases. */
const ROLES: ReadonlyMap<string, Role> = new Map<string, Role>([
  ["test", "test"],
  ["it", "test"],
  ["specify", "test"],
  ["fit", "test"],
  ["xit", "test"],
  ["xtest", "test"],
  ["xspecify", "test"],
  ["describe", "suite"],
  ["suite", "suite"],
  ["context", "suite"],
  ["fdescribe", "suite"],
  ["xdescribe", "suite"],
  ["xcontext", "suite"],
]);

/** `test.<modifier>` chains that still make a test. Anything else (`test.extend`, `it.next`) is not a test call. */
const MODIFIERS = new Set([
  "only",
  "skip",
  "todo",
  "concurrent",
  "sequential",
  "fails",
  "failing",
  "shuffle",
  "each",
  "for",
  "skipIf",
  "runIf",
  "prop",
]);
/** Modifiers that take their own argument list (or tagged template) before the test's: `test.each(table)("name", fn)`. */
const PARAMETERISED = new Set(["each", "for", "skipIf", "runIf", "prop"]);

interface Call {
  readonly role: Role;
  readonly kind: string;
  readonly calleeToken: number;
  /** Index of the `(` of the call that takes the name, and of its closer. */
  readonly open: number;
  readonly close: number;
  readonly proper: boolean;
  /** Arguments as inclusive token index ranges. */
  readonly args: ReadonlyArray<readonly [number, number]>;
  /**
   * The `prop` of `test.prop([…])(name, predicate)` (shrinkscope/vitest, shrinkscope/jest): the test is a property
   * whatever its callback holds.
   */
  readonly prop?: number;
}

interface Binding {
  readonly token: number;
  readonly callee: PropertyCallee;
}

class Structure {
  private readonly src: string;
  private readonly tokens: SourceText["tokens"];
  private readonly close: Int32Array;
  private readonly proper: Uint8Array;
  private readonly n: number;

  constructor(private readonly t: SourceText) {
    ({ src: this.src, tokens: this.tokens, close: this.close, proper: this.proper, n: this.n } = t);
  }

  private is(i: number, text: string): boolean {
    return this.t.is(i, text);
  }

  private ident(i: number): string | undefined {
    return this.t.ident(i);
  }

  private isMemberAccess(i: number): boolean {
    return this.t.isMemberAccess(i);
  }

  discover(): DiscoveredTest[] {
    const found: DiscoveredTest[] = [];
    // Suites whose extent we are inside, innermost last.
    const suites: Array<{ name: string; close: number }> = [];
    for (let i = 0; i < this.n; i++) {
      const t = this.tokens[i]!;
      if (t.kind !== "ident" || !ROLES.has(t.text)) continue;
      const call = this.recognise(i);
      if (call === undefined) continue;
      while (suites.length > 0 && suites[suites.length - 1]!.close <= i) suites.pop();
      const name = this.argumentText(call.args[0]!);
      if (call.role === "suite") suites.push({ name, close: call.close });
      else found.push(this.describeTest(call, [...suites.map((s) => s.name), name]));
    }
    return found;
  }

  /** A test or suite call starting at identifier `i`, or undefined when it is something else named `test`. */
  private recognise(i: number): Call | undefined {
    const name = this.tokens[i]!.text;
    const role = ROLES.get(name)!;
    // `x.test(…)`, `function test(…)`, `@test` are not calls of the test function.
    if (this.isMemberAccess(i) || this.is(i - 1, "@") || this.ident(i - 1) === "function") return undefined;
    let j = i + 1;
    let prop: number | undefined;
    while (this.is(j, ".")) {
      const modifier = this.ident(j + 1);
      if (modifier === undefined || !MODIFIERS.has(modifier)) return undefined;
      if (modifier === "prop") prop = j + 1;
      j += 2;
      if (!PARAMETERISED.has(modifier)) continue;
      if (this.is(j, "<")) j = this.t.typeArgumentsEnd(j) ?? j; // test.each<Case>(…)
      if (this.is(j, "(")) {
        if (!this.proper[j]) return undefined;
        j = this.close[j]! + 1;
      } else if (this.tokens[j]?.kind === "template") {
        j++; // test.each`table`
      } else {
        return undefined;
      }
    }
    if (!this.is(j, "(")) return undefined;
    const open = j;
    const close = this.close[open]!;
    // `it(name) { … }` and `test(name: string): void …` are a method named `it`/`test`, not a call.
    if (this.proper[open] && (this.is(close + 1, "{") || this.is(close + 1, ":"))) return undefined;
    const args = this.t.splitArguments(open, close);
    if (args.length === 0) return undefined;
    // `context` is also an everyday variable name; only a call with a callback is mocha's suite.
    if (name === "context" && args.length < 2) return undefined;
    return {
      role,
      kind: name,
      calleeToken: i,
      open,
      close,
      proper: this.proper[open] === 1,
      args,
      ...(prop !== undefined ? { prop } : {}),
    };
  }

  /** A name argument as the user would read it: a decoded literal, or the raw source of anything else. */
  private argumentText([first, last]: readonly [number, number]): string {
    const t = this.tokens[first]!;
    if (first === last) {
      if (t.kind === "string") return decodeString(this.src, t);
      if (t.kind === "template") {
        const raw = this.src.slice(t.start + 1, t.closed ? t.end - 1 : t.end);
        return t.substitutions ? raw : decodeEscapes(raw);
      }
    }
    return this.src.slice(t.start, this.tokens[last]!.end).trim();
  }

  private describeTest(call: Call, path: string[]): DiscoveredTest {
    const start = this.tokens[call.calleeToken]!.start;
    const end = this.endOf(call.close, call.proper);
    const property = this.findPropertyCall(call);
    const after = this.statementEnd(call);
    const s = this.position(start);
    const e = this.position(end);
    const a = this.position(after);
    return {
      path,
      kind: call.kind,
      range: { start, end, startLine: s.line, startCharacter: s.character, endLine: e.line, endCharacter: e.character },
      propertyCall: property && {
        offset: this.tokens[property.token]!.start,
        ...this.position(this.tokens[property.token]!.start),
        callee: property.callee,
      },
      isProperty: property !== undefined,
      insertAfter: { offset: after, ...a },
    };
  }

  /** The offset just after a bracket's closer; for one closed implicitly (or never), after its last token. */
  private endOf(closeToken: number, proper: boolean): number {
    if (proper) return this.tokens[closeToken]!.end;
    return this.tokens[closeToken - 1]?.end ?? 0;
  }

  /** After `)`, any `.timeout(…)`-style chain (mocha) and an optional `;`. */
  private statementEnd(call: Call): number {
    if (!call.proper) return this.endOf(call.close, false);
    let k = call.close;
    while (this.is(k + 1, ".") && this.ident(k + 2) !== undefined && this.is(k + 3, "(") && this.proper[k + 3])
      k = this.close[k + 3]!;
    if (this.is(k + 1, ";")) k++;
    return this.tokens[k]!.end;
  }

  /**
   * The first property/check/find/machine call in the arguments after the name, or the `property(…)`/`machine(…)` an
   * identifier callback is bound to; for `test.prop(…)(…)`, its `prop`.
   */
  private findPropertyCall(call: Call): Binding | undefined {
    if (call.prop !== undefined) return { token: call.prop, callee: "property" };
    for (let a = 1; a < call.args.length; a++) {
      const [first, last] = call.args[a]!;
      if (first === last && this.ident(first) !== undefined) {
        // `test("x", p)`: the `p` visible here, bound to `property(…)` or `machine(…)`.
        const bound = boundCall(this.t, this.ident(first)!, first);
        if (bound !== undefined && (bound.callee === "property" || bound.callee === "machine"))
          return { token: bound.token, callee: bound.callee };
      }
      for (let k = first; k <= last; k++) {
        const name = this.ident(k);
        if (name === undefined) continue;
        const ours = ourCallAt(this.t, k);
        if (ours !== undefined && PROPERTY_CALLEES.has(ours.callee))
          return { token: k, callee: ours.callee as PropertyCallee };
        // A test nested inside this one (usually a describe whose `})` is missing) owns its own property.
        if (ROLES.has(name)) {
          const nested = this.recognise(k);
          if (nested !== undefined) k = nested.close;
        }
      }
    }
    return undefined;
  }

  private position(offset: number): { line: number; character: number } {
    return this.t.position(offset);
  }
}

// ───────────────────────────────────────────── API ─────────────────────────────────────────────

/**
 * All tests (property or not) in `source`, in source order. Never throws; on broken input returns what it can
 * (at least every test that ends before the broken region).
 *
 * @example
 * discoverTests('describe("sort", () => { test("idempotent", property(st.lists(st.integers()), (xs) => {})); });')
 * // → [{ path: ["sort", "idempotent"], kind: "test", isProperty: true, … }]
 */
export function discoverTests(source: string, options: DiscoverOptions = {}): DiscoveredTest[] {
  const text = readSource(source, options);
  let tests = discovered.get(text);
  if (tests === undefined) discovered.set(text, (tests = new Structure(text).discover()));
  return tests;
}

/** Each text's tests, found once: the CodeLens, the Test Explorer and the quick fixes all ask after an edit. */
const discovered = new WeakMap<SourceText, DiscoveredTest[]>();

/**
 * A word every property test's text holds: the name of a call that makes a test a property (or test.prop's `prop`). A text without one
 * holds none, so the workspace's files are tested for it before they are read — a test that can only say no where
 * discovery would, so the Test Explorer lists what the CodeLens shows (a file that imports `property` through a
 * module of its own need not mention shrinkscope).
 */
const PROPERTY_WORD = new RegExp(`\\b(?:${[...PROPERTY_CALLEES, "prop"].join("|")})\\b`);

/**
 * The property tests of a file the editor shows or the workspace holds: those discovery finds in a JavaScript or
 * TypeScript file (a package.json naming shrinkscope as a dependency holds no property).
 */
export function propertiesOfFile(file: string, source: string): DiscoveredTest[] {
  if (!/\.(m|c)?(t|j)sx?$/.test(file) || !PROPERTY_WORD.test(source)) return [];
  return discoverProperties(source, { fileName: file });
}

/** Only the property tests in `source` (those with `isProperty`), in source order. */
export function discoverProperties(source: string, options: DiscoverOptions = {}): DiscoveredTest[] {
  return discoverTests(source, options).filter((t) => t.isProperty);
}
