// The panel's view model, folded from event streams of real runs (recorded here with the engine itself).
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, property, st, PropertyFailure } from "../../src/engine/index.ts";
import type { EngineEvent, PanelMessage } from "../../src/protocol.ts";
import { initialState, reduce, showValue } from "../../webview/model.ts";

function record(): EngineEvent[] {
  const events: EngineEvent[] = [];
  try {
    check(property(st.lists(st.integers()), (xs) => {
      if (xs.length >= 2 && xs[0] > xs[1]) throw new Error("unsorted");
    }), { seed: 7, database: null, deadline: null, onEvent: (e) => events.push(e) });
  } catch (e) {
    if (!(e instanceof PropertyFailure)) throw e;
  }
  return events;
}

test("folding a real run's events: counts, phase, the shrinking best case, the final state", () => {
  const events = record();
  let s = reduce(initialState, { type: "run-started", title: "sorted", file: "/w/a.test.ts", testPath: ["sorted"] });
  assert.equal(s.status, "running");
  // Deliver in batches, as the runner does.
  for (let i = 0; i < events.length; i += 7) s = reduce(s, { type: "events", events: events.slice(i, i + 7), dropped: 0 });
  const cases = events.filter((e) => e.type === "test-case");
  assert.equal(s.testCases, cases.length);
  assert.equal(s.valid + s.invalid + s.interesting, cases.length);
  assert.equal(s.phase, "final");
  const lastTarget = events.filter((e) => e.type === "shrink-target").pop();
  assert.ok(lastTarget?.type === "shrink-target");
  assert.deepEqual(s.best, lastTarget.choices);
  assert.deepEqual(s.best?.map(showValue), ["true", "0", "true", "-1", "false"]);
  const finished: PanelMessage = { type: "run-finished", outcome: "failed", failure: { message: "m", repro: "[1, 0]", seed: 7, error: { name: "Error", message: "unsorted" }, location: undefined, flaky: false } };
  s = reduce(s, finished);
  assert.equal(s.status, "failed");
  assert.equal(s.failure?.repro, "[1, 0]");
  assert.equal(s.seed, 7);
});

test("dropped test cases still count, and a new run starts from scratch", () => {
  let s = reduce(initialState, { type: "events", events: [], dropped: 40 });
  assert.equal(s.testCases, 40);
  s = reduce(s, { type: "run-started", title: "t", file: "f", testPath: ["t"] });
  assert.equal(s.testCases, 0);
});
