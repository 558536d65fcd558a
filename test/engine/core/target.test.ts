import assert from "node:assert/strict";
import { test } from "node:test";
import type { EngineEvent } from "../../../src/engine/index.ts";
import { check, InvalidArgument, property, PropertyFailure, st, target } from "../../../src/engine/index.ts";

const QUIET = { database: null, deadline: null } as const;

/** Fails only when a list of up to 20 integers in [0, 100] sums above 1,850: a corner random generation practically never reaches. */
function sumOver1850(onSum?: (sum: number) => void) {
  return property(st.lists(st.integers({ min: 0, max: 100 }), { maxSize: 20 }), (xs) => {
    const sum = xs.reduce((a, b) => a + b, 0);
    onSum?.(sum);
    target(sum, "sum");
    if (sum > 1850) throw new Error(`sum ${sum} is over 1850`);
  });
}

/** Examples run before the failure was found (the failure included), or undefined when the run passed. */
function foundAfter(seed: number, phases?: readonly ("generate" | "target" | "shrink")[]): number | undefined {
  try {
    check(sumOver1850(), { ...QUIET, seed, maxExamples: 1000, ...(phases ? { phases } : {}) });
    return undefined;
  } catch (e) {
    assert.ok(e instanceof PropertyFailure, String(e));
    return e.statistics.examples;
  }
}

test("the target phase finds the sum-over-1850 bug on at least 9 of 10 seeds within 1000 examples", () => {
  const found = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((seed) => foundAfter(seed));
  const within = found.filter((n) => n !== undefined && n <= 1000);
  assert.ok(within.length >= 9, `found on ${within.length}/10 seeds: ${JSON.stringify(found)}`);
});

test("without the target phase the same budget does not find it: the climb is what finds it", () => {
  const found = [1, 2, 3, 4, 5].map((seed) => foundAfter(seed, ["generate", "shrink"]));
  assert.ok(found.filter((n) => n !== undefined).length <= 1, JSON.stringify(found));
});

test("the failure the climb finds is shrunk like any other: to a minimal list summing to 1851", () => {
  let failure: PropertyFailure | undefined;
  try {
    check(sumOver1850(), { ...QUIET, seed: 3, maxExamples: 1000 });
  } catch (e) {
    failure = e as PropertyFailure;
  }
  assert.ok(failure instanceof PropertyFailure);
  const [xs] = failure.args as [number[]];
  assert.equal(
    xs.reduce((a, b) => a + b, 0),
    1851,
    failure.repro,
  );
  assert.equal(xs.length, 19, failure.repro);
});

test("a passing run with targets spends its budget, no more: maxExamples valid cases in all", () => {
  let calls = 0;
  const p = property(st.lists(st.integers({ min: 0, max: 100 }), { maxSize: 20 }), (xs) => {
    calls++;
    target(xs.length, "length");
  });
  check(p, { ...QUIET, seed: 7, maxExamples: 200 });
  assert.ok(calls <= 200, `${calls} calls`);
  assert.ok(calls >= 150, `${calls} calls: the target phase must not end the run early`);
});

test("events: the target phase is announced, and the best score per label rises in targets events", () => {
  const events: EngineEvent[] = [];
  const p = property(st.integers({ min: 0, max: 1000 }), st.integers({ min: 0, max: 1000 }), (a, b) => {
    target(a, "a");
    target(-b, "minus b");
  });
  check(p, { ...QUIET, seed: 11, maxExamples: 300, onEvent: (e) => events.push(e) });
  const phases = events.flatMap((e) => (e.type === "phase" ? [e.phase] : []));
  assert.deepEqual(phases.slice(0, 3), ["generate", "target", "generate"]);
  const bests = events.flatMap((e) => (e.type === "targets" ? [e.best] : []));
  assert.ok(bests.length >= 2, JSON.stringify(bests));
  const last = bests[bests.length - 1]!;
  // Both labels climbed to their maximum, each from its own best case.
  assert.equal(last.a, 1000);
  assert.ok(last["minus b"] === 0, String(last["minus b"]));
  for (let i = 1; i < bests.length; i++) assert.ok(bests[i]!.a! >= bests[i - 1]!.a!, "a best score never falls");
});

test("a score that rises on every case does not flood the event tap", () => {
  let n = 0;
  let targetsEvents = 0;
  const p = property(st.integers(), () => {
    target(n++);
  });
  check(p, { ...QUIET, seed: 1, maxExamples: 2000, onEvent: (e) => void (e.type === "targets" && targetsEvents++) });
  assert.ok(targetsEvents < 200, `${targetsEvents} targets events for 2000 cases`);
});

test("an unbounded target ends: the climb stops at its step limit and the run passes in its budget", () => {
  let calls = 0;
  check(
    property(st.integers(), (n) => {
      calls++;
      target(n);
    }),
    { ...QUIET, seed: 5, maxExamples: 300 },
  );
  assert.ok(calls <= 300);
});

test("async bodies are climbed too", async () => {
  await assert.rejects(
    async () =>
      check(
        property(st.lists(st.integers({ min: 0, max: 100 }), { maxSize: 20 }), async (xs) => {
          await Promise.resolve();
          const sum = xs.reduce((a, b) => a + b, 0);
          target(sum);
          if (sum > 1850) throw new Error("over");
        }),
        { ...QUIET, seed: 2, maxExamples: 1000 },
      ),
    (e: unknown) => e instanceof PropertyFailure && /over/.test(String(e.message)),
  );
});

test("target() twice with one label in a case is misuse, named", () => {
  assert.throws(
    () =>
      check(
        property(st.integers(), (n) => {
          target(n, "x");
          target(n + 1, "x");
        }),
        QUIET,
      ),
    (e: unknown) => e instanceof InvalidArgument && /^target: called twice with the label "x"/.test(e.message),
  );
});

test('phases without "target" run no target phase', () => {
  const phases: string[] = [];
  check(
    property(st.integers(), (n) => void target(n)),
    {
      ...QUIET,
      seed: 1,
      phases: ["generate", "shrink"],
      onEvent: (e) => void (e.type === "phase" && phases.push(e.phase)),
    },
  );
  assert.deepEqual(phases, ["generate"]);
});
