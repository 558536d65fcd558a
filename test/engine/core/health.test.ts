// Health checks (health.ts): each one triggers on the first generated cases, is named in its message with how to
// suppress it and what to do instead, stops the run early, and is suppressible; a suppressed check never makes a
// run with nothing valid pass; unknown names are misuse. Timing is never asserted beyond "it triggered".
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  assume,
  check,
  FailedHealthCheck,
  find,
  HEALTH_CHECKS,
  InvalidArgument,
  machine,
  property,
  PropertyFailure,
  st,
  Unsatisfiable,
} from "../../../src/engine/index.ts";
import type { EngineEvent, HealthCheck, ResultEvent, Settings } from "../../../src/engine/index.ts";
import { failure } from "../helpers.ts";

const QUIET: Settings = { database: null, deadline: null };
const SEEDS = [1, 2, 3, 4, 5];

/** ~1 % of its values pass the filter (and each case gets three attempts). */
const rare = () => st.integers({ min: 0, max: 9999 }).filter((x) => x % 100 === 37);
/** Lists of 30..100 booleans take 2 choices per element: most overrun a 66-choice budget. */
const big = () => st.lists(st.booleans(), { minSize: 30, maxSize: 100 });
const BIG: Settings = { maxChoices: 66 };

function busyWait(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin: generation that is slow in itself, not waiting on anything
  }
}

/** Arguments whose first draws are slow (~150 ms each) and the rest instant. */
function slowAtFirst(): ReturnType<typeof st.integers> {
  let draws = 0;
  return st.integers().map((x) => {
    if (draws++ < 10) busyWait(150);
    return x;
  });
}

/** Runs `run`, returning the FailedHealthCheck it throws and the result event; fails the test otherwise. */
function unhealthy(run: (onEvent: (e: EngineEvent) => void) => unknown): {
  error: FailedHealthCheck;
  result: ResultEvent;
} {
  let result: ResultEvent | undefined;
  try {
    run((e) => {
      if (e.type === "result") result = e;
    });
  } catch (e) {
    if (!(e instanceof FailedHealthCheck)) throw e;
    assert.ok(result !== undefined, "the result event was emitted");
    return { error: e, result };
  }
  assert.fail("expected a failed health check");
}

function assertNamed(error: FailedHealthCheck, check: HealthCheck, advice: RegExp): void {
  assert.equal(error.check, check);
  assert.equal(error.name, "FailedHealthCheck");
  assert.ok(
    error instanceof Unsatisfiable,
    "a health check failure is a give-up: code catching Unsatisfiable catches it",
  );
  assert.match(error.message, new RegExp(`^Health check ${check} failed`));
  assert.ok(error.message.includes(`settings: { suppressHealthCheck: ["${check}"] }`), error.message);
  assert.match(error.message, advice);
  assert.match(error.message, /Seed: \d+\./);
}

test("filterTooMuch: a filter rejecting ~99 % fails the health check early, named, with how to suppress it", () => {
  for (const seed of SEEDS) {
    let calls = 0;
    const { error, result } = unhealthy((onEvent) =>
      check(
        property(rare(), () => void calls++),
        { ...QUIET, seed, onEvent },
      ),
    );
    assertNamed(error, "filterTooMuch", /narrower strategy/);
    assert.match(error.message, /assume\(\) or \.filter\(\) rejected (all )?50 /);
    assert.equal(result.outcome, "gave-up");
    assert.equal(result.healthCheck, "filterTooMuch");
    assert.equal(result.statistics.invalid, 50);
    assert.ok(result.statistics.examples < 60, `stopped early: ${result.statistics.examples} cases`);
    assert.ok(calls < 10);
  }
});

test("filterTooMuch counts assume() in the body too", () => {
  const { error } = unhealthy((onEvent) =>
    check(
      property(st.integers({ min: 0, max: 9999 }), (x) => assume(x % 100 === 37)),
      { ...QUIET, seed: 1, onEvent },
    ),
  );
  assert.equal(error.check, "filterTooMuch");
});

test("filterTooMuch suppressed: the run goes on, passes, and finds a bug in the cases that pass the filter", () => {
  for (const seed of SEEDS) {
    const settings: Settings = { ...QUIET, seed, maxExamples: 20, suppressHealthCheck: ["filterTooMuch"] };
    check(
      property(rare(), (x) => assert.equal(x % 100, 37)),
      settings,
    );
    const f = failure(() =>
      check(
        property(rare(), (x) => assert.ok(x < 37, "too big")),
        settings,
      ),
    );
    assert.equal((f.args[0] as number) % 100, 37);
  }
});

