/**
 * The public entry points: property(), check(), find(). A property is a plain zero-argument test function, so
 * every test runner can call it.
 *
 * Each checks what it is given (misuse throws InvalidArgument naming the function, before any case runs) and
 * makes a PropertyDefinition (definition.ts), which run.ts runs.
 */
import { invalid } from "../util/errors.ts";
import { describe, requireStrategy, Strategy } from "../strategies/strategy.ts";
import { DEFINITION, hooksOf } from "./definition.ts";
import type { Property, PropertyDefinition } from "./definition.ts";
import { NoSuchExample, PropertyFailure } from "./errors.ts";
import { DefinitionKey } from "./key.ts";
import { propertyFromDefinition, runDefinition } from "./run.ts";
import type { Settings } from "./settings.ts";
import { ALL_PHASES, validateSettings } from "./settings.ts";

type Body<A extends unknown[]> = (...args: A) => unknown;

/**
 * Define a property: for all values the strategies generate, `body` must not throw (or reject).
 * @example test("sort is idempotent", property(st.lists(st.integers()), (xs) => { … }));
 */
export function property<A>(a: Strategy<A>, body: Body<[A]>, settings?: Settings): Property;
export function property<A, B>(a: Strategy<A>, b: Strategy<B>, body: Body<[A, B]>, settings?: Settings): Property;
export function property<A, B, C>(
  a: Strategy<A>,
  b: Strategy<B>,
  c: Strategy<C>,
  body: Body<[A, B, C]>,
  settings?: Settings,
): Property;
export function property<A, B, C, D>(
  a: Strategy<A>,
  b: Strategy<B>,
  c: Strategy<C>,
  d: Strategy<D>,
  body: Body<[A, B, C, D]>,
  settings?: Settings,
): Property;
export function property<A, B, C, D, E>(
  a: Strategy<A>,
  b: Strategy<B>,
  c: Strategy<C>,
  d: Strategy<D>,
  e: Strategy<E>,
  body: Body<[A, B, C, D, E]>,
  settings?: Settings,
): Property;
export function property<A, B, C, D, E, F>(
  a: Strategy<A>,
  b: Strategy<B>,
  c: Strategy<C>,
  d: Strategy<D>,
  e: Strategy<E>,
  f: Strategy<F>,
  body: Body<[A, B, C, D, E, F]>,
  settings?: Settings,
): Property;
export function property<A, B, C, D, E, F, G>(
  a: Strategy<A>,
  b: Strategy<B>,
  c: Strategy<C>,
  d: Strategy<D>,
  e: Strategy<E>,
  f: Strategy<F>,
  g: Strategy<G>,
  body: Body<[A, B, C, D, E, F, G]>,
  settings?: Settings,
): Property;
export function property<A, B, C, D, E, F, G, H>(
  a: Strategy<A>,
  b: Strategy<B>,
  c: Strategy<C>,
  d: Strategy<D>,
  e: Strategy<E>,
  f: Strategy<F>,
  g: Strategy<G>,
  h: Strategy<H>,
  body: Body<[A, B, C, D, E, F, G, H]>,
  settings?: Settings,
): Property;
export function property(...args: unknown[]): Property;
export function property(...args: unknown[]): Property {
  const api = "property";
  let settings: Settings | undefined;
  const last = args[args.length - 1];
  if (args.length > 0 && typeof last === "object" && last !== null && !(last instanceof Strategy)) {
    validateSettings(api, last);
    settings = last;
    args = args.slice(0, -1);
  }
  const body = args[args.length - 1];
  if (typeof body !== "function")
    invalid(
      api,
      `the last argument (before optional settings) must be the property's body function, got ${describe(body)}`,
    );
  // Calling a generator function only creates its iterator: the body would never run, and every case pass.
  const kind = Object.prototype.toString.call(body);
  if (kind === "[object GeneratorFunction]" || kind === "[object AsyncGeneratorFunction]") {
    invalid(
      api,
      `the body is a ${kind === "[object GeneratorFunction]" ? "generator" : "async generator"} function (function*): calling it runs none of its code, so nothing would be tested; use a plain or async function`,
    );
  }
  const strategies = args.slice(0, -1);
  strategies.forEach((s, i) => requireStrategy(api, s, `argument ${i}`));
  // A parameter without a strategy would be undefined in every case, and the property would pass on it.
  const wanted = (body as Function).length;
  if (wanted > strategies.length)
    invalid(
      api,
      `the body takes ${wanted} parameters but ${strategies.length} ${strategies.length === 1 ? "strategy is" : "strategies are"} given: give a strategy for each parameter (or a default value to the ones that need none)`,
    );
  checkExamples(api, settings?.examples, strategies.length, undefined);
  const hooks = hooksOf(body as Function);
  const def: PropertyDefinition = {
    strategies: strategies as Strategy<unknown>[],
    body: body as (...a: unknown[]) => unknown,
    settings,
    key: new DefinitionKey("property", strategies, hooks?.keySource ?? (body as Function), hooks?.caller ?? property),
    settingsForRun: hooks?.settingsForRun,
    ran: hooks?.ran,
  };
  return propertyFromDefinition(def);
}

