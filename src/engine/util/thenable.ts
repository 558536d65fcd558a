/**
 * Whether a value is a thenable: the one test the engine uses wherever user code may hand back a promise (a
 * property body, a machine's rule, a custom database's method, a filter's predicate) and must be told apart
 * from a plain value.
 */

/** Whether `x` has a callable `then`. Reading `then` runs user code (a getter, a Proxy trap): call it inside a try. */
export function isThenable(x: unknown): x is PromiseLike<unknown> {
  return (
    x !== null &&
    (typeof x === "object" || typeof x === "function") &&
    typeof (x as { then?: unknown }).then === "function"
  );
}