test("dataTooLarge: a strategy over the choice budget most of the time fails the health check early", () => {
  for (const seed of SEEDS) {
    const { error, result } = unhealthy((onEvent) =>
      check(
        property(big(), () => {}),
        { ...QUIET, ...BIG, seed, onEvent },
      ),
    );
    assertNamed(error, "dataTooLarge", /smaller sizes/);
    assert.match(error.message, /exceeded the 66-choice budget/);
    assert.equal(result.healthCheck, "dataTooLarge");
    assert.equal(result.statistics.overrun, 20);
    // Early: 20 overruns among the first generated cases (fewer than 10 of them valid), plus a few variations
    // of the valid ones (variations.ts), which the window does not count.
    assert.ok(result.statistics.examples < 50, `${result.statistics.examples} examples`);
  }
});

test("dataTooLarge suppressed: the run goes on, passes, and finds a bug in the cases that fit", () => {
  for (const seed of SEEDS) {
    const settings: Settings = { ...QUIET, ...BIG, seed, maxExamples: 20, suppressHealthCheck: ["dataTooLarge"] };
    check(
      property(big(), (xs) => assert.ok(xs.length <= 35)),
      settings,
    );
    const f = failure(() =>
      check(
        property(big(), (xs) => assert.ok(!xs.includes(true), "no true")),
        settings,
      ),
    );
    assert.equal((f.args[0] as boolean[]).length, 30);
  }
});

