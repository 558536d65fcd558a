/**
 * Arbitraries whose value draws while the predicate runs — fc.gen()'s function, fc.scheduler()'s scheduler. Each is
 * st.data() underneath: fc.property gives the engine the st.data() itself (so the engine knows the case draws in its
 * body, and lists those draws in its report) and the predicate the value made from its draw object. As
 * fast-check's, they are arguments of the property itself.
 */
import { st } from "./engine.ts";
import type { Strategy } from "./engine.ts";
import { Arbitrary } from "./arbitrary.ts";

/** st.data()'s object, as its strategy gives it. */
export type DataObject = ReturnType<typeof st.data> extends Strategy<infer D> ? D : never;

export abstract class InBodyArbitrary<T> extends Arbitrary<T> {
  constructor() {
    super(st.data() as unknown as Strategy<T>);
  }
  /** The value the predicate gets, drawing from `data` as it is used. */
  abstract valueFor(data: DataObject): T;
  /** What a failure's report notes of the value (a scheduler's log of its tasks), if anything. */
  noteOf(_value: T): string | undefined {
    return undefined;
  }
}
