/**
 * fc.property, fc.assert and fc.check run on the engine as fast-check's do on theirs: a predicate fails by throwing
 * or returning false, fc.pre discards a case, the parameters that have a meaning here keep it (numRuns, seed,
 * examples, endOnFailure, timeout, hooks) and the others are said once to have none; fc.check tells a run in
 * fast-check's RunDetails; and a property is keyed by the user's file, so saved failures of two suites never meet.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "../../../src/engine/fc.ts";
import { check, configure, InvalidArgument, PropertyFailure } from "../../../src/engine/index.ts";
import type { ExampleDatabase } from "../../../src/engine/index.ts";
import { failure, failureOf } from "../helpers.ts";

// No example database: each run here searches afresh (a saved failure would replay first, unshrunk).
configure({ database: null });

test("fc.assert passes a property that holds and throws the minimal failure of one that does not", () => {
  fc.assert(fc.property(fc.integer(), fc.integer(), (a, b) => a + b === b + a));
  const f = failure(() => fc.assert(fc.property(fc.array(fc.nat()), (xs) => xs.length < 3)));
  assert.deepEqual(f.args, [[0, 0, 0]]);
  const thrown = failure(() =>
    fc.assert(
      fc.property(fc.nat(), (n) => {
        if (n > 10) throw new RangeError("too big");
      }),
    ),
  );
  assert.deepEqual(thrown.args, [11]);
  assert.ok(thrown.cause instanceof RangeError);
});

test("fc.check tells a run in fast-check's RunDetails, failing or not", () => {
  const passed = fc.check(
    fc.property(fc.nat(), (n) => n >= 0),
    { numRuns: 50, seed: 3 },
  );
  assert.ok(!(passed instanceof Promise));
  assert.equal(passed.failed, false);
  assert.equal(passed.numRuns, 50);
  assert.equal(passed.seed, 3);
  assert.equal(passed.counterexample, null);
  assert.equal(passed.errorInstance, null);
  const failed = fc.check(
    fc.property(fc.nat(), fc.string(), (n, s) => n < 100 || s.length < 1),
    { seed: 5 },
  );
  assert.ok(!(failed instanceof Promise));
  assert.equal(failed.failed, true);
  assert.deepEqual(failed.counterexample, [100, "0"]);
  assert.ok(failed.errorInstance instanceof Error);
  assert.ok(failed.numShrinks > 0 && failed.numRuns > 0);
  assert.equal(failed.seed, 5);
  for (const k of ["interrupted", "counterexamplePath", "failures", "executionSummary", "verbose", "runConfiguration"])
    assert.ok(k in failed, `RunDetails has ${k}`);
});

test("fc.pre discards a case, counted in numSkips; a run that discards every case fails with no counterexample", () => {
  const some = fc.check(
    fc.property(fc.nat(), (n) => {
      fc.pre(n % 2 === 0);
      return n % 2 === 0;
    }),
  );
  assert.ok(!(some instanceof Promise));
  assert.equal(some.failed, false);
  assert.ok(some.numSkips > 0);
  const none = fc.check(fc.property(fc.nat(), () => fc.pre(false)));
  assert.ok(!(none instanceof Promise));
  assert.equal(none.failed, true);
  assert.equal(none.counterexample, null);
});

test("an async property gives promises from fc.assert and fc.check", async () => {
  const ok = fc.assert(fc.asyncProperty(fc.nat(), async (n) => n >= 0));
  assert.ok(ok instanceof Promise);
  await ok;
  const f = await failureOf(() => fc.assert(fc.asyncProperty(fc.nat(), async (n) => n < 5)));
  assert.deepEqual(f.args, [5]);
  const details = await fc.check(fc.asyncProperty(fc.nat(), async (n) => n < 5));
  assert.equal(details.failed, true);
  assert.deepEqual(details.counterexample, [5]);
  assert.equal(fc.property(fc.nat(), () => true).isAsync(), false);
});

test("parameters: numRuns, seed, examples and endOnFailure keep their meaning", () => {
  let calls = 0;
  fc.assert(
    fc.property(fc.integer(), () => {
      calls++;
    }),
    { numRuns: 37 },
  );
  assert.equal(calls, 37);
  const seen = (seed: number) => {
    const out: number[] = [];
    fc.assert(
      fc.property(fc.integer(), (n) => void out.push(n)),
      { numRuns: 20, seed },
    );
    return out;
  };
  assert.deepEqual(seen(11), seen(11));
  assert.notDeepEqual(seen(11), seen(12));
  const first: unknown[] = [];
  fc.assert(
    fc.property(fc.nat(), fc.string(), (n, s) => void first.push([n, s])),
    { examples: [[42, "x"]], numRuns: 3 },
  );
  assert.deepEqual(first[0], [42, "x"]);
  const unshrunk = fc.check(
    fc.property(fc.nat(), (n) => n < 1000),
    { endOnFailure: true, seed: 1 },
  );
  assert.ok(!(unshrunk instanceof Promise));
  assert.equal(unshrunk.failed, true);
  assert.equal(unshrunk.numShrinks, 0);
  assert.throws(
    () =>
      fc.assert(
        fc.property(fc.nat(), () => true),
        { numRuns: 0 },
      ),
    (e) => e instanceof InvalidArgument && /numRuns/.test(e.message),
  );
});

test("parameters with no meaning here are accepted and said once each", (t) => {
  const warnings: string[] = [];
  t.mock.method(console, "warn", (m: string) => void warnings.push(m));
  const p = fc.property(fc.nat(), () => true);
  fc.assert(p, { path: "0:1", unbiased: true, numRuns: 5 });
  fc.assert(p, { path: "0:1", numRuns: 5 });
  fc.assert(p, { notAParameter: 1, numRuns: 5 } as never);
  assert.equal(warnings.filter((w) => w.includes('"path"')).length, 1, warnings.join("\n"));
  assert.equal(warnings.filter((w) => w.includes('"unbiased"')).length, 1);
  assert.equal(warnings.filter((w) => w.includes('"notAParameter" is not a fast-check parameter')).length, 1);
});

test("a property has no per-case deadline, as fast-check has none", () => {
  let slow = true;
  fc.assert(
    fc.property(fc.nat(), () => {
      if (!slow) return;
      slow = false;
      const until = Date.now() + 260;
      while (Date.now() < until);
    }),
    { numRuns: 3 },
  );
});

test("hooks run around each call: the property's own, else the global ones configureGlobal sets", () => {
  const log: string[] = [];
  try {
    fc.configureGlobal({ beforeEach: () => void log.push("global before"), numRuns: 2 });
    assert.equal(fc.readConfigureGlobal().numRuns, 2);
    fc.assert(fc.property(fc.nat(), () => void log.push("call")));
    assert.deepEqual(log, ["global before", "call", "global before", "call"]);
    log.length = 0;
    fc.assert(
      fc
        .property(fc.nat(), () => void log.push("call"))
        .beforeEach((globalHook) => {
          globalHook();
          log.push("own before");
        })
        .afterEach(() => void log.push("own after")),
      { numRuns: 1 },
    );
    assert.deepEqual(log, ["global before", "own before", "call", "own after"]);
  } finally {
    fc.resetConfigureGlobal();
  }
  assert.deepEqual(fc.readConfigureGlobal(), {});
});

/** A database that remembers the keys it was asked for. */
function keyRecorder(): { db: ExampleDatabase; keys: string[] } {
  const keys: string[] = [];
  return { keys, db: { fetch: (k) => (keys.push(k), []), save: () => {}, delete: () => {} } };
}