/** Run a property now, with extra settings; throws (or rejects with) PropertyFailure when it fails. */
export function check(prop: Property, settings?: Settings): void | Promise<void> {
  const def = (prop as Partial<Property> | undefined)?.[DEFINITION];
  if (def === undefined) invalid("check", `expects a property made by property(...), got ${describe(prop)}`);
  validateSettings("check", settings);
  checkExamples("check", settings?.examples, def.strategies.length, def.noExamples);
  return runDefinition(def, settings);
}

/**
 * Explicit examples give the body its arguments as they are: one per strategy, or the body would run on a shifted
 * or missing argument. A kind of property with no arguments of its own (a machine) takes none.
 */
export function checkExamples(
  api: string,
  examples: readonly (readonly unknown[])[] | undefined,
  arity: number,
  none: string | undefined,
): void {
  if (examples === undefined || examples.length === 0) return;
  if (none !== undefined) invalid(api, `examples are not supported by ${none}`);
  examples.forEach((args, i) => {
    if (args.length !== arity)
      invalid(
        api,
        `examples[${i}] has ${args.length} argument${args.length === 1 ? "" : "s"}, but the property takes ${arity} (one per strategy)`,
      );
  });
}

class Found {
  constructor(readonly value: unknown) {}
}

/**
 * The simplest value the strategy generates that satisfies the predicate (sync predicates only).
 * Throws if no example is found within maxExamples.
 * @example find(st.lists(st.integers()), (xs) => xs.length > 3) // [0, 0, 0, 0]
 */
export function find<T>(strategy: Strategy<T>, predicate: (value: T) => boolean, settings?: Settings): T {
  requireStrategy("find", strategy, "strategy");
  if (typeof predicate !== "function") invalid("find", `predicate must be a function, got ${describe(predicate)}`);
  validateSettings("find", settings);
  const body = (v: unknown) => {
    const r = predicate(v as T);
    if (r !== null && typeof r === "object" && typeof (r as { then?: unknown }).then === "function")
      invalid("find", "the predicate returned a promise; find() needs a synchronous predicate");
    if (r) throw new Found(v);
  };
  const def: PropertyDefinition = {
    strategies: [strategy],
    body,
    settings,
    key: new DefinitionKey("find", [strategy], predicate, find),
    noReplay: "find",
  };
  try {
    // No explain phase: find() returns the value, and no one reads which parts of it are free.
    const phases = (settings?.phases ?? ALL_PHASES).filter((p) => p !== "explain");
    runDefinition(def, { deadline: null, ...settings, phases });
  } catch (e) {
    if (e instanceof PropertyFailure && e.cause instanceof Found) return e.args[0] as T;
    throw e;
  }
  throw new NoSuchExample(
    `find: no value satisfying the predicate was found in ${settings?.maxExamples ?? 100} examples`,
  );
}
