/**
 * A guard against throughput regressions that cannot flake on a noisy machine: no absolute time, but the
 * engine's rate on a list property as a ratio to a bare loop building the same kind of values, measured in
 * the same process, interleaved, best of several rounds — and it fails only on a regression of 2× or worse
 * against the ratio recorded here. bench/throughput.mjs measures the real figures (against fast-check, each
 * library in its own process); update BASELINE from this test's own output when the engine gets faster.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, property, st } from "../../../src/engine/index.ts";

/** bare-loop rate / engine rate, as this test measured it on the landed engine (2-core machine). */
const BASELINE = 45;
const HEADROOM = 2;

let sink = 0;
function bare(n: number): void {
  for (let i = 0; i < n; i++) {
    const len = (Math.random() * 11) | 0;
    const xs = new Array<number>(len);
    for (let k = 0; k < len; k++) xs[k] = (Math.random() * 4294967296 - 2147483648) | 0;
    sink += xs.length;
  }
}

function rate(run: () => number): number {
  const t0 = performance.now();
  const calls = run();
  return calls / (performance.now() - t0);
}

test(`the engine's examples per second on a list property stay within ${HEADROOM}× of its recorded ratio to a bare loop`, () => {
  let calls = 0;
  const engine = (seed: number) => () => {
    calls = 0;
    check(
      property(st.lists(st.integers()), (xs) => void (calls++, (sink += xs.length))),
      { maxExamples: 20_000, database: null, deadline: null, seed },
    );
    return calls;
  };
  let bestBare = 0;
  let bestEngine = 0;
  // Warm both up, then interleave: the best round of each is the least disturbed by the machine.
  bare(200_000);
  engine(1)();
  for (let round = 0; round < 4; round++) {
    bestBare = Math.max(
      bestBare,
      rate(() => (bare(500_000), 500_000)),
    );
    bestEngine = Math.max(bestEngine, rate(engine(10 + round)));
  }
  const ratio = bestBare / bestEngine;
  console.log(
    `throughput guard: bare loop ${Math.round(bestBare)} k examples/s, engine ${Math.round(bestEngine)} k/s, ratio ${ratio.toFixed(1)} (baseline ${BASELINE}, fails above ${BASELINE * HEADROOM})`,
  );
  assert.ok(
    ratio <= BASELINE * HEADROOM,
    `the engine is ${(ratio / BASELINE).toFixed(2)}× slower relative to a bare loop than the recorded baseline`,
  );
});
