/**
 * A property call taken apart: its arguments, which one is the body and which the settings. Read with the
 * same tokenizer as discovery (`scan.ts`), so strings, templates, comments, regex literals with
 * brackets and `<…>` type arguments never shift an argument boundary.
 *
 * `property(...strategies, body, settings?)`: the body is the last argument that is a function, or a name
 * referring to one. When the last two arguments are names (`property(ints, checkSorted)` or
 * `property(s, body, opts)`), what the file declares decides (`const opts = { … }` / `const opts: Settings`
 * is settings; `function checkSorted(` / `const checkSorted = (…) =>` is a function); when the file does not
 * tell, the answer is "unknown" and the quick fixes offer nothing rather than wrong code.
 *
 * A body may be `simTest(options, workload)` (schedule exploration), inline or through a binding
 * (`const body = simTest(…)`): it is told apart by what `simTest` is called in this file, and taken apart too.
 */
import type { ScanOptions } from "./scan.ts";
import type { FunctionShape } from "./functions.ts";
import { functionAt, returnsPromise } from "./functions.ts";
import type { Declared } from "./declared.ts";
import { declarationOf } from "./declared.ts";
import type { PropertyCallee } from "./ourCalls.ts";
import { boundCall, ourCallAt, ourCallAtOffset } from "./ourCalls.ts";
import type { SourceText } from "./sourceText.ts";
import { readSource } from "./sourceText.ts";

export interface ArgumentRange {
  readonly start: number;
  readonly end: number;
}

/** A call as token indices: its `(`, the matching `)`, and each argument's inclusive token range. */
export interface CallTokens {
  readonly open: number;
  readonly close: number;
  readonly args: ReadonlyArray<readonly [number, number]>;
}

/**
 * The call of ours whose callee starts at `calleeOffset`: `property(`, `ss.property(`, `property<[number]>(`.
 * Undefined when there is none there or it is not closed (the file is being edited).
 */
export function callAt(t: SourceText, calleeOffset: number): CallTokens | undefined {
  const call = ourCallAtOffset(t, calleeOffset);
  return call && { open: call.open, close: call.close, args: call.args };
}

/** The arguments of the call of ours at `calleeOffset` as source ranges, or undefined when the call is not closed. */
export function splitArguments(
  source: string,
  calleeOffset: number,
  options: ScanOptions = {},
): ArgumentRange[] | undefined {
  const t = readSource(source, options);
  const call = callAt(t, calleeOffset);
  return call?.args.map(([first, last]) => ({ start: t.tokens[first]!.start, end: t.tokens[last]!.end }));
}

/** What an argument is, as far as the source shows. */
export type ArgumentKind =
  | { readonly kind: "function"; readonly fn: FunctionShape }
  | { readonly kind: "object" }
  /** A name (`checkSorted`, with what the file declares about it) or a member chain (`checks.sorted`, unknown). */
  | { readonly kind: "name"; readonly name: string | undefined; readonly declared: Declared }
  /** `simTest(options, workload)`: a body made by schedule exploration. */
  | { readonly kind: "simTest"; readonly call: CallTokens; readonly range: readonly [number, number] }
  | { readonly kind: "other" };

export type PlainBody =
  | { readonly kind: "inline"; readonly fn: FunctionShape; readonly range: readonly [number, number] }
  /** Called by name; `await` unless the file shows it is a plain (non-async) function. */
  | { readonly kind: "named"; readonly text: string; readonly await: boolean };

export type PropertyBody =
  | PlainBody
  /**
   * `simTest(options, workload)` — written as the argument, or bound to the name the argument is (`bound`).
   * `workload` is its second argument, a function or a name, or undefined when it is neither.
   */
  | {
      readonly kind: "simTest";
      readonly call: CallTokens;
      readonly range: readonly [number, number];
      readonly options: readonly [number, number];
      readonly workload: PlainBody | undefined;
      readonly bound: boolean;
    };

export type PropertySettings =
  | { readonly kind: "object"; readonly open: number; readonly close: number }
  | {
      readonly kind: "name";
      readonly range: readonly [number, number];
      readonly name: string | undefined;
      readonly declared: Declared;
    }
  | { readonly kind: "other"; readonly range: readonly [number, number] };

export interface PropertyCall extends CallTokens {
  readonly t: SourceText;
  readonly body: PropertyBody;
  readonly bodyIndex: number;
  readonly settings: PropertySettings | undefined;
}

/** Names people give settings objects; only consulted when the file does not show what a name is. */
const SETTINGS_NAME = /^(opts|options|settings|config|cfg|conf|params)$|(Opts|Options|Settings|Config)$/;

