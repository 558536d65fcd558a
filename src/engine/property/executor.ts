/**
 * Executing one test case of a property: draw its arguments (or take an explicit example's, copied), call the
 * body in the case's context (context.ts), and conclude the case from what the body did — returned, threw,
 * returned false, or returned a thenable, which is then waited for, at most `timeout` ms. The executor times a
 * body only when something reads the time, and stays synchronous unless the body returned a thenable: the
 * generate loop calls it for nearly every case of a run (Engine.inline), so it is the engine's hot path
 * (bench/throughput.mjs measures it).
 *
 * It also remembers, per case, what the failure report prints and the case cannot hold: the arguments of an
 * explicit example as passed in, a failure thrown while drawing the arguments, and st.data() draws as drawn.
 */
import { callInCase, markPending, markSettled, setCurrent } from "../core/context.ts";
import type { RunScope } from "../core/context.ts";
import { Status } from "../core/datatree.ts";
import { StopTest, TestCase } from "../core/testCase.ts";
import type { Strategy } from "../strategies/strategy.ts";
import { data as dataStrategy } from "../strategies/data.ts";
import { now as clock } from "../util/clock.ts";
import { clearRealTimeout, setRealTimeout } from "../util/realTimers.ts";
import { DeadlineExceeded, InvalidArgument, TimeoutError, UnsatisfiedAssumption } from "../util/errors.ts";
import { literalOrPlaceholder, printArgs } from "./failureMessage.ts";
import { errorOrigin } from "./origin.ts";
import { leftPromises, rejectionLeftBy, UNAWAITED_NOTE, watchBodyPromises } from "./unawaited.ts";

/** What executing a case needs of a property: its argument strategies and its body. */
export interface Executable {
  readonly strategies: readonly Strategy<unknown>[];
  readonly body: (...args: unknown[]) => unknown;
}

/** st.data()'s strategy class, to recognise its argument (its object of draw functions is not a value to print). */
const DataStrategy = dataStrategy().constructor;

/** Whether a property's argument is st.data() (its draws are printed, its object of draw functions is not). */
export function isData(strategy: Strategy<unknown>): boolean {
  return strategy instanceof DataStrategy;
}

/** The property's arguments, drawn in order, each in an "argument" span. */
export function drawArgs(def: Executable, tc: TestCase): unknown[] {
  const n = def.strategies.length;
  const args = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    tc.startSpan("argument");
    args[i] = def.strategies[i].draw(tc);
    tc.endSpan();
  }
  return args;
}

/** A case that returned normally: valid, unless it took longer than the deadline. */
function concludePassed(tc: TestCase, deadline: number | null): void {
  tc.closeOpenSpans();
  if (deadline !== null && tc.durationMs > deadline && tc.explicitArgs === undefined) {
    tc.status = Status.Interesting;
    tc.error = new DeadlineExceeded(
      `test case took ${tc.durationMs.toFixed(1)} ms, over the ${deadline} ms deadline (set deadline: null to disable)`,
    );
    tc.origin = "DeadlineExceeded";
  }
}

/**
 * A case that threw (or rejected with) `error`, whatever the value — `undefined` included: a control-flow
 * stop, a rejected assumption, or a failure of the property. Returns the error when it is misuse
 * (InvalidArgument: a broken strategy found while drawing, a bad call in the body), which ends the run.
 */
function concludeThrown(tc: TestCase, error: unknown): InvalidArgument | undefined {
  tc.closeOpenSpans();
  try {
    if (error instanceof StopTest) {
      tc.status = error.status;
      return undefined;
    }
    if (error instanceof UnsatisfiedAssumption) {
      tc.status = Status.Invalid;
      return undefined;
    }
    if (error instanceof InvalidArgument) return error;
  } catch {
    // instanceof cannot inspect it (a revoked Proxy): it is the user's, a failure
  }
  tc.status = Status.Interesting;
  tc.error = error;
  tc.origin = errorOrigin(error);
  return undefined;
}

/**
 * A copy of an explicit example's plain data (arrays and plain objects, at any depth, cycles kept), so a body
 * that mutates its arguments cannot change the user's `examples` (and the example the next run tries). Other
 * values (class instances, Maps, functions) are passed as they are: copying them could change what they are.
 * Accessor properties are copied as accessors, never called.
 */
