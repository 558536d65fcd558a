/**
 * fc.gen(): a function the predicate calls to draw values as it goes, `g(fc.integer, { min: 0 })` — the engine's
 * st.data() underneath, so the draws are choices of the case (they shrink, replay and print like the others). As
 * fast-check's, it is an argument of the property itself.
 */
import { st } from "./engine.ts";
import type { Strategy } from "./engine.ts";
import { Arbitrary, arbitraryOf } from "./arbitrary.ts";

/** The value of fc.gen(): draws a value of `builder(...args)`. */
export type GenValue = <T, A extends unknown[]>(builder: (...args: A) => Strategy<T>, ...args: A) => T;

/** st.data()'s object, as its strategy gives it. */
type DataObject = ReturnType<typeof st.data> extends Strategy<infer D> ? D : never;

/** The arbitrary fc.gen() makes; fc.property gives the engine its st.data() and the predicate the function. */
export class GenArbitrary extends Arbitrary<GenValue> {
  constructor() {
    super(st.data() as unknown as Strategy<GenValue>);
  }
}

export function gen(): Arbitrary<GenValue> {
  return new GenArbitrary();
}

/** The function a predicate gets for the st.data() object the engine drew. */
export function genValue(data: unknown): GenValue {
  const d = data as DataObject;
  return (builder, ...args) => d.draw(arbitraryOf("fc.gen", builder(...args), "the builder's result"));
}