test("tooSlow: arguments that take ~150 ms each to draw fail the health check, named, with how to suppress it", () => {
  const { error, result } = unhealthy((onEvent) =>
    check(
      property(slowAtFirst(), () => {}),
      { database: null, deadline: 200, seed: 1, onEvent },
    ),
  );
  assertNamed(error, "tooSlow", /keep expensive work out of the functions given to \.map/);
  assert.match(error.message, /drawing the arguments took \d+\.\d\d s .* the body's own time is not counted/);
  assert.equal(result.healthCheck, "tooSlow");
  assert.ok(result.statistics.examples <= 10);
});

test("tooSlow suppressed: the same slow generation runs to a pass", () => {
  check(
    property(slowAtFirst(), () => {}),
    { database: null, deadline: 200, seed: 1, suppressHealthCheck: ["tooSlow"], maxExamples: 20 },
  );
});

test("tooSlow measures generation only: a slow body is the deadline's business, not the health check's", () => {
  let calls = 0;
  // The window's 10 valid cases × 250 ms would be over the 2 s limit a 400 ms deadline gives, were the body's
  // time counted. Each call stays under the deadline, unless a loaded machine stalls it past: then the run fails
  // with DeadlineExceeded — also the deadline's verdict, never tooSlow.
  try {
    check(
      property(st.integers(), () => {
        if (calls++ < 10) busyWait(250);
      }),
      { database: null, deadline: 400, seed: 1, maxExamples: 20 },
    );
  } catch (e) {
    assert.ok(
      e instanceof PropertyFailure && e.cause instanceof Error && e.cause.name === "DeadlineExceeded",
      String(e),
    );
  }
  assert.ok(calls >= 10);
});

test("suppressing never turns a run with nothing valid into a pass: it still gives up as Unsatisfiable, naming the check", () => {
  const never = property(
    st.integers().filter(() => false),
    () => {},
  );
  assert.throws(
    () => check(never, { ...QUIET, seed: 1, suppressHealthCheck: ["filterTooMuch"] }),
    (e: unknown) =>
      e instanceof Unsatisfiable &&
      !(e instanceof FailedHealthCheck) &&
      /Unable to satisfy.*rejected all.*health check filterTooMuch; suppressing filterTooMuch never turns a run with no valid test case into a pass/.test(
        (e as Error).message,
      ),
  );
  const tooBig = property(st.lists(st.booleans(), { minSize: 60, maxSize: 100 }), () => {});
  assert.throws(
    () => check(tooBig, { ...QUIET, seed: 1, maxChoices: 70, suppressHealthCheck: [...HEALTH_CHECKS] }),
    (e: unknown) =>
      e instanceof Unsatisfiable &&
      !(e instanceof FailedHealthCheck) &&
      /every test case exceeded the 70-choice budget.*health check dataTooLarge; suppressing dataTooLarge/.test(
        (e as Error).message,
      ),
  );
});

test("a filter that most values pass does not trip the health check", () => {
  for (const seed of SEEDS)
    check(
      property(
        st.integers().filter((x) => x % 3 !== 0),
        st.text().filter((s) => s !== "x"),
        () => {},
      ),
      { ...QUIET, seed },
    );
});

test("explicit examples stay out of the health check: 60 rejected examples, then healthy generation", () => {
  const examples = Array.from({ length: 60 }, () => [-1]);
  check(
    property(st.integers({ min: 0 }), (x) => assume(x >= 0)),
    { ...QUIET, seed: 1, examples },
  );
});

test("a failure found inside the window is reported as the failure, not as a health check", () => {
  const f = failure(() =>
    check(
      property(
        st.integers({ min: 0, max: 9 }).filter((x) => x !== 3),
        (x) => assert.ok(x < 5, "under 5"),
      ),
      { ...QUIET, seed: 1 },
    ),
  );
  assert.ok(f instanceof PropertyFailure);
  assert.deepEqual(f.args, [5]);
});

test("suppressHealthCheck: unknown names, non-arrays and non-strings are InvalidArgument naming it and the known checks", () => {
  const prop = property(st.integers(), () => {});
  const bad: unknown[] = [["filterTooMuhc"], "filterTooMuch", [5], { filterTooMuch: true }, null];
  const known = /suppressHealthCheck.*known: filterTooMuch, tooSlow, dataTooLarge/;
  for (const value of bad) {
    const settings = { suppressHealthCheck: value } as unknown as Settings;
    assert.throws(
      () => check(prop, settings),
      (e: unknown) => e instanceof InvalidArgument && /^check: /.test(e.message) && known.test(e.message),
    );
    assert.throws(
      () => property(st.integers(), () => {}, settings),
      (e: unknown) => e instanceof InvalidArgument && /^property: /.test(e.message) && known.test(e.message),
    );
    assert.throws(
      () => find(st.integers(), () => true, settings),
      (e: unknown) => e instanceof InvalidArgument && known.test(e.message),
    );
    class M {
      step(): void {}
    }
    assert.throws(
      () => machine(M, { rules: { step: {} } }, settings),
      (e: unknown) => e instanceof InvalidArgument && /^machine: /.test(e.message) && known.test(e.message),
    );
  }
  assert.throws(() => check(prop, { suppressHealthCheck: ["nope"] }), /unknown health check "nope"/);
  // Every known name, and none, are accepted everywhere settings are.
  check(prop, { ...QUIET, suppressHealthCheck: [...HEALTH_CHECKS] });
  check(prop, { ...QUIET, suppressHealthCheck: [] });
  class Counter {
    n = 0;
    inc(): void {
      this.n++;
    }
  }
  check(machine(Counter, { rules: { inc: {} } }, { ...QUIET, suppressHealthCheck: ["tooSlow"] }));
});

// A filter the bounds pass (0 and 1,000,000 are multiples of 50, and generation favours bounds) once passed
// "100 examples" on about 14 distinct values: each repeat came after different rejected attempts, so its choice
// sequence was new. A value a filter reaches again now counts as a duplicate, so the run either tests distinct
// values or fails the health check.
const multiplesOf = (k: number) => st.integers({ min: 0, max: 1_000_000 }).filter((n) => n % k === 0);

test("a heavy filter that mostly reaches the same few values fails filterTooMuch instead of passing on them", () => {
  for (const seed of SEEDS) {
    const seen = new Set<number>();
    assert.throws(
      () => check(property(multiplesOf(50), (n) => void seen.add(n), { ...QUIET, seed })),
      (e: unknown) => e instanceof FailedHealthCheck && e.check === "filterTooMuch",
      `seed ${seed}: passed on ${seen.size} distinct values`,
    );
  }
});

test("a value a filter reaches again is a duplicate: the body never sees it twice, and statistics count it", () => {
  for (const seed of SEEDS) {
    for (const [k, extra] of [
      [10, {}],
      [50, { suppressHealthCheck: ["filterTooMuch"] }],
    ] as const) {
      const calls: number[] = [];
      let result: ResultEvent | undefined;
      check(
        property(multiplesOf(k), (n) => void calls.push(n), {
          ...QUIET,
          ...extra,
          seed,
          onEvent: (e: EngineEvent) => {
            if (e.type === "result") result = e;
          },
        }),
      );
      assert.equal(new Set(calls).size, calls.length, `seed ${seed}, multiples of ${k}: a value was tested twice`);
      assert.equal(result!.statistics.valid, calls.length);
      assert.ok(result!.statistics.duplicates > 0, `seed ${seed}: the repeats are counted as duplicates`);
      if (k === 10) assert.equal(calls.length, 100, `seed ${seed}: 100 distinct examples`);
    }
  }
});

test("filterTooMuch names a labelled filter and how many cases it rejected", () => {
  assert.throws(
    () =>
      check(
        property(
          st.integers().filter((n) => n === 123456789, "the magic number"),
          () => {},
        ),
        { seed: 1, database: null },
      ),
    (e: unknown) => e instanceof FailedHealthCheck && /; the magic number rejected \d+ of \d+/.test(e.message),
  );
  assert.throws(() => st.integers().filter(() => true, 7 as never), /\.filter: label must be a string/);
});
