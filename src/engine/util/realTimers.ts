/**
 * The real timer functions, taken when the engine loads: fake timers a test installs later (jest, vitest,
 * sinon replace the globals and node:timers' exports) must neither freeze the engine's own waiting — a case's
 * timeout, a machine's replay, the simulated world's turn of the event loop — nor fire when the test advances
 * its fake clock.
 */
import * as timers from "node:timers";

export const setRealTimeout = timers.setTimeout;
export const clearRealTimeout = timers.clearTimeout;
export const setRealImmediate = timers.setImmediate;
