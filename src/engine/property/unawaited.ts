/**
 * Promises a synchronous body left behind. A body that returns a plain value but started a promise that then
 * rejects with nothing awaiting it (`expect(p).rejects…` without `await`, a `.then(check)` not returned, an async
 * helper called without `await`) would pass: the run is over before Node notices the rejection, and the test
 * runner then blames the file, or nothing, for an error no case owns.
 *
 * So while a run's bodies are synchronous, the promises each body creates are noted (V8's promise hook, on only
 * for such runs: it slows every promise while on). A case whose body created one is concluded a turn of the event
 * loop later: Node reports a promise still rejected without a handler once the turn's microtasks have run, and
 * the case fails with that rejection, like a throw (so it shrinks like one). For that turn the process's
 * `unhandledRejection` listeners are set aside and this one routes: a rejection of the case's own promise is the
 * case's failure (no runner reports it a second time, unshrunk); any other goes to the listeners there were,
 * or, with none, is thrown as Node would have thrown it. A body returning a thenable is awaited as before, and
 * its run stops noting promises.
 */
import * as v8 from "node:v8";
import { caseInBody } from "../core/context.ts";
import type { TestCase } from "../core/testCase.ts";
import { setRealImmediate } from "../util/realTimers.ts";

/** The case whose body created a promise, for each promise created while a watched body ran. */
const madeBy = new WeakMap<object, TestCase>();
/** Cases whose body created a promise. */
const madeAny = new WeakSet<TestCase>();
let watchers = 0;
let stopHook: (() => void) | null = null;

/** A watch over one run's body promises; release() when the run ends or its bodies turn out asynchronous. */
export interface PromiseWatch {
  release(): void;
}

const NO_WATCH: PromiseWatch = { release() {} };

function noteMade(promise: Promise<unknown>): void {
  const tc = caseInBody();
  if (tc === null) return;
  madeBy.set(promise, tc);
  madeAny.add(tc);
}

/** Start noting the promises bodies create (one hook for the process, however many runs watch). */
export function watchBodyPromises(): PromiseWatch {
  const hooks = (v8 as { promiseHooks?: typeof v8.promiseHooks }).promiseHooks;
  if (hooks === undefined) return NO_WATCH;
  if (watchers++ === 0) stopHook = hooks.onInit(noteMade) as () => void;
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (--watchers === 0 && stopHook !== null) {
        stopHook();
        stopHook = null;
      }
    },
  };
}

/** Whether the case's body created a promise (and so must be given a turn before it is concluded). */
export function leftPromises(tc: TestCase): boolean {
  return madeAny.has(tc);
}

/** The rejection a case's promises were left with, if any: looked for over one turn of the event loop. */
export function rejectionLeftBy(tc: TestCase): Promise<{ reason: unknown } | undefined> {
  return new Promise((resolve) => {
    const others = process.rawListeners("unhandledRejection") as ((...args: unknown[]) => void)[];
    process.removeAllListeners("unhandledRejection");
    let found: { reason: unknown } | undefined;
    const route = (reason: unknown, promise: Promise<unknown>) => {
      if (madeBy.get(promise) === tc) {
        found ??= { reason };
        return;
      }
      if (others.length === 0) {
        process.nextTick(() => {
          throw reason;
        });
        return;
      }
      for (const listener of others) listener.call(process, reason, promise);
    };
    process.on("unhandledRejection", route);
    setRealImmediate(() => {
      process.removeListener("unhandledRejection", route);
      for (const listener of others) process.on("unhandledRejection", listener);
      resolve(found);
    });
  });
}

/** The note a failure from a promise the body did not await carries into the report. */
export const UNAWAITED_NOTE =
  "this failure is a promise the body started and did not await: it rejected after the body returned (await it, or return it)";
