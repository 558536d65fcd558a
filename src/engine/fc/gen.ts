/**
 * fc.gen(): a function the predicate calls to draw values as it goes, `g(fc.integer, { min: 0 })` — the engine's
 * st.data() underneath (inBody.ts), so the draws are choices of the case: they shrink, replay and print like the
 * others.
 */
import type { Strategy } from "./engine.ts";
import type { Arbitrary } from "./arbitrary.ts";
import { arbitraryOf } from "./arbitrary.ts";
import { InBodyArbitrary } from "./inBody.ts";
import type { DataObject } from "./inBody.ts";

/** The value of fc.gen(): draws a value of `builder(...args)`. */
export type GenValue = <T, A extends unknown[]>(builder: (...args: A) => Strategy<T>, ...args: A) => T;

class GenArbitrary extends InBodyArbitrary<GenValue> {
  valueFor(data: DataObject): GenValue {
    return (builder, ...args) => data.draw(arbitraryOf("fc.gen", builder(...args), "the builder's result"));
  }
}

export function gen(): Arbitrary<GenValue> {
  return new GenArbitrary();
}
