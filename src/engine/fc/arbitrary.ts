/**
 * fc.Arbitrary: a Strategy with fast-check's method names. Every arbitrary of shrinkscope/fc is one, over the `st`
 * strategy that draws the same values, so `fc.*` and `st.*` mix freely (a property takes either; `.chain` may return
 * either). Values come from choices and shrinking works on the choices: an arbitrary has no generate() or shrink()
 * of its own, and a subclass that brings them is refused when it is made, with what to write instead.
 */
import type { TestCase } from "../core/testCase.ts";
import { InvalidArgument, Strategy } from "./engine.ts";
import { remember, toReal } from "./differential.ts";
import { typeName } from "./options.ts";

/** The methods of a hand-written fast-check arbitrary: a value-level model the engine never runs. */
const VALUE_METHODS = ["generate", "shrink", "canShrinkWithoutContext"] as const;

export class Arbitrary<T> extends Strategy<T> {
  /** The strategy drawing the values (a field, not private: a database key walks a strategy's fields). */
  readonly inner: Strategy<T>;

  constructor(inner?: Strategy<T>) {
    super(undefined);
    if (new.target !== Arbitrary) refuseValueModel(new.target);
    if (!(inner instanceof Strategy))
      throw new InvalidArgument(
        "fc.Arbitrary: an arbitrary is made by the fc.* functions (fc.integer(), fc.record(…), .map, .chain), not with new",
      );
    this.inner = inner;
  }

  protected doDraw(tc: TestCase): T {
    return this.inner.draw(tc);
  }
  override draw(tc: TestCase): T {
    return this.inner.draw(tc);
  }
  override distinctValues(): number {
    return this.inner.distinctValues();
  }

  /** Transform every value (`unmapper`, fast-check's way back from a value, is not needed: choices shrink). */
  override map<U>(mapper: (t: T) => U, _unmapper?: (possiblyU: unknown) => T): Arbitrary<U> {
    return remember(new Arbitrary(super.map(mapper)), (real) => method(toReal(this, real), "map")(mapper));
  }

  override filter<U extends T>(refinement: (t: T) => t is U): Arbitrary<U>;
  override filter(predicate: (t: T) => boolean): Arbitrary<T>;
  override filter(predicate: (t: T) => boolean): Arbitrary<T> {
    return remember(new Arbitrary(super.filter(predicate)), (real) => method(toReal(this, real), "filter")(predicate));
  }

  /** Draw a value, then draw from the arbitrary (or strategy) it chooses. */
  chain<U>(chainer: (t: T) => Strategy<U>): Arbitrary<U> {
    if (typeof chainer !== "function") throw new InvalidArgument(".chain: expects a function returning an arbitrary");
    return remember(new Arbitrary(super.flatMap(chainer)), (real) =>
      method(toReal(this, real), "chain")((v: T) => toReal(chainer(v), real)),
    );
  }

  /** The same arbitrary: shrinking works on the choices and costs nothing when the property passes. */
  noShrink(): Arbitrary<T> {
    return this;
  }
  /** The same arbitrary: generation's bias toward small and special values is part of every draw. */
  noBias(): Arbitrary<T> {
    return this;
  }
}

/** An arbitrary for `s`: itself when it is one, else one over the strategy (a `st.*` given where fc takes arbitraries). */
export function arbitraryOf<T>(api: string, s: unknown, what: string): Arbitrary<T> {
  if (s instanceof Arbitrary) return s as Arbitrary<T>;
  if (s instanceof Strategy) return new Arbitrary(s as Strategy<T>);
  throw new InvalidArgument(
    `${api}: ${what} must be an arbitrary (fc.integer(), …) or a strategy (st.integers(), …), got ${typeName(s)}`,
  );
}

function refuseValueModel(cls: Function): void {
  for (
    let proto = cls.prototype;
    proto !== null && proto !== Arbitrary.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    const own = VALUE_METHODS.filter((m) => Object.prototype.hasOwnProperty.call(proto, m));
    if (own.length === 0) continue;
    throw new InvalidArgument(
      `fc.Arbitrary: ${cls.name || "a subclass"} brings its own ${own.map((m) => `${m}()`).join(" and ")}, which shrinkscope/fc does not run: ` +
        "Shrinkscope draws every value from recorded choices and shrinks the choices, never values. " +
        "Build the values from arbitraries instead: fc.record({ … }), fc.tuple(…).map(([a, b]) => new Thing(a, b)), " +
        "fc.nat().chain((n) => fc.array(fc.integer(), { maxLength: n })), or st.composite((draw) => …) from shrinkscope",
    );
  }
}

/** A method of fast-check's arbitrary `a` (differential.ts). */
function method(a: unknown, name: string): (...args: unknown[]) => unknown {
  const f = (a as Record<string, (...args: unknown[]) => unknown>)[name];
  return (...args) => f.apply(a, args);
}
