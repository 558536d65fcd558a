/**
 * Recursive arbitraries, fast-check's two ways: fc.letrec ties arbitraries to each other by name (each tie a
 * st.deferred, resolved on first draw), and fc.memo builds one per remaining depth, each calling the builder for the
 * depth below when it calls the memo without a depth.
 */
import { InvalidArgument, st } from "./engine.ts";
import { Arbitrary, arbitraryOf } from "./arbitrary.ts";
import { typeName } from "./options.ts";

/** The arbitraries `builder` returns, each of which may draw the others through `tie(name)`. */
export function letrec<T extends Record<string, unknown>>(
  builder: (tie: (key: string) => Arbitrary<unknown>) => { [K in keyof T]: Arbitrary<T[K]> },
): { [K in keyof T]: Arbitrary<T[K]> } {
  const api = "fc.letrec";
  if (typeof builder !== "function")
    throw new InvalidArgument(`${api}: expects a builder function, got ${typeName(builder)}`);
  const built: Record<string, Arbitrary<unknown>> = {};
  const tie = (key: string): Arbitrary<unknown> =>
    new Arbitrary(
      st.deferred(() => {
        const a = built[key];
        if (a === undefined)
          throw new InvalidArgument(
            `${api}: tie("${key}") names no arbitrary the builder returned (it returned ${Object.keys(built).join(", ") || "none"})`,
          );
        return a;
      }),
    );
  const out = builder(tie);
  if (out === null || typeof out !== "object")
    throw new InvalidArgument(`${api}: the builder must return an object of arbitraries, got ${typeName(out)}`);
  for (const k of Object.keys(out)) built[k] = arbitraryOf(api, out[k], `the arbitrary "${k}"`);
  return built as { [K in keyof T]: Arbitrary<T[K]> };
}

/** The depth a memo called without one builds at: one less than the depth being built (10 at the top). */
let remainingDepth = 10;

/** What fc.memo returns: the arbitrary for a depth (by default, the one below the depth being built). */
export type Memo<T> = (maxDepth?: number) => Arbitrary<T>;

/** A function of a depth returning the arbitrary `builder` makes for it, made once per depth. */
export function memo<T>(builder: (maxDepth: number) => Arbitrary<T>): Memo<T> {
  if (typeof builder !== "function")
    throw new InvalidArgument(`fc.memo: expects a builder function, got ${typeName(builder)}`);
  const made = new Map<number, Arbitrary<T>>();
  return (maxDepth?: number) => {
    const n = maxDepth ?? remainingDepth;
    let a = made.get(n);
    if (a === undefined) {
      const outer = remainingDepth;
      remainingDepth = n - 1;
      try {
        a = arbitraryOf<T>("fc.memo", builder(n), "the builder's result");
      } finally {
        remainingDepth = outer;
      }
      made.set(n, a);
    }
    return a;
  };
}
