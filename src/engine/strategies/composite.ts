/**
 * st.composite: a strategy written as code. The function gets `draw` and calls it on other strategies, in any
 * order and as often as it likes, all in the same test case — so what it builds shrinks through the choices
 * its draws made, as any other strategy's value does.
 *
 * What st.composite returns is both a strategy (the function called with no arguments of its own) and a
 * factory: called with arguments, it gives a strategy that passes them on after `draw`, as Hypothesis's
 * @composite does — `sortedPair` and `sortedPair(100)` both work where a strategy is expected.
 */
import { invalid } from "../util/errors.ts";
import type { TestCase } from "../core/testCase.ts";
import { isThenable } from "../util/thenable.ts";
import { describe, requireStrategy, Strategy } from "./strategy.ts";

/** Draws a value from a strategy, inside st.composite's function. */
export type Draw = <T>(strategy: Strategy<T>) => T;

const API = "st.composite";

class Composite<T, A extends unknown[]> extends Strategy<T> {
  constructor(
    private readonly build: (draw: Draw, ...args: A) => T,
    private readonly args: A,
  ) {
    super("composite");
  }
  protected doDraw(tc: TestCase): T {
    let open = true;
    const draw: Draw = (strategy) => {
      if (!open) invalid(API, "draw was called after the function returned (keep draws inside the function)");
      requireStrategy(API, strategy, "draw's argument");
      return strategy.draw(tc);
    };
    try {
      const value = this.build(draw, ...this.args);
      if (isThenable(value))
        invalid(API, "the function returned a promise; a strategy must build its value synchronously");
      return value;
    } finally {
      open = false;
    }
  }
}

/** A strategy that is also a factory of strategies taking the function's extra arguments. */
export type CompositeStrategy<T, A extends unknown[]> = Strategy<T> & ((...args: A) => Strategy<T>);

/**
 * A strategy written as code: `build(draw, ...args)` draws from other strategies and returns the value.
 * @example
 * const sortedPair = st.composite((draw, max = 100) => {
 *   const a = draw(st.integers({ min: 0, max }));
 *   return [a, draw(st.integers({ min: a, max }))] as const;
 * });
 * property(sortedPair, ([a, b]) => …);     // a strategy
 * property(sortedPair(10), ([a, b]) => …); // with an argument
 */
export function composite<T, A extends unknown[] = []>(build: (draw: Draw, ...args: A) => T): CompositeStrategy<T, A> {
  if (typeof build !== "function") invalid(API, `expects a function (draw, ...args) => value, got ${describe(build)}`);
  const factory = (...args: A): Strategy<T> => new Composite(build, args);
  // The factory is the strategy with no extra arguments too: its prototype is Composite's, and it carries the
  // fields a Composite made by `new` has.
  Object.setPrototypeOf(factory, Composite.prototype);
  Object.defineProperties(factory, {
    label: { value: "composite" },
    build: { value: build },
    args: { value: [] },
  });
  return factory as unknown as CompositeStrategy<T, A>;
}