function copyPlain(value: unknown, seen: Map<object, unknown>): unknown {
  if (value === null || typeof value !== "object") return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  let proto: unknown;
  try {
    proto = Object.getPrototypeOf(value);
  } catch {
    return value; // a revoked Proxy: passed as it is
  }
  const isArray = Array.isArray(value) && proto === Array.prototype;
  if (!isArray && proto !== Object.prototype && proto !== null) return value;
  try {
    const copy: object = isArray ? [] : Object.create(proto as object | null);
    seen.set(value, copy);
    const descriptors = Object.getOwnPropertyDescriptors(value);
    for (const key of Reflect.ownKeys(descriptors)) {
      const d = descriptors[key as keyof typeof descriptors];
      if ("value" in d) d.value = copyPlain(d.value, seen);
      Object.defineProperty(copy, key, d);
    }
    if (!Object.isExtensible(value)) Object.preventExtensions(copy);
    return copy;
  } catch {
    return value; // a Proxy whose traps throw: the body gets it as it is, and decides
  }
}

type Draw = { label: string | undefined; value: unknown };
/** Draw records printed when they were drawn. */
export const printedDraws = new WeakMap<Draw, string>();
function pushPrinted(this: Draw[], ...items: Draw[]): number {
  for (const d of items) printedDraws.set(d, literalOrPlaceholder(d.value));
  return Array.prototype.push.apply(this, items);
}

/** How the failure of a body that returned false begins (the editor's Convert recognises it: internals.ts). */
export const RETURNED_FALSE = "the property returned false";

/** The failure of a body that returned (or resolved to) false. */
function returnedFalse(): Error {
  return new Error(`${RETURNED_FALSE} (a body fails by throwing; a false return is taken as a failed predicate)`);
}

/** Cases whose error was thrown while drawing their arguments (by the user's code inside a strategy). */
export const generationFailures = new WeakSet<TestCase>();
/** Explicit examples' arguments, printed before their body ran. */
export const explicitRepro = new WeakMap<TestCase, string>();

/**
 * Executes cases; times each body call only when something reads the time (a deadline or an event tap; the
 * timeout has its own timer). Returns a promise only for a case whose body returned a thenable. The
 * current-case context is restored on every path, and misuse (InvalidArgument) is rethrown, ending the run.
 */
export function makeExecutor(
  def: Executable,
  deadline: number | null,
  timeout: number | null,
  timed: boolean,
): Executor {
  const now = timed ? clock : () => 0;
  // An async function's cases are scoped from the first; any other run's once a case returned a thenable.
  // st.data() draws are printed as they are drawn on replays (shrinking, the final replay of the minimal
  // case: random === null), so the report shows what was drawn, not what the body did to it afterwards.
  // Only for a property with an st.data() argument, and never while generating: no cost elsewhere.
  const printDraws = def.strategies.some(isData);
  const scope: RunScope = {
    scoped: Object.prototype.toString.call(def.body) === "[object AsyncFunction]",
    lastCallScoped: false,
  };
  // While the bodies are synchronous, the promises they start are noted (unawaited.ts).
  const watch = scope.scoped ? null : watchBodyPromises();
  const execute = (tc: TestCase): void | Promise<void> => {
    const previous = setCurrent(tc);
    // The clock starts once the arguments are drawn: the deadline judges the body, not the engine's generation.
    let t0 = 0;
    let drawn = false;
    let out: unknown;
    let then: unknown;
    try {
      if (printDraws && tc.random === null) tc.interactiveDraws.push = pushPrinted;
      const explicit = tc.explicitArgs;
      // Timed while the health window watches (also when drawing ends the case: a filter, an overrun).
      if (explicit === undefined) tc.args = tc.drawMs < 0 ? drawArgs(def, tc) : timedDrawArgs(def, tc);
      else {
        // The body may mutate what it is given: the report prints the example as it was passed in.
        explicitRepro.set(tc, printArgs(explicit));
        tc.args = explicit.map((v) => copyPlain(v, new Map()));
      }
      drawn = true;
      const cursor = tc.cursor;
      // The DataTree (or the generation log) has run exactly this case, or a filter reached values already tested:
      // do not call the body again.
      const seen = tc.seen;
      if (
        seen !== null
          ? seen.repeats(tc)
          : cursor !== null && (cursor.atConclusion() || (tc.filtered && cursor.repeatsFiltered(tc.acceptedKey())))
      ) {
        tc.duplicate = true;
        return;
      }
      t0 = now();
      tc.called = true;
      out = callInCase(tc, def.body, tc.args, scope);
      // Reading `then` can run user code (a getter, a Proxy trap): here, so that if it throws the case fails.
      if (out !== null && (typeof out === "object" || typeof out === "function"))
        then = (out as { then?: unknown }).then;
    } catch (e) {
      tc.durationMs = drawn ? now() - t0 : 0;
      const misuse = concludeThrown(tc, e);
      if (misuse !== undefined) throw misuse;
      // A user's .map/.filter/.flatMap function threw while the arguments were drawn: the report says so.
      if (!drawn && tc.status === Status.Interesting) generationFailures.add(tc);
      return watch !== null && leftPromises(tc) ? concludeLeft(tc) : undefined;
    } finally {
      setCurrent(previous);
    }
    tc.durationMs = now() - t0;
    if (typeof then !== "function") {
      // A predicate-style body (fast-check habit) that returns false must fail, not pass silently.
      if (out === false) concludeThrown(tc, returnedFalse());
      else {
        if (deadline !== null && tc.durationMs > deadline && tc.explicitArgs === undefined)
          tc.durationMs = confirmedDuration(def, tc, scope, now, tc.durationMs);
        concludePassed(tc, deadline);
      }
      return watch !== null && leftPromises(tc) ? concludeLeft(tc) : undefined;
    }
    scope.scoped = true;
    watch?.release();
    return settle(tc, out as PromiseLike<unknown>, scope.lastCallScoped, t0, now, deadline, timeout);
  };
  return Object.assign(execute, { release: () => watch?.release() });
}

