/**
 * Choosers: who runs next when more than one simulated task is ready (world.ts asks, at each decision).
 *
 * Uniform random among the ready wakeups, or PCT (Burckhardt et al.'s probabilistic concurrency testing, as in
 * Coyote): each task gets a random priority, the highest-priority ready task runs, and at d − 1 random steps the
 * running task drops to the lowest priority — an ordering bug of depth d is found with probability
 * ≥ 1 / (n · k^(d−1)) per seed. Both produce decisions, so replay and shrinking do not care which ran.
 *
 * A chooser replaying a list of decisions reproduces a run: a report's schedule, or, step by step, a schedule
 * being cut down (explore.ts).
 */
import { Random } from "../util/random.ts";
import type { Wakeup } from "./task.ts";

/** Picks among the ready wakeups (at least two), in registration order; returns an index. */
export interface Chooser {
  choose(ready: readonly Wakeup[]): number;
  /** Told of each step with a single ready wakeup (a chooser replaying per-step choices consumes one here). */
  single?(): void;
}

/**
 * A well-mixed 32-bit seed from an exploration seed and a purpose: xoroshiro seeded with 0, 1, 2, … starts
 * out nearly alike, and explorations use exactly such seeds (`seeds: 100` is 0..99) — unmixed, every one of
 * them made the same first decisions. murmur3's finaliser, over both halves of the seed.
 */
export function mixSeed(seed: number, purpose: number): number {
  let h = (Math.floor(seed / 2 ** 32) ^ Math.imul(purpose, 0x9e3779b1)) >>> 0;
  for (const part of [seed >>> 0, h]) {
    h = Math.imul(h ^ part ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** Uniform among the ready wakeups, from the seed. */
export class RandomChooser implements Chooser {
  private readonly r: Random;
  constructor(seed: number) {
    this.r = new Random(mixSeed(seed, 1));
  }
  choose(ready: readonly Wakeup[]): number {
    return this.r.int(0, ready.length - 1);
  }
}

/**
 * PCT: a random priority per task (drawn when first seen), the highest-priority ready task runs; at d − 1
 * decision numbers drawn from 1..k the task chosen then drops below every other. k is the number of decisions
 * seen so far in this exploration (at least 10): the next seed's change points spread over a run's length.
 */
export class PctChooser implements Chooser {
  private readonly r: Random;
  private readonly priorities = new Map<number, number>();
  private readonly changes: number[];
  private step = 0;
  constructor(seed: number, depth: number, k: number) {
    this.r = new Random(mixSeed(seed, 2));
    this.changes = Array.from({ length: depth - 1 }, () => this.r.int(1, Math.max(1, k)));
  }
  choose(ready: readonly Wakeup[]): number {
    this.step++;
    let best = 0;
    for (let i = 0; i < ready.length; i++) {
      const p = this.priority(ready[i]!.task.id);
      if (p > this.priority(ready[best]!.task.id)) best = i;
    }
    const at = this.changes.indexOf(this.step);
    if (at >= 0) this.priorities.set(ready[best]!.task.id, -1 - at);
    return best;
  }
  private priority(task: number): number {
    let p = this.priorities.get(task);
    if (p === undefined) this.priorities.set(task, (p = this.r.double()));
    return p;
  }
}

/**
 * Replays a list of choices, FIFO past its end: one per decision (a report's schedule), or, with `perStep`,
 * one per scheduling step, single-choice steps included (what the long-schedule shrinker edits).
 */
export class ReplayChooser implements Chooser {
  private i = 0;
  constructor(
    private readonly choices: readonly number[],
    private readonly perStep = false,
  ) {}
  choose(ready: readonly Wakeup[]): number {
    const d = this.choices[this.i++] ?? 0;
    return d < ready.length ? d : 0;
  }
  single(): void {
    if (this.perStep) this.i++;
  }
}
