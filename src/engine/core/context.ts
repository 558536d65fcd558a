/**
 * The test case the property body is running in, for assume/note/event/target and data.draw, which the user
 * calls without passing it around. Concurrent runs (Promise.all, test.concurrent) must never see each other's
 * cases, and a synchronous run must stay as cheap as a global variable. So, three sources, in order:
 *
 *   - `current`, set by the executor for exactly the synchronous extent of drawing the arguments and calling
 *     the body (restored right after, whatever happened). What a synchronous body reads. It is always null
 *     when a promise continuation starts: continuations run from an empty stack.
 *   - an AsyncLocalStorage store, entered around the body call of a *scoped* case, which its async
 *     continuations inherit: a body resumed after an `await` finds its own case even while other runs do
 *     their work in between.
 *   - the one pending *unscoped* case, for continuations that have no store.
 *
 * A case is scoped when its run is known to be async (its body is an async function, or an earlier case
 * returned a thenable), when any other case is in flight anywhere (so its continuations could interleave
 * with theirs), or once any body in the process has returned a thenable. That last one is what keeps the
 * fallback honest: an unscoped case that has ended may have left a timer or a promise behind, and its call
 * arrives with no store, exactly like the continuation of the next unscoped pending case; so after the
 * first, no case is left unscoped to be confused with. That leaves unscoped only the cases of a process
 * whose bodies have all been synchronous so far (no cost on that path), and the first thenable-returning case
 * of a plain function — at most one pending at a time, so the fallback is unambiguous (but for one residue:
 * a timer leaked by an earlier *synchronous* case, which no store marks, can still reach that first one).
 * The storage is disabled again when no run needs it: in Node 20 an enabled AsyncLocalStorage slows every
 * promise in the process.
 *
 * A case that has ended must not be written to (a leaked timer, an un-awaited promise, a body that timed
 * out): its store still names it, so pending cases are registered, and any other case found is refused.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { TestCase } from "./testCase.ts";

let current: TestCase | null = null;
const storage = new AsyncLocalStorage<TestCase>();
let storageEnabled = false;
/** Some body in this process has returned a thenable: every case is scoped from then on (see above). */
let asyncSeen = false;
/** Body calls on the stack now, across all runs. */
let inBody = 0;
/** Cases whose body returned a thenable that has not settled (their continuations may record into them). */
const pending = new Set<TestCase>();
/** The pending cases whose body was called outside the storage (at most one, unless nested in odd ways). */
const unscopedPending = new Set<TestCase>();

/** Per run: whether its cases are scoped, and whether the last body call was. */
export interface RunScope {
  scoped: boolean;
  lastCallScoped: boolean;
}

export function setCurrent(tc: TestCase | null): TestCase | null {
  const previous = current;
  current = tc;
  return previous;
}

/**
 * Call `body(...args)` as test case `tc` of `run`: inside the storage when the case must be scoped (see
 * above), directly otherwise. Records in `run.lastCallScoped` which it was.
 */
export function callInCase(
  tc: TestCase,
  body: (...args: unknown[]) => unknown,
  args: unknown[],
  run: RunScope,
): unknown {
  // A stale store (a run started from a leaked continuation of an ended case) would be inherited: scope it.
  const scoped = run.scoped || asyncSeen || inBody > 0 || (storageEnabled && storage.getStore() !== undefined);
  run.lastCallScoped = scoped;
  inBody++;
  try {
    if (!scoped) return callBody(body, args);
    storageEnabled = true;
    return storage.run(tc, callBody, body, args);
  } finally {
    inBody--;
  }
}

let exitWatched = false;

/**
 * process.exit() called by a body (or by code it started) ends the process with the property half run: a test
 * runner then reports nothing, and an exit code of 0 would read as a pass. Said on stderr, and the exit code made 1.
 * Called as a run starts; the listener is added once per process.
 */
export function watchExit(): void {
  if (exitWatched) return;
  exitWatched = true;
  if (typeof process === "undefined" || typeof process.once !== "function") return;
  process.once("exit", (code) => {
    if (inBody === 0 && pending.size === 0) return;
    console.error(
      `Shrinkscope: the process exited (code ${code}) while a property's body was running — process.exit() in the body or in code it called? The property did not finish, so it neither passed nor failed; the exit code is set to 1.`,
    );
    if (!process.exitCode) process.exitCode = 1;
  });
}

/** The case whose body is running synchronously now, if any (not while its arguments are drawn). */
export function caseInBody(): TestCase | null {
  return inBody > 0 ? current : null;
}

/** The common arities directly: a spread call is slower on the hot path. */
function callBody(body: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  return args.length === 1 ? body(args[0]) : args.length === 2 ? body(args[0], args[1]) : body(...args);
}

/** The case's body returned a thenable: its continuations may record into it until markSettled. */
export function markPending(tc: TestCase, scoped: boolean): void {
  pending.add(tc);
  asyncSeen = true;
  if (!scoped) unscopedPending.add(tc);
}

export function markSettled(tc: TestCase): void {
  pending.delete(tc);
  unscopedPending.delete(tc);
}

/** A run has ended: turn the storage off when nothing is left that reads it (see above: it costs every promise). */
export function runEnded(): void {
  if (storageEnabled && inBody === 0 && pending.size === 0) {
    storageEnabled = false;
    storage.disable();
  }
}

const ENDED =
  "was called after its test case ended (from an un-awaited promise, a timer, or a body that timed out); await everything the body starts";

export function getCurrent(api: string): TestCase {
  if (current !== null) return current;
  const tc = storage.getStore();
  if (tc !== undefined) {
    if (pending.has(tc)) return tc;
    throw new Error(`${api}() ${ENDED}`);
  }
  if (unscopedPending.size === 1) for (const only of unscopedPending) return only;
  if (unscopedPending.size > 1) {
    throw new Error(
      `${api}() cannot tell which of ${unscopedPending.size} pending test cases it belongs to (properties started inside each other's bodies without async functions); make the bodies async functions`,
    );
  }
  throw new Error(
    `${api}() was called outside a running property; call it inside the property's body (and await everything the body starts: a call from a test case that has ended arrives here too)`,
  );
}
