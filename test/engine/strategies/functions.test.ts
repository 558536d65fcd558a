// st.functions: the strategy laws (laws.ts) over what a function returns for a few calls; purity; results drawn in
// the case and shrunk; the printed lookup gives the same results; a composition applied in the wrong order found
// and shrunk to its minimal functions (its regression test: test/extension/regression.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, find, property, st, toLiteral, PropertyFailure } from "../../../src/engine/index.ts";
import { strategyLaws } from "./laws.ts";
import { bugRuns } from "./bugScenario.ts";
import { spansFromArguments } from "../../../src/engine/property/run.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;
const ints = st.functions({ returns: st.integers() });

strategyLaws({
  name: "st.functions({ returns: st.integers() }), called on 1, 2, 1",
  strategy: ints.map((f) => [f(1), f(2), f(1)]),
  valid: ([a, b, c]) => (a === c && Number.isSafeInteger(b)) || "equal arguments gave different results",
  simplest: [0, 0, 0],
  badOptions: [
    [() => st.functions(undefined as never), /^st\.functions: returns is required/],
    [() => st.functions({ returns: 3 as never }), /^st\.functions: returns must be a strategy, got number 3/],
    [() => st.functions({ returns: st.integers(), arity: 2 } as never), /^st\.functions: unknown option "arity"/],
  ],
});

test("a generated function is pure: structurally equal arguments give the same result, -0 and 0 and undefined and null apart", () => {
  check(
    property(st.functions({ returns: st.integers() }), (f) => {
      assert.equal(f([1, { a: 2 }]), f([1, { a: 2 }]));
      assert.equal(f(new Map([[1, 2]])), f(new Map([[1, 2]])));
      f(-0);
      f(0);
      f(undefined);
      f(null);
      f(1n);
    }),
    { ...QUIET, maxExamples: 50 },
  );
});

test("results shrink to their simplest, and the printed lookup gives the same results for the same calls", () => {
  const failure = (() => {
    try {
      check(
        property(st.functions({ returns: st.text() }), (f) => {
          assert.ok(!(f(1) !== f(2) && f(3, "x").length > 1));
        }),
        QUIET,
      );
    } catch (e) {
      if (e instanceof PropertyFailure) return e;
      throw e;
    }
  })();
  assert.ok(failure);
  const f = (0, eval)(failure.repro) as (...args: unknown[]) => string;
  assert.deepEqual([f(1), f(2), f(3, "x")], ["", "0", "00"]);
  assert.match(
    failure.repro,
    /^\(function \(a = JSON\.parse\("0"\), b = a\) \{ switch \(JSON\.stringify\(\[\.\.\.arguments\]\)\)/,
  );
});

test("a function kept past its test case answers the calls it saw and refuses new ones, naming st.functions", () => {
  let kept: ((x: number) => number) | undefined;
  check(
    property(ints, (f) => {
      kept = f;
      f(1);
    }),
    { ...QUIET, maxExamples: 1 },
  );
  assert.equal(typeof kept!(1), "number");
  assert.throws(
    () => kept!(2),
    /st\.functions: the function was called with new arguments \(\[2\]\) after its test case ended/,
  );
  assert.match(toLiteral(kept), /case "\[1\]": return/);
});

test("a function that was never called prints as one that throws, naming why", () => {
  const f = find(ints, () => true, QUIET);
  assert.match(toLiteral(f), /default: throw new Error\("st\.functions: a call the failing case did not make"\)/);
});

const composeWrong =
  <A, B, C>(f: (a: A) => B, g: (b: B) => C) =>
  (x: A) =>
    // the bug: g ∘ f where f ∘ g was meant
    (g as unknown as (a: A) => B)(f(x) as unknown as A) as unknown as C;

test("a composition applied in the wrong order: found on at least 18 of 20 seeds, minimal f ≡ 0 and g(0) = 1 on each", () => {
  const { minimal, foundEarly } = bugRuns(
    st.tuples(ints, ints, st.integers()),
    ([f, g, x]) => composeWrong(f, g)(x) === f(g(x)),
  );
  assert.ok(foundEarly >= 18, `found within 100 examples on ${foundEarly}/20 seeds`);
  const lookup = (cases: string, other: number) =>
    `(function (a = JSON.parse("0")) { switch (JSON.stringify([...arguments])) { ${cases} default: return ${other}; } })`;
  const expected = `[${lookup('case "[0]": return 0; case "[1]": return 0;', 0)}, ${lookup('case "[0]": return 1;', 1)}, 0]`;
  assert.deepEqual(
    minimal.map((m) => m?.repro),
    minimal.map(() => expected),
  );
});

test("a function's results are drawn in the body: such a property records its spans as it runs, watched or not (pinned)", () => {
  // Its choices do not all come from its arguments, so the engine may not redraw its spans from them (Engine.respan):
  // the results' spans were missing from what the shrinker and the mutations read. Once generation recorded the
  // spans of the cases the mutations may vary as they ran, a run read the results' spans on those cases and not on
  // the others (a review found it: seed 7 of the property below failed after 4 cases where it had failed after 3).
  // Now such a property records its spans as it runs, every case, and a watched and an unwatched run agree.
  const returns = st.integers({ min: 0, max: 1000 });
  for (const strategies of [
    [st.functions({ returns })],
    [st.lists(st.functions({ returns }))],
    [st.records({ f: st.functions({ returns }) })],
  ])
    assert.equal(spansFromArguments({ strategies, passes: undefined, slices: undefined, present: undefined }), false);
  assert.equal(
    spansFromArguments({
      strategies: [st.lists(st.integers())],
      passes: undefined,
      slices: undefined,
      present: undefined,
    }),
    true,
  );
  const calls = (seed: number, watched: boolean) => {
    const seen: string[] = [];
    try {
      check(
        property(st.functions({ returns }), st.integers(), (f, n) => {
          const a = f(1);
          const b = f(2);
          seen.push(`${a},${b},${n}`);
          if (a === b && a !== 0) throw new Error("equal results");
        }),
        { seed, database: null, deadline: null, ...(watched ? { onEvent: () => {} } : {}) },
      );
    } catch (e) {
      if (!(e instanceof PropertyFailure)) throw e;
    }
    return seen;
  };
  for (let seed = 0; seed < 12; seed++) assert.deepEqual(calls(seed, false), calls(seed, true), `seed ${seed}`);
});
