/**
 * The engine's own clock, taken from node:perf_hooks when the engine loads. A property's body may install fake
 * timers (vi.useFakeTimers, jest's modern timers, sinon) that replace Date and the global `performance` and
 * then advance them by minutes in a millisecond; the simulated scheduler routes Date.now to virtual time inside
 * its tasks. Neither may reach the engine: deadlines, the shrink and explain budgets, the run's reported time
 * and the database's timestamps all read this module, never the globals.
 */
import { performance } from "node:perf_hooks";

const perfNow = performance.now.bind(performance);
const origin = performance.timeOrigin;

/** Monotonic milliseconds for durations. */
export const now: () => number = perfNow;

/** Real wall-clock milliseconds since the epoch (Date.now's meaning), even while Date is faked. */
export function wallNow(): number {
  return Math.round(origin + perfNow());
}
