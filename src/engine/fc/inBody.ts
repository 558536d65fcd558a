/**
 * Arbitraries whose value draws while the predicate runs — fc.gen()'s function, fc.scheduler()'s scheduler. Each is
 * st.data() underneath: fc.property gives the engine the st.data() itself (so the engine knows the case draws in its
 * body, and lists those draws in its report) and the predicate the value made from its draw object. As
 * fast-check's, they are arguments of the property itself.
 */
import { note, st } from "./engine.ts";
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

/**
 * `predicate`, given the values of the arguments drawn in its body (the st.data() object the engine drew made each
 * one's value); a failure — a throw, a rejection, a false — notes what they tell first. `predicate` itself when
 * there are none.
 */
export function givenInBodyValues<Ts extends unknown[]>(
  arbitraries: readonly Arbitrary<unknown>[],
  predicate: (...args: Ts) => unknown,
): (...args: Ts) => unknown {
  const inBody = arbitraries.flatMap((a, i) => (a instanceof InBodyArbitrary ? [[i, a] as const] : []));
  if (inBody.length === 0) return predicate;
  return (...drawn: Ts) => {
    const args = [...drawn] as unknown[] as Ts;
    for (const [i, a] of inBody) args[i] = a.valueFor(drawn[i] as DataObject);
    const noteAll = () => {
      for (const [i, a] of inBody) {
        const text = a.noteOf(args[i]);
        if (text !== undefined) note(text);
      }
    };
    let out: unknown;
    try {
      out = predicate(...args);
    } catch (e) {
      noteAll();
      throw e;
    }
    if (out === false) noteAll();
    else if (out !== null && typeof (out as PromiseLike<unknown>)?.then === "function")
      return Promise.resolve(out).then(
        (v) => {
          if (v === false) noteAll();
          return v;
        },
        (e: unknown) => {
          noteAll();
          throw e;
        },
      );
    return out;
  };
}