export interface PropertyCallOptions extends ScanOptions {
  /** What discovery found at the offset: for `check(…)` the property is its first argument. */
  readonly callee?: PropertyCallee;
}

/**
 * The call a test runs: the one at `calleeOffset` (for `test.prop(…)(…)`, the call with its predicate), or for
 * `check(…)` the property it checks — `check(property(…))`,
 * `check(machine(…))` or `check(bound)` with `const bound = property(…)` visible there. Undefined for `find(…)`,
 * which runs no property, and when the call is not closed.
 */
export function targetCall(
  t: SourceText,
  calleeOffset: number,
  callee: PropertyCallee | undefined,
): CallTokens | undefined {
  const prop = propAt(t, t.tokenAt(calleeOffset));
  if (prop !== undefined) return prop;
  const call = ourCallAtOffset(t, calleeOffset);
  if (call === undefined || callee === "find" || call.callee === "find") return undefined;
  if (call.callee !== "check") return call;
  const first = call.args[0];
  if (first === undefined) return undefined;
  const name = first[0] === first[1] ? t.ident(first[0]) : undefined;
  const inner = name !== undefined ? boundCall(t, name, first[0]) : ourCallAt(t, first[0]);
  // Only a property or a machine, and only when the argument is that call and nothing more (`check(property(…).map(…))` is not).
  if (
    inner === undefined ||
    !inner.proper ||
    (inner.callee !== "property" && inner.callee !== "machine") ||
    (name === undefined && inner.close !== first[1])
  )
    return undefined;
  return inner;
}

/**
 * `test.prop(arbitraries, parameters?)(name, predicate, timeout?)` (shrinkscope/vitest, shrinkscope/jest), from its
 * `prop`: the call that takes the name, whose predicate is the property's body. Undefined for anything else.
 */
function propAt(t: SourceText, k: number): CallTokens | undefined {
  if (t.ident(k) !== "prop" || !t.is(k - 1, ".") || !t.is(k + 1, "(") || !t.proper[k + 1]) return undefined;
  const open = t.close[k + 1]! + 1;
  if (!t.is(open, "(") || !t.proper[open]) return undefined;
  const close = t.close[open]!;
  return { open, close, args: t.splitArguments(open, close) };
}

/**
 * The property call at `calleeOffset` taken apart, or undefined when it is not closed, is a `find(…)` or a
 * `machine(…)` (which has no body: see machineCall.ts), or which argument is the body cannot be told from the
 * file.
 */
export function propertyCall(
  source: string,
  calleeOffset: number,
  options: PropertyCallOptions = {},
): PropertyCall | undefined {
  if (options.callee === "machine") return undefined;
  const t = readSource(source, options);
  const call = targetCall(t, calleeOffset, options.callee);
  if (call === undefined) return undefined;
  const kinds = call.args.map(([first, last]): ArgumentKind => {
    const kind = argumentKind(t, first, last);
    const simCall = kind.kind === "other" ? simTestAt(t, first, last) : undefined;
    return simCall === undefined ? kind : { kind: "simTest", call: simCall, range: [first, last] };
  });
  const chosen = chooseBody(kinds);
  if (chosen === undefined) return undefined;
  const [first, last] = call.args[chosen.body]!;
  const kind = kinds[chosen.body]!;
  let body: PropertyBody;
  const bound = kind.kind === "name" && kind.name !== undefined ? boundCall(t, kind.name, first) : undefined;
  const boundSim =
    bound !== undefined && bound.callee === "simTest" && bound.proper && bound.args.length >= 2 ? bound : undefined;
  if (kind.kind === "simTest") body = simTestBody(t, kind.call, kind.range, false);
  else if (boundSim !== undefined) body = simTestBody(t, boundSim, [boundSim.token, boundSim.close], true);
  else if (kind.kind === "function" || kind.kind === "name") body = plainBody(t, kind, first, last)!;
  else return undefined;
  let settings: PropertySettings | undefined;
  if (chosen.settings !== undefined) {
    const [sf, sl] = call.args[chosen.settings]!;
    const sk = kinds[chosen.settings]!;
    settings =
      sk.kind === "object"
        ? { kind: "object", open: sf, close: t.close[sf]! }
        : sk.kind === "name"
          ? { kind: "name", range: [sf, sl], name: sk.name, declared: sk.declared }
          : { kind: "other", range: [sf, sl] };
  }
  return { t, ...call, body, bodyIndex: chosen.body, settings };
}

function plainBody(t: SourceText, kind: ArgumentKind, first: number, last: number): PlainBody | undefined {
  if (kind.kind === "function") return { kind: "inline", fn: kind.fn, range: [first, last] };
  if (kind.kind === "name")
    return {
      kind: "named",
      text: t.text(first, last),
      await: !(kind.declared.kind === "function" && !kind.declared.async),
    };
  return undefined;
}

