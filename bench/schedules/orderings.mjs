// Ordering bugs for bench/schedules.mjs: which exploration finds them, and how close to FIFO the reported
// schedule ends. Neither depends on data: the schedule alone decides.
//
// depthTwo — 8 tasks A..H, 10 steps each; a step records "A3" and yields (sim.sleep(0): every task is ready again
//   at the same instant, so the scheduler picks among all unfinished tasks at every step). The bug needs exactly
//   two ordering constraints, which makes it a depth-2 bug in the PCT paper's sense:
//     (1) A's last step (A9) runs after every step of B   (B9 before A9), and
//     (2) A's last step runs before C's first step        (A9 before C0).
//   FIFO (round robin here) passes: C0 comes in the first round. Uniform random choice almost never meets (2):
//   looking only at the picks of A or C, each is A or C with equal chance, and C must lose the first ten —
//   about 1 in 2^10, times about 1/2 for (1). PCT gives every task a random priority and runs the highest
//   ready one, so tasks run nearly one after another; with its one priority-change point (depth 2) demoting a
//   task at a random step, the bug needs B above A above C in priority, and the change point not to hit
//   any of them first: about 5/8 · 1/6 ≈ 1 in 10 per seed. The five other tasks only add noise.
//
// overtake — 5 tasks started in order, each records its start, yields, records its end; the bug: task 4 starts
//   before task 2. FIFO passes; exactly one decision has to differ from FIFO (task 4's start chosen over task 2's)
//   — the "a bug that needs one task to overtake one other must end with exactly one non-FIFO decision".
//   Also written for fast-check's scheduler: a task's start is a released promise there.
import assert from "node:assert/strict";
import { sim } from "../../dist/engine.mjs";

export const TASKS = "ABCDEFGH".split("");
export const STEPS = 10;

export async function depthTwo() {
  const order = [];
  const task = (name) =>
    sim.spawn(async () => {
      for (let i = 0; i < STEPS; i++) {
        order.push(`${name}${i}`);
        await sim.sleep(0);
      }
    }, name);
  await Promise.all(TASKS.map(task));
  const last = `A${STEPS - 1}`;
  const a = order.indexOf(last);
  const hit = order.indexOf(`B${STEPS - 1}`) < a && a < order.indexOf("C0");
  assert.ok(!hit, `${last} ran after all of B and before C started`);
}

/**
 * The fewest deviations from FIFO that make depthTwo fail: 2 · (STEPS − 1). Every step of A and B after their
 * first (A1..A9, B1..B9) must run before C0, and at each of those decisions a start registered earlier (C's, or
 * B's or A's own) is ready and first in line, so each is a deviation. This schedule reaches the bound: FIFO
 * starts A, then B; then B's next wake (last in line: after the other starts and A's wake) STEPS − 1 times;
 * then A's wake (before B's final one), then A's next wake STEPS − 2 times; FIFO after that.
 */
export function fewestDeviationsSchedule() {
  const n = TASKS.length;
  return [0, 0, ...Array(STEPS - 1).fill(n - 1), n - 2, ...Array(STEPS - 2).fill(n - 1)];
}

function checkOvertake(order) {
  assert.ok(order.indexOf(4) > order.indexOf(2), `task 4 started before task 2: ${order.join(",")}`);
}

export async function overtake() {
  const order = [];
  const tasks = [1, 2, 3, 4, 5].map((i) =>
    sim.spawn(async () => {
      order.push(i);
      await sim.sleep(0);
      order.push(i * 10);
    }),
  );
  await Promise.all(tasks);
  checkOvertake(order);
}

export async function overtakeFc(s) {
  const order = [];
  const tasks = [1, 2, 3, 4, 5].map((i) =>
    s.schedule(Promise.resolve(), `start ${i}`).then(async () => {
      order.push(i);
      await s.schedule(Promise.resolve(), `yield ${i}`);
      order.push(i * 10);
    }),
  );
  await s.waitFor(Promise.all(tasks));
  checkOvertake(order);
}
