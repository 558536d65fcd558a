/**
 * fc.infiniteStream(arb): a stream whose values are drawn when the predicate asks for them — each new index a draw
 * of the case, by st.functions (the value at index i is its result for i), so the engine records those draws as it
 * runs, and they shrink and replay like any other choice. A Stream has fast-check's common methods.
 */
import { st } from "./engine.ts";
import type { Strategy } from "./engine.ts";
import { Arbitrary, arbitraryOf } from "./arbitrary.ts";

/** An iterable that can be taken from, mapped and filtered lazily (fast-check's Stream, its common part). */
export class Stream<T> implements IterableIterator<T> {
  constructor(private readonly source: Iterator<T>) {}
  next(): IteratorResult<T> {
    return this.source.next();
  }
  [Symbol.iterator](): this {
    return this;
  }
  map<U>(f: (v: T) => U): Stream<U> {
    const self = this;
    return new Stream(
      (function* () {
        for (const v of self) yield f(v);
      })(),
    );
  }
  filter(p: (v: T) => boolean): Stream<T> {
    const self = this;
    return new Stream(
      (function* () {
        for (const v of self) if (p(v)) yield v;
      })(),
    );
  }
  take(n: number): Stream<T> {
    const self = this;
    return new Stream(
      (function* () {
        if (n <= 0) return;
        let k = 0;
        for (const v of self) {
          yield v;
          if (++k >= n) return;
        }
      })(),
    );
  }
  drop(n: number): Stream<T> {
    const self = this;
    return new Stream(
      (function* () {
        let k = 0;
        for (const v of self) if (k++ >= n) yield v;
      })(),
    );
  }
  takeWhile(p: (v: T) => boolean): Stream<T> {
    const self = this;
    return new Stream(
      (function* () {
        for (const v of self) {
          if (!p(v)) return;
          yield v;
        }
      })(),
    );
  }
  every(p: (v: T) => boolean): boolean {
    for (const v of this) if (!p(v)) return false;
    return true;
  }
  has(p: (v: T) => boolean): [boolean, T | null] {
    for (const v of this) if (p(v)) return [true, v];
    return [false, null];
  }
  getNthOrLast(n: number): T | null {
    let last: T | null = null;
    let k = 0;
    for (const v of this) {
      last = v;
      if (k++ === n) return v;
    }
    return last;
  }
}

/** An endless stream of `arb`'s values, each drawn when it is first read. */
export function infiniteStream<T>(arb: Strategy<T>): Arbitrary<Stream<T>> {
  const values = arbitraryOf<T>("fc.infiniteStream", arb, "the arbitrary");
  return new Arbitrary(
    st.functions({ returns: values }).map(
      (at) =>
        new Stream(
          (function* () {
            for (let i = 0; ; i++) yield at(i) as T;
          })(),
        ),
    ),
  );
}
