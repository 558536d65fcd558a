/**
 * The test case the property body is running in, for assume/note/event/target and data.draw, which the user
 * calls without passing it around. Two sources, so that concurrent runs never see each other's cases:
 *
 *   - `current`, set by the executor for exactly the synchronous extent of drawing the arguments and calling
 *     the body (and restored right after, whatever happened). It is what a synchronous body reads, cheaply,
 *     and it is always null when a promise continuation starts (continuations run from an empty stack).
 *   - an AsyncLocalStorage store, entered around each body call, which async continuations inherit: a body
 *     resumed after an `await` finds its own case even while other properties (Promise.all, test.concurrent)
 *     run theirs in between.
 *
 * A case that has ended must not be written to (a leaked timer, an un-awaited promise): the store still names
 * it, so async cases are registered as live while their promise is pending, and anything else found in the
 * store from an empty stack is refused.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { TestCase } from "./testcase.ts";

let current: TestCase | null = null;
const storage = new AsyncLocalStorage<TestCase>();
/** Cases whose async body is still pending (their continuations may record into them). */
const pending = new Set<TestCase>();

export function setCurrent(tc: TestCase | null): TestCase | null {
  const previous = current;
  current = tc;
  return previous;
}

/**
 * Call `body` with `args` (the common arities directly: a spread call is slower on the hot path) so that its
 * async continuations find `tc` as their case.
 */
export function callInCase(tc: TestCase, body: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  return storage.run(tc, callBody, body, args);
}

function callBody(body: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  return args.length === 1 ? body(args[0]) : args.length === 2 ? body(args[0], args[1]) : body(...args);
}

/** The case's body returned a promise: its continuations may record into it until markSettled. */
export function markPending(tc: TestCase): void {
  pending.add(tc);
}

export function markSettled(tc: TestCase): void {
  pending.delete(tc);
}

export function getCurrent(api: string): TestCase {
  if (current !== null) return current;
  const tc = storage.getStore();
  if (tc === undefined) throw new Error(`${api}() was called outside a running property; call it inside the property's body`);
  if (!pending.has(tc)) {
    throw new Error(`${api}() was called after its test case ended (from an un-awaited promise, a timer, or a body that timed out); await everything the body starts`);
  }
  return tc;
}
