/**
 * st.functions: pure functions whose results are drawn when first asked. The function a test case gets holds
 * that test case; called with arguments it has not seen, it draws a result from `returns` in the same test case
 * (as st.data() draws in the body), so results are choices like any other — shrunk, replayed, shown — and called
 * again with equal arguments it gives the same result. Arguments are equal when their keys are (argumentsKey):
 * JSON with bigints, undefined, −0, NaN, ±Infinity, Maps and Sets told apart.
 *
 * It prints as the lookup over the calls its test case made, a function expression that is both JavaScript and
 * TypeScript under `strict` (its parameters are typed by their default values, the arguments read through
 * `arguments`): pasted into a regression test, it gives the same results for the same calls, so the test fails
 * the same way. A call with new arguments after the test case ended is an error naming st.functions.
 */
import { getCurrent } from "../core/context.ts";
import type { TestCase } from "../core/testCase.ts";
import { invalid } from "../util/errors.ts";
import { printAs } from "../print/printedAs.ts";
import { toLiteral } from "../print/printer.ts";
import { quote } from "../print/literals.ts";
import { requireStrategy, Strategy } from "./strategy.ts";
import { checkOptions } from "./options.ts";

export interface FunctionsOptions<R> {
  /** Where each new call's result is drawn from. */
  returns: Strategy<R>;
}

const API = "st.functions";

/** The functions each case drew, in order (for TestCase.redrawOf: a redraw draws them in the same order). */
const drawnIn = new WeakMap<TestCase, unknown[]>();

/**
 * The replacer of argumentsKey, as the printed lookup writes it (the same source text, so the two agree).
 * JSON alone would make undefined, NaN and ±Infinity null, −0 0, Maps and Sets {}, and throw on a bigint.
 */
const REPLACER_SOURCE =
  '(_, v) => typeof v === "bigint" ? ["\\u0000bigint", String(v)] : v === undefined ? ["\\u0000undefined"] : ' +
  'typeof v === "number" && (Object.is(v, -0) || !Number.isFinite(v)) ? ["\\u0000number", Object.is(v, -0) ? "-0" : String(v)] : ' +
  'v instanceof Map ? ["\\u0000Map", ...v] : v instanceof Set ? ["\\u0000Set", ...v] : v';
/** How a value the replacer marked begins in a key. */
const MARK = JSON.stringify("\u0000").slice(0, -1);
const replacer = (0, eval)(REPLACER_SOURCE) as (key: string, value: unknown) => unknown;

/** The key calls are told apart by: two calls with the same key get the same result. */
export function argumentsKey(args: readonly unknown[]): string {
  return JSON.stringify(args, replacer);
}

class Functions<R> extends Strategy<(...args: unknown[]) => R> {
  constructor(readonly returns: Strategy<R>) {
    super("function");
  }
  protected doDraw(tc: TestCase): (...args: unknown[]) => R {
    // Drawn again to print a failure's arguments: the function the body called, with the calls it recorded.
    let here = drawnIn.get(tc);
    if (here === undefined) drawnIn.set(tc, (here = []));
    const at = here.length;
    const original = tc.redrawOf === null ? undefined : drawnIn.get(tc.redrawOf)?.[at];
    here.push(original);
    if (original !== undefined) return original as (...args: unknown[]) => R;
    const returns = this.returns;
    const results = new Map<string, R>();
    let arity = 1;
    const f = (...args: unknown[]): R => {
      const key = argumentsKey(args);
      if (results.has(key)) return results.get(key) as R;
      let live: TestCase | undefined;
      try {
        live = getCurrent(API);
      } catch {
        live = undefined;
      }
      if (live !== tc)
        invalid(
          API,
          `the function was called with new arguments (${key}) after its test case ended; call it inside the property's body`,
        );
      tc.startSpan("function result");
      const r = tc.drawMs < 0 ? returns.draw(tc) : tc.timedDraw(() => returns.draw(tc));
      tc.endSpan();
      results.set(key, r);
      arity = Math.max(arity, args.length);
      return r;
    };
    printAs(f, () => lookup(results, arity));
    here[at] = f;
    return f;
  }
}

/** The printed form: a function giving each recorded call's result, and the first result for any other call. */
function lookup(results: ReadonlyMap<string, unknown>, arity: number): string {
  const params = [
    'a = JSON.parse("0")',
    ..."bcdefghijklmnopqrstuvwxyz"
      .slice(0, arity - 1)
      .split("")
      .map((p) => `${p} = a`),
  ];
  const cases = [...results].map(([key, r]) => `case ${quote(key)}: return ${toLiteral(r)};`);
  const first = results.values().next();
  const other = first.done
    ? `default: throw new Error(${quote("st.functions: a call the failing case did not make")});`
    : `default: return ${toLiteral(first.value)};`;
  // The replacer only where a recorded call needed it: without a marked value, plain JSON makes the same keys.
  const marked = [...results.keys()].some((key) => key.includes(MARK));
  const key = marked ? `JSON.stringify([...arguments], ${REPLACER_SOURCE})` : "JSON.stringify([...arguments])";
  return `(function (${params.join(", ")}) { switch (${key}) { ${[...cases, other].join(" ")} } })`;
}

/** How much of a strategy's structure `makesFunctions` reads (a sampledFrom of a huge array stops there). */
const WALK_BUDGET = 2000;

/**
 * Whether these strategies make st.functions() anywhere in them (a list of functions, a record with one): the
 * results of such a function are drawn when the body calls it, so the property's choices and spans do not all
 * come from drawing its arguments. Reads the strategies' own fields, cycle-safe and budgeted; a deferred
 * strategy's thunk is not forced and a flatMap's function not called, so a function strategy only they make is
 * not seen.
 */
export function makesFunctions(strategies: readonly unknown[]): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [...strategies];
  let budget = WALK_BUDGET;
  while (stack.length > 0 && budget-- > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    if (v instanceof Functions) return true;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length && i < WALK_BUDGET; i++) if (typeof v[i] === "object") stack.push(v[i]);
    } else if (v instanceof Strategy) {
      // (A strategy's fields are data fields: reading them calls no code.)
      for (const field of Object.values(v)) if (typeof field === "object") stack.push(field);
    }
  }
  return false;
}

/**
 * Pure functions whose results are drawn from `returns` when a call with new arguments is made (equal arguments,
 * the same result); shrinks every result toward its simplest. Prints as a lookup over the calls the case made.
 * @example
 * property(st.functions({ returns: st.integers() }), st.integers(), (f, x) => {
 *   assert.equal(f(x), f(x)); // pure
 * });
 */
export function functions<R>(options: FunctionsOptions<R>): Strategy<(...args: any[]) => R> {
  const o = checkOptions(API, options, ["returns"]);
  if (o.returns === undefined) invalid(API, "returns is required: the strategy each result is drawn from");
  requireStrategy(API, o.returns, "returns");
  return new Functions(o.returns as Strategy<R>);
}
