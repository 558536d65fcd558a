/**
 * The engine's one driver of its coroutines: a property's run (the engine's generator yields the cases to
 * execute) and a state machine's sequence (stateful/, which yields the promises its calls returned). Sync and
 * async bodies share one engine this way, and a synchronous run stays synchronous: the driver resumes the
 * generator in a plain loop while every step comes back at once, and switches to promises — for the rest of
 * the run — the first time a step returns one. A synchronous property run pays no promise per case.
 *
 * A step that throws, or whose promise rejects, ends the drive with that error and leaves the generator where
 * it was: for a property run that is misuse (InvalidArgument), which ends the run at once. A generator that
 * must see its own failures (a machine's teardown runs after a rejected rule) yields promises that settle
 * with the failure as a value, and throws it itself.
 */

/**
 * Run `gen` to its end, handing each value it yields to `step` and resuming it with what step returns (or,
 * once step has returned a promise, with what each step's result resolves to). The result is the generator's
 * own, or a promise of it when a step went async.
 */
export function drive<Y, N, R>(gen: Generator<Y, R, N>, step: (yielded: Y) => N | Promise<N>): R | Promise<R> {
  let r = gen.next();
  while (!r.done) {
    const next = step(r.value);
    if (next instanceof Promise) return driveAsync(gen, step, next);
    r = gen.next(next);
  }
  return r.value;
}

async function driveAsync<Y, N, R>(
  gen: Generator<Y, R, N>,
  step: (yielded: Y) => N | Promise<N>,
  pending: N | Promise<N>,
): Promise<R> {
  for (;;) {
    const r = gen.next(await pending);
    if (r.done) return r.value;
    pending = step(r.value);
  }
}