/**
 * drawArgs, timed (TestCase.timedDraw). Its own function: a closure over the case inside the executor would make
 * every case's call allocate a context for it, timed or not.
 */
function timedDrawArgs(def: Executable, tc: TestCase): unknown[] {
  return tc.timedDraw(() => drawArgs(def, tc));
}

/** Executes one case; release() once the run has ended (it stops noting the promises bodies start). */
export type Executor = ((tc: TestCase) => void | Promise<void>) & { release(): void };

/**
 * A synchronous case whose body started promises, concluded a turn later (unawaited.ts): a case that passed
 * fails with the rejection one of them was left with; a case that failed or was discarded keeps its outcome,
 * and its leftover rejection is dropped with it.
 */
async function concludeLeft(tc: TestCase): Promise<void> {
  const left = await rejectionLeftBy(tc);
  if (left === undefined || tc.status !== Status.Valid) return;
  const misuse = concludeThrown(tc, left.reason);
  if (misuse !== undefined) throw misuse;
  if ((tc.status as Status) === Status.Interesting) tc.notes.push(UNAWAITED_NOTE);
}

/**
 * A synchronous case over the deadline is run once more on the same choices, and its time is the faster of
 * the two: a pause that was not the body's (a garbage collection, the JIT, the engine's own work, another
 * process) does not come twice, while a body that is slow is slow again. Hypothesis confirms a deadline the
 * same way (and subtracts the garbage collector's time, which Node does not tell synchronously). A second
 * call that throws or settles asynchronously changes nothing here: the engine's replays judge such a body.
 */
function confirmedDuration(def: Executable, tc: TestCase, scope: RunScope, now: () => number, first: number): number {
  const again = new TestCase(tc.choices, null, tc.maxChoices);
  const previous = setCurrent(again);
  try {
    again.args = drawArgs(def, again);
    const t0 = now();
    const out = callInCase(again, def.body, again.args, scope);
    const took = now() - t0;
    return out !== null && (typeof out === "object" || typeof out === "function") ? first : Math.min(first, took);
  } catch {
    return first;
  } finally {
    setCurrent(previous);
  }
}

/**
 * Wait for a case's thenable, at most `timeout` ms. Its continuations find the case (context.ts) until it
 * settles or times out; whatever happens after that (a late settlement, a late note()) cannot touch it. The
 * timer is cleared as soon as the case ends, so none outlives the run.
 */
function settle(
  tc: TestCase,
  out: PromiseLike<unknown>,
  scoped: boolean,
  t0: number,
  now: () => number,
  deadline: number | null,
  timeout: number | null,
): Promise<void> {
  markPending(tc, scoped);
  return new Promise<void>((resolve, reject) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (threw: boolean, error: unknown) => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearRealTimeout(timer);
      markSettled(tc);
      tc.durationMs = now() - t0;
      if (!threw) {
        if (error === false) concludeThrown(tc, returnedFalse());
        else concludePassed(tc, deadline);
      } else {
        const misuse = concludeThrown(tc, error);
        if (misuse !== undefined) return reject(misuse);
      }
      resolve();
    };
    if (timeout !== null) {
      // Keeps the process alive while the case is pending (so a hang is reported, not exited on); cleared in finish.
      timer = setRealTimeout(() => {
        finish(
          true,
          new TimeoutError(
            `the property's promise did not settle within ${timeout} ms (the timeout setting; raise it, or set timeout: null to wait forever)`,
          ),
        );
      }, timeout);
    }
    try {
      // Promise.resolve adopts any thenable (reading `then` again: a getter that throws now rejects).
      Promise.resolve(out).then(
        (value: unknown) => finish(false, value === false ? false : undefined),
        (e: unknown) => finish(true, e),
      );
    } catch (e) {
      finish(true, e); // a promise whose `constructor` getter throws
    }
  });
}
