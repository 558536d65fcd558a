// Seed 001's workload for bench/schedules.mjs, written once per library: writers append to one log with "read
// the length, wait, write at that index", so two writers that both read before either writes lose an append.
//
//   Shrinkscope: replicate(writers, payloads, delay) on the simulated scheduler (sim.spawn, sim.sleep, sim.mutex),
//                exactly as in test/engine/schedules/sim.test.ts and the issue.
//   fast-check:  replicateFc(s, ...) with fc.scheduler(): every point where the simulation lets another task
//                run is a promise released by the scheduler instead — a task's start (s.schedule before the
//                batch), each wait (s.schedule in place of sim.sleep) and a mutex handed to a waiter. fast-check
//                has no clock, so `delay` is only a label there: every wait is one scheduling point, as every
//                sim.sleep is in the simulation (both release all waits of one instant in some order).
// `guarded` holds a mutex across reserve-and-write, which fixes the bug: the rate runs use it, so every run
// goes to the end. The counters are the fixtures' own, so both libraries are counted the same way.
import assert from "node:assert/strict";
import fc from "fast-check";
import { sim, st } from "../../dist/engine.mjs";

export const counts = {
  /** Workload runs (one per simulated run or fast-check run). */
  workloads: 0,
  reset() {
    counts.workloads = 0;
  },
};

function checkLog(log, writers, payloads) {
  assert.equal(log.length, writers * payloads.length, `lost ${writers * payloads.length - log.length} appends`);
}

// ------------------------------------------------------------------------------------------------ Shrinkscope

async function reserveThenWrite(log, payload, delay) {
  const index = log.length;
  await sim.sleep(delay); // virtual time: free, and a point where other tasks may run
  log[index] = payload;
}

export async function replicate(writers, payloads, delay, guarded = false) {
  counts.workloads++;
  const log = [];
  const lock = sim.mutex();
  const batch = async () => {
    for (const p of payloads) {
      if (guarded) await lock.runExclusive(() => reserveThenWrite(log, p, delay));
      else await reserveThenWrite(log, p, delay);
    }
  };
  await Promise.all(Array.from({ length: writers }, () => sim.spawn(batch)));
  checkLog(log, writers, payloads);
}

// ------------------------------------------------------------------------------------------------ fast-check

/** A mutex whose hand-over to a waiter is a scheduling point, as sim.mutex's is. */
class ScheduledMutex {
  held = false;
  waiters = [];
  constructor(s) {
    this.s = s;
  }
  async runExclusive(fn) {
    if (this.held) await new Promise((resolve) => this.waiters.push(resolve));
    else this.held = true;
    try {
      return await fn();
    } finally {
      const next = this.waiters.shift();
      if (next) this.s.schedule(Promise.resolve(), "acquire").then(next);
      else this.held = false;
    }
  }
}

export async function replicateFc(s, writers, payloads, delay, guarded = false) {
  counts.workloads++;
  const log = [];
  const lock = new ScheduledMutex(s);
  const reserveThenWriteFc = async (payload) => {
    const index = log.length;
    await s.schedule(Promise.resolve(), `sleep ${delay}`);
    log[index] = payload;
  };
  const batch = async () => {
    for (const p of payloads) {
      if (guarded) await lock.runExclusive(() => reserveThenWriteFc(p));
      else await reserveThenWriteFc(p);
    }
  };
  const done = Promise.all(Array.from({ length: writers }, () => s.schedule(Promise.resolve(), "start").then(batch)));
  await s.waitFor(done);
  checkLog(log, writers, payloads);
}

// ------------------------------------------------------------------------------------------------ the property's arguments

/** writers, payloads, delay — the strategies, and the same domains for fast-check. */
export const strategies = () => [
  st.integers({ min: 1, max: 4 }),
  st.lists(st.text({ alphabet: "abc", minSize: 1, maxSize: 3 }), { minSize: 1, maxSize: 3 }),
  st.sampledFrom([0, 1, 10]),
];
export const arbitraries = () => [
  fc.integer({ min: 1, max: 4 }),
  fc.array(fc.string({ unit: fc.constantFrom("a", "b", "c"), minLength: 1, maxLength: 3 }), {
    minLength: 1,
    maxLength: 3,
  }),
  fc.constantFrom(0, 1, 10),
];
/** Seed 001's minimal workload. */
export const MINIMAL = [2, ["a"], 0];

/**
 * The decisions of a fast-check scheduler that did not release the oldest pending task, from its report (tasks
 * in release order; ids are given in scheduling order). A release is non-FIFO exactly when a task with a smaller
 * id — scheduled earlier, so pending then — is released after it.
 */
export function fastCheckNonFifo(s) {
  const released = s
    .report()
    .filter((t) => t.status !== "pending")
    .map((t) => t.taskId);
  let n = 0;
  let minAfter = Infinity;
  for (let i = released.length - 1; i >= 0; i--) {
    if (minAfter < released[i]) n++;
    minAfter = Math.min(minAfter, released[i]);
  }
  return n;
}