/** The `simTest(…)` call spanning tokens first..last exactly (`simTest(`, renamed, `ss.simTest(`). */
function simTestAt(t: SourceText, first: number, last: number): CallTokens | undefined {
  const call = ourCallAt(t, first);
  return call !== undefined && call.callee === "simTest" && call.proper && call.close === last && call.args.length >= 2
    ? call
    : undefined;
}

/** A simTest call taken apart: its options argument, and its workload (the body of the property, given its arguments). */
function simTestBody(t: SourceText, call: CallTokens, range: readonly [number, number], bound: boolean): PropertyBody {
  const [of, ol] = call.args[0]!;
  const [wf, wl] = call.args[1]!;
  return {
    kind: "simTest",
    call,
    range,
    options: [of, ol],
    workload: plainBody(t, argumentKind(t, wf, wl), wf, wl),
    bound,
  };
}

export function argumentKind(t: SourceText, first: number, last: number): ArgumentKind {
  const fn = functionAt(t, first, last);
  if (fn !== undefined) return { kind: "function", fn: { ...fn, async: fn.async || returnsPromise(t, fn) } };
  if (t.is(first, "{") && t.proper[first]) {
    const close = t.close[first]!;
    // `{ … }`, `{ … } as const`, `{ … } satisfies Settings`
    if (close === last || t.ident(close + 1) === "as" || t.ident(close + 1) === "satisfies") return { kind: "object" };
  }
  if (first === last) {
    const name = t.ident(first);
    if (
      name !== undefined &&
      name !== "undefined" &&
      name !== "null" &&
      name !== "true" &&
      name !== "false" &&
      name !== "this"
    )
      return { kind: "name", name, declared: declarationOf(t, name, first) };
    return { kind: "other" };
  }
  let k = first;
  while (k < last && (t.is(k + 1, ".") || t.is(k + 1, "?.")) && t.ident(k) !== undefined) k += 2;
  if (k === last && t.ident(k) !== undefined) return { kind: "name", name: undefined, declared: { kind: "unknown" } };
  return { kind: "other" };
}

/** Which argument is the body and which (if any) the settings; undefined when the file does not tell. */
export function chooseBody(kinds: readonly ArgumentKind[]): { body: number; settings?: number } | undefined {
  const isFunction = (a: ArgumentKind): boolean =>
    a.kind === "function" || a.kind === "simTest" || (a.kind === "name" && a.declared.kind === "function");
  const isSettings = (a: ArgumentKind): boolean =>
    a.kind === "object" || (a.kind === "name" && a.declared.kind === "settings");
  const couldBeBody = (a: ArgumentKind): boolean =>
    a.kind === "function" || a.kind === "simTest" || (a.kind === "name" && a.declared.kind !== "settings");
  const n = kinds.length;
  if (n === 0) return undefined;
  const L = n - 1;
  const P = n - 2;
  const last = kinds[L]!;
  const prev = kinds[P];
  if (isSettings(last)) return prev !== undefined && couldBeBody(prev) ? { body: P, settings: L } : undefined;
  if (isFunction(last)) return { body: L };
  if (prev === undefined) return couldBeBody(last) ? { body: L } : undefined;
  if (isFunction(prev)) return { body: P, settings: L }; // `property(s, check, opts)`: a body is never followed by a strategy
  if (last.kind !== "name") return undefined;
  // The last is a name the file does not explain (imported, or bound to a call).
  if (last.name !== undefined && SETTINGS_NAME.test(last.name))
    return couldBeBody(prev) ? { body: P, settings: L } : undefined;
  // A strategy before it (`st.integers()`, or a name bound to a call) makes the last one the body.
  if (prev.kind === "other" || (prev.kind === "name" && prev.declared.kind === "value")) return { body: L };
  return undefined;
}

/** The property body's source: the body argument of the property call (before optional settings). */
export function propertyBody(
  source: string,
  propertyOffset: number,
  fileName?: string,
): { text: string; isAsync: boolean; named: boolean } | undefined {
  const call = propertyCall(source, propertyOffset, fileName === undefined ? {} : { fileName });
  if (call === undefined) return undefined;
  const b = call.body;
  if (b.kind === "named") return { text: b.text, isAsync: b.await, named: true };
  if (b.kind === "simTest") return { text: call.t.text(b.range[0], b.range[1]), isAsync: true, named: false };
  return { text: call.t.text(b.range[0], b.range[1]), isAsync: b.fn.async, named: false };
}
