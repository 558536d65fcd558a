/**
 * Find a (hopefully large) n with f(n) true and f(n + 1) false, given f(0) is true (not checked).
 *
 * Every call of f runs the property, so calls are the cost. Small answers are the common case, so the search
 * first steps linearly to 4 (a plain binary search would spend twice the calls when the answer is 0), then
 * doubles, then bisects — Hypothesis's find_integer. Written as a generator so that f may run test cases
 * (the shrinker yields them to the engine); `findInteger` is the plain synchronous form.
 */
export function* findIntegerG<Y, R>(f: (n: number) => Generator<Y, boolean, R>): Generator<Y, number, R> {
  for (let i = 1; i < 5; i++) if (!(yield* f(i))) return i - 1;
  let lo = 4;
  let hi = 5;
  while (yield* f(hi)) {
    lo = hi;
    hi *= 2;
    if (!Number.isSafeInteger(hi)) return lo;
  }
  while (lo + 1 < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (yield* f(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

export function findInteger(f: (n: number) => boolean): number {
  // eslint-disable-next-line require-yield
  const gen = findIntegerG(function* (n: number): Generator<never, boolean, unknown> {
    return f(n);
  });
  const r = gen.next();
  return r.value as number;
}
