// What a run prints: nothing at "normal" and "quiet"; at "verbose" one statistics line per property (passing
// or failing: examples, invalid, duplicates, distinct inputs, events with their shares, time per phase) and each
// accepted shrink; at "debug" every test case too. SHRINKSCOPE_VERBOSITY overrides the setting.
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, configure, event, InvalidArgument, property, st } from "../../../src/engine/index.ts";
import type { Settings } from "../../../src/engine/index.ts";
import { failure, logged, withEnv } from "../helpers.ts";

const QUIET: Settings = { database: null, deadline: null, seed: 3 };

const passing = (settings: Settings) =>
  property(
    st.integers({ min: 0, max: 9 }),
    (n) => {
      event(n < 5 ? "low" : "high");
    },
    { ...QUIET, ...settings },
  );

test("verbose: one statistics line for a passing property, with duplicates, distinct inputs, event shares and phase times", () => {
  const lines = logged(() => check(passing({ verbosity: "verbose", maxExamples: 50 })));
  assert.equal(lines.length, 1, lines.join("\n"));
  const line = lines[0]!;
  assert.match(
    line,
    /^Shrinkscope test\/engine\/property\/verbosity\.test\.ts \(property #0\): (passed|exhausted) \d+ examples: \d+ valid, 0 invalid, 0 overrun, \d+ duplicates; 10 distinct inputs; events: "(low|high)" \d+%, "(low|high)" \d+%; time: generate [\d.]+ ms \(\d+ ms in all\)$/,
  );
});

test("verbose: each accepted shrink, then the statistics line, for a failing property", () => {
  let f;
  const lines = logged(() => {
    f = failure(() =>
      check(property(st.lists(st.integers()), (xs) => assert.ok(xs.length < 3), { ...QUIET, verbosity: "verbose" })),
    );
  });
  const shrinks = lines.filter((l) => / shrank \(/.test(l));
  assert.equal(shrinks.length, f!.statistics.shrinks, lines.join("\n"));
  assert.match(shrinks[shrinks.length - 1]!, /shrank \([a-z ]+\) to \[0, 0, 0\]$/);
  const last = lines[lines.length - 1]!;
  assert.match(
    last,
    /failed after \d+ test cases?, then \d+ shrink calls \(\d+ accepted\); of the test cases: \d+ valid, 0 invalid, 0 overrun, \d+ duplicates; \d+ distinct inputs/,
  );
  assert.match(last, /time: generate [\d.]+ ms, shrink [\d.]+ ms, explain [\d.]+ ms, final [\d.]+ ms/);
});

test("debug: every test case as well", () => {
  const lines = logged(() => check(passing({ verbosity: "debug", maxExamples: 20 })));
  const cases = lines.filter((l) => /: generate case \d+: valid: \d$/.test(l));
  assert.ok(cases.length >= 10, lines.join("\n"));
  assert.ok(lines.some((l) => /: phase generate$/.test(l)));
});

test("normal and quiet print nothing; SHRINKSCOPE_VERBOSITY overrides the setting; a bad value is InvalidArgument", () => {
  assert.deepEqual(
    logged(() => check(passing({}))),
    [],
  );
  assert.deepEqual(
    logged(() => check(passing({ verbosity: "quiet" }))),
    [],
  );
  const lines = withEnv({ SHRINKSCOPE_VERBOSITY: "verbose" }, () =>
    logged(() => check(passing({ verbosity: "quiet" }))),
  );
  assert.equal(lines.length, 1);
  assert.throws(
    () => withEnv({ SHRINKSCOPE_VERBOSITY: "loud" }, () => check(passing({}))),
    (e: unknown) =>
      e instanceof InvalidArgument &&
      /SHRINKSCOPE_VERBOSITY must be one of quiet, normal, verbose, debug, got "loud"/.test(e.message),
  );
  assert.throws(() => check(passing({ verbosity: "chatty" as "quiet" })), /property: verbosity must be one of/);
});

test("configure({ verbosity }) makes every property verbose", () => {
  try {
    configure({ verbosity: "verbose" });
    assert.equal(logged(() => check(passing({}))).length, 1);
  } finally {
    configure({ verbosity: undefined });
  }
});

test("a console that throws does not end the run", () => {
  const original = console.log;
  console.log = () => {
    throw new Error("broken console");
  };
  try {
    check(passing({ verbosity: "debug" }));
  } finally {
    console.log = original;
  }
});
