/**
 * `test.prop` for a test runner's `test` and `it` (vitest's, jest's), fast-check's connectors' shape:
 * `test.prop([arbitraries], parameters?)(name, predicate, timeout?)` and `test.prop({ a: arbitrary }, …)` (the
 * predicate then gets one object), on `test` and on each of its modifiers — `test.only.prop`, `test.skip.prop`,
 * `test.concurrent.prop`, `test.concurrent.skip.prop`, … The arbitraries may be fc.* or st.*.
 *
 * The property is made when the test is declared, keyed by the file that declared it, and is itself the test's
 * function: the runner calls it with its context, so the engine learns the test's name as it does for property().
 */
import type { Strategy } from "../strategies/strategy.ts";
import type { Parameters } from "../fc/parameters.ts";
import { FcProperty, record, Arbitrary } from "./fc.ts";

type Predicate<Ts extends unknown[]> = (...args: Ts) => boolean | void | PromiseLike<boolean | void>;
type RecordOf<M> = { [K in keyof M]: M[K] extends Strategy<infer T> ? T : never };

/** test.prop: declares a property test with the arbitraries given as a tuple, or as an object of named ones. */
export interface Prop {
  <Ts extends [unknown, ...unknown[]]>(
    arbitraries: { [K in keyof Ts]: Strategy<Ts[K]> },
    parameters?: Parameters<Ts>,
  ): (name: string, predicate: Predicate<Ts>, timeout?: number) => void;
  <M extends Record<string, Strategy<unknown>>>(
    arbitraries: M,
    parameters?: Parameters<[RecordOf<M>]>,
  ): (
    name: string,
    predicate: (values: RecordOf<M>) => boolean | void | PromiseLike<boolean | void>,
    timeout?: number,
  ) => void;
}

/** The modifiers that give another `test` of the same kind (each gets a `.prop` too). */
const MODIFIERS = new Set(["only", "skip", "concurrent", "sequential", "fails", "failing", "todo", "shuffle"]);

/** A runner's `test` (or `it`, or one of their modifiers) as it is called to declare a test. */
type Declare = (name: string, fn: (...args: never[]) => unknown, timeout?: number) => unknown;

export type WithProp<T> = T & { prop: Prop } & {
  [K in keyof T & ("only" | "skip" | "concurrent" | "sequential" | "fails" | "failing")]: WithProp<T[K]>;
};

/** `base` with `.prop`, on itself and on its modifiers. */
export function withProp<T extends object>(base: T, api: string): WithProp<T> {
  const prop = (arbitraries: unknown, parameters?: Parameters) => {
    const tuple = Array.isArray(arbitraries);
    if (!tuple && (arbitraries === null || typeof arbitraries !== "object" || arbitraries instanceof Arbitrary))
      throw new TypeError(
        `${api}.prop: give the arbitraries as an array ([fc.nat(), …]) or an object ({ a: fc.nat(), … })`,
      );
    const args = tuple
      ? (arbitraries as Strategy<unknown>[])
      : [record(arbitraries as Record<string, Strategy<unknown>>)];
    return function declare(name: string, predicate: (...args: never[]) => unknown, timeout?: number): unknown {
      if (typeof predicate !== "function")
        throw new TypeError(`${api}.prop(…)("${name}", …): the predicate must be a function`);
      const property = new FcProperty(
        args.map((a) => (a instanceof Arbitrary ? a : new Arbitrary(a))),
        predicate as (...a: unknown[]) => unknown,
        false,
        declare,
        parameters,
      );
      return (base as unknown as Declare)(name, property.run, timeout);
    };
  };
  return new Proxy(base, {
    get(target, key, receiver) {
      if (key === "prop") return prop;
      const v = Reflect.get(target, key, receiver);
      return typeof key === "string" &&
        MODIFIERS.has(key) &&
        v !== null &&
        (typeof v === "function" || typeof v === "object")
        ? withProp(v as object, `${api}.${key}`)
        : v;
    },
  }) as WithProp<T>;
}
