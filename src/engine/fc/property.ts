/**
 * fc.property and fc.asyncProperty: a predicate over the values of some arbitraries, made into an engine property
 * when it is declared. The engine keys it (its database key, test names) by the file that called fc.property, not by
 * this adapter's, and runs it without a per-case deadline. A predicate fails by throwing or by returning (or
 * resolving to) false; fc.pre discards the case, as assume() does.
 */
import type { Property } from "../property/definition.ts";
import type { RunEnd, BodyHooks } from "../property/definition.ts";
import { assume, InvalidArgument, property as engineProperty, Strategy } from "./engine.ts";
import { Arbitrary, arbitraryOf } from "./arbitrary.ts";
import { typeName } from "./options.ts";
import { declaredAt, fastCheckRunning } from "./differential.ts";
import { givenInBodyValues, InBodyArbitrary } from "./inBody.ts";
import type { AsyncPropertyHook, Parameters, PropertyHook } from "./parameters.ts";
import { parametersOf, readConfigureGlobal, settingsOf } from "./parameters.ts";

/** Where a body keeps its hooks (property/definition.ts's BODY_HOOKS: a registered symbol, the same in every copy). */
export const BODY_HOOKS = Symbol.for("shrinkscope.bodyHooks");

/** A precondition: false discards the case (it is neither a pass nor a failure), as fast-check's pre. */
export function pre(expectTruthy: boolean): asserts expectTruthy {
  // While fast-check runs the predicate to compare (SHRINKSCOPE_FC_DIFF=1), its own precondition.
  if (fastCheckRunning !== null) fastCheckRunning.pre(expectTruthy);
  else assume(expectTruthy);
}

type Predicate<Ts extends unknown[]> = (...args: Ts) => boolean | void;
type AsyncPredicate<Ts extends unknown[]> = (...args: Ts) => Promise<boolean | void>;

/** A property of shrinkscope/fc: what fc.assert and fc.check run (their parameters over its engine property). */
export class FcProperty<Ts extends unknown[]> {
  /** The engine's property, made when this one was declared. */
  readonly run: Property;
  /** How its last run ended (fc.check reports a passing run's counts from it). */
  last: RunEnd | undefined = undefined;
  /** What SHRINKSCOPE_FC_DIFF=1 gives fast-check to run the same property (differential.ts). */
  readonly comparable: {
    readonly arbitraries: readonly Arbitrary<unknown>[];
    readonly predicate: Function;
    readonly async: boolean;
    readonly at: string | undefined;
  };
  #before: (() => void | Promise<void>) | undefined = undefined;
  #after: (() => void | Promise<void>) | undefined = undefined;

  constructor(
    readonly arbitraries: readonly Arbitrary<unknown>[],
    predicate: (...args: Ts) => unknown,
    readonly async: boolean,
    caller: Function,
    /** Parameters of the property's own, for every run (test.prop's): a run's own go over them. */
    parameters?: Parameters,
  ) {
    const self = this;
    const userPredicate = predicate;
    this.comparable = { arbitraries, predicate, async, at: declaredAt() };
    // fc.gen() and fc.scheduler() arguments: the engine draws st.data(), the predicate gets their value (inBody.ts).
    predicate = givenInBodyValues(arbitraries, predicate);
    const body = async
      ? async function (...args: unknown[]): Promise<unknown> {
          const globals = readConfigureGlobal();
          await (self.#before ?? globals.asyncBeforeEach ?? globals.beforeEach)?.();
          try {
            return await predicate(...(args as Ts));
          } finally {
            await (self.#after ?? globals.asyncAfterEach ?? globals.afterEach)?.();
          }
        }
      : function (...args: unknown[]): unknown {
          const globals = readConfigureGlobal();
          (self.#before ?? globals.beforeEach)?.();
          try {
            return predicate(...(args as Ts));
          } finally {
            (self.#after ?? globals.afterEach)?.();
          }
        };
    const hooks: BodyHooks = { keySource: userPredicate, caller, ran: (end) => (self.last = end) };
    Object.defineProperty(body, BODY_HOOKS, { value: hooks });
    const strategies = arbitraries.map((a) => (a instanceof InBodyArbitrary ? a.inner : a));
    this.run =
      parameters === undefined
        ? engineProperty(...strategies, body)
        : engineProperty(...strategies, body, settingsOf("test.prop", parametersOf("test.prop", parameters)));
  }

  isAsync(): boolean {
    return this.async;
  }

  /** Run `hook` before each call of the predicate, instead of the global one (which it is given, to call). */
  beforeEach(hook: (globalHook: () => void) => void | Promise<void>): this {
    if (typeof hook !== "function") throw new InvalidArgument(`beforeEach: expects a function, got ${typeName(hook)}`);
    this.#before = () => hook(globalHook(this.async, "before"));
    return this;
  }

  /** Run `hook` after each call of the predicate, instead of the global one (which it is given, to call). */
  afterEach(hook: (globalHook: () => void) => void | Promise<void>): this {
    if (typeof hook !== "function") throw new InvalidArgument(`afterEach: expects a function, got ${typeName(hook)}`);
    this.#after = () => hook(globalHook(this.async, "after"));
    return this;
  }
}

function globalHook(async: boolean, when: "before" | "after"): () => void {
  const g = readConfigureGlobal();
  const hook: PropertyHook | AsyncPropertyHook | undefined =
    when === "before"
      ? async
        ? (g.asyncBeforeEach ?? g.beforeEach)
        : g.beforeEach
      : async
        ? (g.asyncAfterEach ?? g.afterEach)
        : g.afterEach;
  return () => void hook?.();
}

type Arbitraries<Ts extends unknown[]> = { [K in keyof Ts]: Strategy<Ts[K]> };

/** The arbitraries and the predicate of a property(…) call, checked. */
function split(api: string, args: unknown[]): { arbitraries: Arbitrary<unknown>[]; predicate: Function } {
  const predicate = args[args.length - 1];
  if (typeof predicate !== "function")
    throw new InvalidArgument(`${api}: the last argument must be the predicate, got ${typeName(predicate)}`);
  const given = args.slice(0, -1);
  if (given.length === 0) throw new InvalidArgument(`${api}: give at least one arbitrary before the predicate`);
  return { arbitraries: given.map((a, i) => arbitraryOf(api, a, `argument ${i}`)), predicate };
}

/** A property: `predicate` must hold (not throw, not return false) for all values of the arbitraries. */
export function property<Ts extends [unknown, ...unknown[]]>(
  ...args: [...arbitraries: Arbitraries<Ts>, predicate: Predicate<Ts>]
): FcProperty<Ts> {
  const { arbitraries, predicate } = split("fc.property", args);
  return new FcProperty<Ts>(arbitraries, predicate as Predicate<Ts>, false, property);
}

/** A property whose predicate is async: fc.assert and fc.check return promises for it. */
export function asyncProperty<Ts extends [unknown, ...unknown[]]>(
  ...args: [...arbitraries: Arbitraries<Ts>, predicate: AsyncPredicate<Ts>]
): FcProperty<Ts> {
  const { arbitraries, predicate } = split("fc.asyncProperty", args);
  return new FcProperty<Ts>(arbitraries, predicate as AsyncPredicate<Ts>, true, asyncProperty);
}