test("a property is keyed by the file that declared it, not by the adapter's: two files, two keys", async () => {
  const a = await import("../fixtures/fc-key-a.ts");
  const b = await import("../fixtures/fc-key-b.ts");
  const recorder = keyRecorder();
  for (const made of [a.declared(), b.declared(), fc.property(fc.nat(), (n) => n >= 0)])
    check(made.run, { database: recorder.db, maxExamples: 1 });
  const files = recorder.keys.map((k) => k.split("::")[0]);
  assert.deepEqual(files, [
    "test/engine/fixtures/fc-key-a.ts",
    "test/engine/fixtures/fc-key-b.ts",
    "test/engine/fc/property.test.ts",
  ]);
  assert.equal(new Set(recorder.keys).size, 3);
});

test("misuse throws InvalidArgument naming the call", () => {
  assert.throws(
    () => (fc.property as (...a: unknown[]) => unknown)(fc.nat()),
    /fc\.property: the last argument must be the predicate/,
  );
  assert.throws(() => (fc.property as (...a: unknown[]) => unknown)(() => true), /give at least one arbitrary/);
  assert.throws(() => fc.assert((() => {}) as never), /fc\.assert: expects a property made by fc\.property/);
  assert.throws(
    () =>
      fc.check(
        fc.property(fc.nat(), () => true),
        "fast" as never,
      ),
    /fc\.check: parameters must be an object/,
  );
  assert.throws(() => fc.pre(true), /assume/, "fc.pre outside a property is misuse, as assume() is");
  assert.ok(failure(() => fc.assert(fc.property(fc.nat(), () => false))) instanceof PropertyFailure);
});

test("sample, statistics and stringify", (t) => {
  assert.equal(fc.sample(fc.nat()).length, 10);
  assert.deepEqual(fc.sample(fc.nat(), { numRuns: 5, seed: 4 }), fc.sample(fc.nat(), { numRuns: 5, seed: 4 }));
  const lines: string[] = [];
  fc.statistics(fc.nat(9), (n) => (n < 5 ? "small" : "large"), {
    numRuns: 50,
    logger: (l: string) => void lines.push(l),
  });
  assert.equal(lines.length, 2);
  assert.ok(
    lines.every((l) => /^(small|large)\.+\d+\.\d\d%$/.test(l)),
    lines.join("\n"),
  );
  const logged: string[] = [];
  t.mock.method(console, "log", (l: string) => void logged.push(l));
  fc.statistics(fc.boolean(), (b) => String(b));
  assert.equal(logged.length, 2);
  assert.equal(fc.stringify([1, "a", new Map([[1, 2n]])]), '[1, "a", new Map([[1, 2n]])]');
});

test("fc.context() logs go into the failure's report", () => {
  const f = failure(() =>
    fc.assert(
      fc.property(fc.context(), fc.nat(), (ctx, n) => {
        ctx.log(`n was ${n}`);
        return n < 3;
      }),
    ),
  );
  assert.match(f.message, /n was 3/);
});

test("the Replay a failure prints works in fc.assert's parameters: that case alone runs", () => {
  const first = failure(() =>
    fc.assert(
      fc.property(fc.array(fc.nat()), (xs) => xs.length < 3),
      { seed: 8 },
    ),
  );
  const blob = /Replay: \{ replay: "([^"]+)" \}/.exec(first.message)?.[1];
  assert.ok(blob !== undefined, first.message);
  let calls = 0;
  const again = failure(() =>
    fc.assert(
      fc.property(fc.array(fc.nat()), (xs) => {
        calls++;
        return xs.length < 3;
      }),
      { replay: blob },
    ),
  );
  assert.equal(calls, 1);
  assert.deepEqual(again.args, first.args);
});
