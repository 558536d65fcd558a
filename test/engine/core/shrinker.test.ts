// Each shrink pass driven alone on a crafted failing case, plus the shrinker's own guarantees.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assume, check, find, property, st, PropertyFailure } from "../../../src/engine/index.ts";
import type { EngineEvent } from "../../../src/engine/index.ts";
import type { ChoiceValue } from "../../../src/engine/choice/types.ts";
import { DataTree, Status } from "../../../src/engine/core/datatree.ts";
import { Shrinker } from "../../../src/engine/core/shrinker.ts";
import type { ShrinkHost } from "../../../src/engine/core/shrinker.ts";
import type { Strategy } from "../../../src/engine/strategies/strategy.ts";
import { StopTest, TestCase } from "../../../src/engine/core/testCase.ts";
import { failure } from "../helpers.ts";

/** A shrinker over `strategy` and `fails`, starting from the case that `initial` replays to. */
function harness<T>(strategy: Strategy<T>, fails: (value: T) => boolean, initial: ChoiceValue[]) {
  const tree = new DataTree();
  let calls = 0;
  const run = (choices: readonly ChoiceValue[]) => {
    const tc = new TestCase(choices, null, 10_000);
    try {
      const v = strategy.draw(tc);
      tc.args = [v];
      tc.called = true;
      if (fails(v)) {
        tc.status = Status.Interesting;
        tc.origin = "fails";
      }
    } catch (e) {
      if (!(e instanceof StopTest)) throw e;
      tc.closeOpenSpans();
    }
    tree.record(tc.nodes, { kind: "conclusion", status: tc.status, origin: tc.origin });
    return tc;
  };
  const host: ShrinkHost = {
    tree,
    observer: undefined,
    // eslint-disable-next-line require-yield
    *execute(choices) {
      calls++;
      return run(choices);
    },
  };
  const first = run(initial);
  assert.equal(first.status, Status.Interesting, "the crafted case must fail");
  const shrinker = new Shrinker(
    host,
    { nodes: first.nodes, spans: first.spans, origin: first.origin },
    { maxCalls: 10_000, maxTimeMs: 60_000 },
  );
  const value = () => run(shrinker.target.nodes.map((n) => n.value)).args[0] as T;
  const drive = (gen: Generator<TestCase, unknown, TestCase>) => {
    for (let r = gen.next(); !r.done; r = gen.next(r.value));
  };
  return {
    shrinker,
    value,
    get calls() {
      return calls;
    },
    /** Run one named pass once. */
    pass(name: string): T {
      const p = [...shrinker.passes, ...shrinker.fallbackPasses].find((x) => x.name === name);
      assert.ok(p, `no pass named ${name}`);
      drive(shrinker.runPass(p.name, p.run));
      return value();
    },
    /** Run every pass to the fixpoint. */
    all(): T {
      drive(shrinker.run());
      return value();
    },
  };
}

/** The choices of a list of values: a "more" flag before each element, then a stop. */
const listChoices = (...xs: ChoiceValue[][]) => [...xs.flatMap((x) => [true, ...x]), false];
const ints = st.integers();

test("delete spans: drops the list elements the failure does not need", () => {
  const h = harness(st.lists(ints), (xs) => xs.includes(7), listChoices([1], [7], [2], [3]));
  assert.deepEqual(h.pass("delete spans"), [7]);
});

test("remove discarded: the attempts a filter rejected all go in one call", () => {
  const even = st.integers({ min: 0, max: 100 }).filter((n) => n % 2 === 0);
  const h = harness(st.tuples(even, even), ([a, b]) => a + b >= 10, [3, 5, 8, 9, 6]);
  const before = h.calls;
  assert.deepEqual(h.pass("remove discarded"), [8, 6]);
  assert.equal(h.shrinker.target.nodes.length, 2);
  assert.equal(h.calls - before, 1);
});

test("minimise choices: a value a filter rejects is answered by its neighbours, so 1001 reaches 101, the nearest odd value that fails", () => {
  const h = harness(
    st.integers().filter((n) => Math.abs(n % 2) === 1),
    (n) => n > 100,
    [1001],
  );
  assert.equal(h.pass("minimise choices"), 101);
});

test("minimise choices: a filter that rejects a whole range costs at most four candidates more than a failure there", () => {
  // The same search twice: once the values at or below 1000 fail to fail (the property passes), once a filter
  // rejects them. Only the first rejected move's neighbours are asked; after that a rejection counts as a failure.
  const passes = harness(st.integers(), (n) => n > 1000, [123456]);
  const before = passes.calls;
  assert.equal(passes.pass("minimise choices"), 1001);
  const rejects = harness(
    st.integers().filter((n) => n > 1000),
    (n) => n > 5,
    [123456],
  );
  const start = rejects.calls;
  assert.equal(rejects.pass("minimise choices"), 1001);
  const extra = rejects.calls - start - (passes.calls - before);
  assert.ok(extra >= 0 && extra <= 4, `${extra} candidates more`);
});

test("delete chunks: merges two inner lists by deleting the stop/start flags between them", () => {
  const h = harness(st.lists(st.lists(ints)), (xss) => xss.flat().length >= 2, [
    true,
    true,
    5,
    false,
    true,
    true,
    6,
    false,
    false,
  ]);
  const out = h.pass("delete chunks");
  assert.equal(out.length, 1, JSON.stringify(out));
  assert.equal(out[0].length, 2);
});

test("delete and decrement: shortens a list whose length was drawn up front", () => {
  const s = st
    .integers({ min: 1, max: 10 })
    .flatMap((n) => st.lists(st.integers({ min: 0, max: 1000 }), { minSize: n, maxSize: n }));
  const h = harness(s, (xs) => Math.max(...xs) >= 900, [3, true, 1, true, 950, true, 2, false]);
  const out = h.pass("delete and decrement");
  assert.ok(out.length < 3 && out.includes(950), JSON.stringify(out));
});

test("simplify spans: turns a whole element into its simplest form at once", () => {
  const h = harness(st.lists(st.tuples(ints, ints)), (xs) => xs.length >= 2, listChoices([5, 9], [7, 3]));
  assert.deepEqual(h.pass("simplify spans"), [
    [0, 0],
    [0, 0],
  ]);
});

test("minimise choices: each value to the boundary of the failure", () => {
  const h = harness(st.tuples(ints, st.text(), st.floats()), ([n, s, x]) => n >= 10 && s.length >= 1 && x > 2.5, [
    123456,
    "hello",
    1234.5678,
  ]);
  assert.deepEqual(h.pass("minimise choices"), [10, "0", 3]);
});

test("minimise choices: a float below 1 whose truncation passes tries the simplest floats (was a subnormal on half the seeds)", () => {
  // Directly: from a subnormal, the truncation (0) and every rounding (0) pass; 2 is the simplest that fails.
  const h = harness(st.floats({ min: 0 }), (x) => x !== 0 && x !== 1, [3.4e-290]);
  assert.equal(h.pass("minimise choices"), 2);
  // Through a whole run, as a user meets it (a positive float other than 1; a rectangle that is not a square).
  for (let seed = 0; seed < 30; seed++) {
    const f = failure(() =>
      check(
        property(st.floats({ min: Number.MIN_VALUE, allowInfinity: false }), (x) => {
          if (x !== 1) throw new Error("not 1");
        }),
        { seed, database: null },
      ),
    );
    assert.equal(f.repro, "2", `seed ${seed}`);
  }
});

test("sort siblings: puts list elements in simplest-first order", () => {
  const h = harness(st.lists(ints), (xs) => xs.join() !== [...xs].reverse().join(), listChoices([1], [0]));
  assert.deepEqual(h.pass("sort siblings"), [0, 1]);
});

test("lower duplicates: moves equal values down together", () => {
  const h = harness(st.tuples(ints, ints), ([a, b]) => a >= 10 && a === b, [5000, 5000]);
  assert.deepEqual(h.pass("lower duplicates"), [10, 10]);
});

test("lower pairs: a move that shortens the case mid-pass does not trip over pairs collected before it (pinned)", () => {
  // n, then n elements: moving n and the first element down together drops elements, so positions the pass
  // collected at its start fall past the end (found by the challenge bench: a TypeError in searchTogether).
  const sized = st
    .integers({ min: 0, max: 10 })
    .flatMap((n) => st.lists(st.integers({ min: 0, max: 100 }), { minSize: n, maxSize: n }));
  const h = harness(sized, (xs) => xs.length >= 1, [5, true, 50, true, 60, true, 70, true, 80, true, 90, false]);
  assert.deepEqual(h.pass("lower pairs"), [46]);
});

test("lower pairs: moves two values down by the same amount, keeping their difference", () => {
  const h = harness(
    st.tuples(ints, ints),
    ([a, b]) => a >= 10 && Math.abs(a - b) >= 1 && Math.abs(a - b) <= 4,
    [5000, 4997],
  );
  assert.deepEqual(h.pass("lower pairs"), [10, 7]);
});

test("redistribute pairs: moves value from the first to the second, keeping the sum", () => {
  const h = harness(st.tuples(ints, ints), ([a, b]) => a + b >= 25 && b <= 30, [20, 5]);
  assert.deepEqual(h.pass("redistribute pairs"), [0, 25]);
});

test("minimise choices: an integer held close to the next one moves with it from far away, in a few calls", () => {
  // a ≥ 10 and 1 ≤ |a − b| ≤ 4: alone, each value can move only a few steps, and finding that out from 2^42
  // cost a bisection over the whole distance (~40 calls an integer).
  const fails = ([a, b]: [number, number]) => a >= 10 && Math.abs(a - b) >= 1 && Math.abs(a - b) <= 4;
  const h = harness(st.tuples(ints, ints), fails, [4123145929906, 4123145929904]);
  const [a, b] = h.pass("minimise choices");
  assert.ok(a <= 20 && fails([a, b]), `near the boundary in one pass: ${a}, ${b}`);
  assert.ok(h.calls < 50, `${h.calls} calls`);
});

test("try small values: jumps past conditions that block every small step", () => {
  const h = harness(ints, (n) => n % 7 === 3 && n > 0, [101]);
  assert.equal(h.pass("try small values"), 3);
});

test("try small values: equal values try each small value together, one call a value (not one per position)", () => {
  const h = harness(st.tuples(ints, ints), ([a, b]) => a >= 10 && a === b, [10, 10]);
  const before = h.calls;
  assert.deepEqual(h.pass("try small values"), [10, 10]);
  assert.ok(h.calls - before <= 8, `${h.calls - before} calls`);
});

test("delete and lower siblings: shortens a list whose elements index into it", () => {
  const coupled = st.lists(st.integers({ min: 0, max: 10 })).filter((xs) => xs.every((x) => x < xs.length));
  const fails = (xs: number[]) => xs.some((j, i) => j !== i && xs[j] === i);
  const h = harness(coupled, fails, listChoices([0], [0], [4], [0], [2]));
  const out = h.pass("delete and lower siblings");
  assert.ok(out.length < 5 && fails(out), JSON.stringify(out));
});

test("delete and lower elsewhere: a character and the integer that counts into its string go together", () => {
  // Pinned from bench:migration (a truncation that splits a surrogate pair): ("0𐀀", 2) ended there, since deleting
  // the "0" alone passes and lowering 2 alone passes; fast-check reached ("𐀀", 1).
  const truncated = ([s, n]: [string, number]) => (s.length <= n ? s : s.slice(0, n));
  const fails = (a: [string, number]) => /[\uD800-\uDBFF]$/.test(truncated(a));
  const h = harness(st.tuples(st.text(), st.integers({ min: 0, max: 10 })), fails, ["0\u{10000}", 2]);
  assert.deepEqual(h.all(), ["\u{10000}", 1]);
});

test("delete and lower elsewhere: a list element and an index drawn after the list go together", () => {
  const fails = ([xs, i]: [number[], number]) => xs.length >= 2 && i < xs.length && xs[i] === 1 && i === xs.length - 1;
  const h = harness(st.tuples(st.lists(st.integers({ min: 0, max: 1 })), st.integers({ min: 0, max: 10 })), fails, [
    ...listChoices([0], [0], [1]),
    2,
  ]);
  assert.deepEqual(h.pass("delete and lower elsewhere"), [[0, 1], 1]);
});

test("merge siblings: two elements become one holding their (wrapped) sum", () => {
  const int16 = st.integers({ min: -32768, max: 32767 });
  const wrap = (n: number) => ((((n + 32768) % 65536) + 65536) % 65536) - 32768;
  const h = harness(st.lists(int16), (xs) => wrap(xs.reduce((a, b) => a + b, 0)) === -32768, listChoices([1], [32767]));
  assert.deepEqual(h.pass("merge siblings"), [-32768]);
});

test("the full shrinker reaches a fixpoint no pass can improve, and never calls the property on a repeat", () => {
  const h = harness(st.lists(ints), (xs) => new Set(xs).size >= 3, listChoices([88], [-5], [88], [1000], [3]));
  assert.deepEqual(h.all(), [0, 1, -1]);
  const calls = h.calls;
  // Running the passes again at the fixpoint: nothing improves, and every candidate is answered by the tree.
  const before = h.shrinker.shrinks;
  h.all();
  assert.equal(h.shrinker.shrinks, before);
  assert.equal(h.calls - calls, 0, "the rerun is answered entirely by the DataTree");
});

test("no shrink candidate is executed twice in a real run", () => {
  for (let seed = 0; seed < 10; seed++) {
    const seen = new Set<string>();
    const evs: EngineEvent[] = [];
    try {
      check(
        property(st.lists(st.integers()), (xs) => {
          if (xs.length >= 2 && xs[0] > xs[1]) throw new Error("unsorted");
        }),
        { seed, database: null, deadline: null, onEvent: (e) => evs.push(e) },
      );
    } catch (e) {
      if (!(e instanceof PropertyFailure)) throw e;
    }
    for (const e of evs) {
      if (e.type !== "test-case" || e.origin !== "shrink") continue;
      const key = JSON.stringify(e.choices.map((c) => c.value));
      assert.ok(!seen.has(key), `seed ${seed}: ${key} ran twice`);
      seen.add(key);
    }
  }
});

test("the budget stops shrinking early and says so, keeping the best example so far", () => {
  let error: PropertyFailure | undefined;
  try {
    check(
      property(st.lists(st.integers()), (xs) => {
        if (xs.length >= 3) throw new Error("long");
      }),
      { seed: 2, database: null, deadline: null, maxShrinkCalls: 1 },
    );
  } catch (e) {
    error = e as PropertyFailure;
  }
  assert.ok(error instanceof PropertyFailure);
  assert.match(error.message, /Shrinking stopped early: shrink call budget \(1\) used up/);
  assert.ok((error.args[0] as number[]).length >= 3);
});

test("pass to descendant: a recursive structure shrinks to one of its own subtrees", () => {
  type Tree = number | Tree[];
  const tree = st.recursive<Tree>(st.integers({ min: 0, max: 9 }), (self) => st.lists(self, { maxSize: 3 }));
  const depth = (t: Tree): number => (Array.isArray(t) ? 1 + Math.max(0, ...t.map(depth)) : 0);
  const has7 = (t: Tree): boolean => (Array.isArray(t) ? t.some(has7) : t === 7);
  // [[5, [7]]]: the failing leaf sits two lists deep.
  const leaf = (n: number) => [0, n];
  const list = (...xs: ChoiceValue[][]) => [1, ...xs.flatMap((x) => [true, ...x]), false];
  const h = harness(tree, has7, list(list(leaf(5), list(leaf(7)))));
  const out = h.pass("pass to descendant");
  assert.ok(depth(out) < 3 && has7(out), JSON.stringify(out));
});

test("regression: pair passes survive the target shrinking under them (bound5, seed 25 crashed)", () => {
  const toInt16 = (x: number) => ((x + 32768) & 0xffff) - 32768;
  const sum16 = (xs: number[]) => xs.reduce((acc, x) => toInt16(acc + x), 0);
  const list = st.lists(st.integers({ min: -32768, max: 32767 })).filter((xs) => sum16(xs) < 256);
  let failure: unknown;
  try {
    check(
      property(st.tuples(list, list, list, list, list), (p) => {
        if (sum16(p.flat()) >= 5 * 256) throw new Error("sum");
      }),
      { seed: 25, database: null, deadline: null, maxExamples: 1000 },
    );
  } catch (e) {
    failure = e;
  }
  assert.ok(failure instanceof PropertyFailure, String(failure));
  const lists = (failure.args[0] as number[][]).filter((xs) => xs.length > 0);
  assert.deepEqual(lists.map((xs) => xs.join()).sort(), ["-1", "-32768"]);
});

test("try small pairs: two values that must change together (a string-comparing sort stuck at [2, 100])", () => {
  const sortedAsStrings = (xs: number[]) => {
    const out = Array.from(new Set(xs)).sort();
    return !out.every((x, i) => i === 0 || out[i - 1] < x);
  };
  const h = harness(st.lists(ints), sortedAsStrings, listChoices([2], [100]));
  assert.deepEqual(h.pass("try small pairs"), [-1, -2]);
  // And the whole shrinker gets there from where single-value moves are stuck.
  assert.deepEqual(harness(st.lists(ints), sortedAsStrings, listChoices([2], [100000])).all(), [-1, -2]);
});

test("equal characters shrink together: a run that must stay a run ends on the simplest character from every seed (pinned: b's and c's on 12 of 20 seeds)", () => {
  for (let seed = 1; seed <= 20; seed++) {
    assert.equal(
      find(st.text({ alphabet: "abc" }), (s) => /(.)\1{3}/.test(s), { seed, database: null, maxExamples: 2000 }),
      "aaaa",
      `seed ${seed}`,
    );
  }
});

test("the simplest string is the one JavaScript's .length calls shortest: three characters, not a BMP one and an astral one", () => {
  for (let seed = 0; seed < 8; seed++)
    assert.equal(
      find(st.text(), (s) => s.length >= 3, { seed, database: null }),
      "000",
      `seed ${seed}`,
    );
  for (let seed = 0; seed < 4; seed++)
    assert.equal(
      find(st.text(), (s) => s.length >= 2 && s.codePointAt(0)! > 0xffff, { seed, database: null }),
      "\u{10000}",
      `seed ${seed}`,
    );
});

test("coupled shrinking: an element folds into the factor before the list, so a product ends on one factor", () => {
  const args = st.tuples(st.integers({ min: 1, max: 100000 }), st.lists(st.integers({ min: 1, max: 10 })));
  for (let seed = 0; seed < 6; seed++) {
    const found = find(args, ([n, ps]) => ps.reduce((acc, p) => acc * p, n) >= 1e6, { seed, database: null });
    assert.deepEqual(found, [100000, [10]], `seed ${seed}`);
  }
});

test("lower with raise: starts where a product keeps its value and gallops from there, not a search over the whole range", () => {
  const args = st.tuples(st.integers({ min: 1, max: 100000 }), st.lists(st.integers({ min: 1, max: 10 })));
  const h = harness(args, ([n, ps]) => ps.reduce((acc, p) => acc * p, n) >= 1e6, [23810, ...listChoices([6], [7])]);
  const before = h.calls;
  const [n, ps] = h.pass("lower with raise");
  assert.deepEqual([n, ps], [10000, [10, 10]]);
  assert.ok(h.calls - before <= 12, `${h.calls - before} calls`);
});

test("the replacement challenge ((n, [p…]) with n·∏p ≥ 10^6) ends on (100000, [10]) from every seed in at most 84 calls on average, Hypothesis's figure", () => {
  let total = 0;
  for (let seed = 0; seed < 20; seed++) {
    let failure: unknown;
    try {
      check(
        property(st.integers({ min: 1, max: 100000 }), st.lists(st.integers({ min: 1, max: 10 })), (n, ps) => {
          if (ps.reduce((acc, p) => acc * p, n) >= 1e6) throw new Error("large");
        }),
        { seed, database: null, deadline: null, maxExamples: 1000 },
      );
    } catch (e) {
      failure = e;
    }
    assert.ok(failure instanceof PropertyFailure, `seed ${seed}: ${String(failure)}`);
    assert.deepEqual(failure.args, [100000, [10]], `seed ${seed}`);
    total += failure.statistics.shrinkCalls;
  }
  assert.ok(total / 20 <= 84, `mean ${total / 20} shrink calls`);
});

test("equal elements across a list shrink together, whatever their type: three equal values end on the simplest such value from every seed", () => {
  const threeEqual =
    <T>(ok: (x: T) => boolean) =>
    (xs: T[]) => {
      const counts = new Map<string, number>();
      for (const x of xs) if (ok(x)) counts.set(JSON.stringify(x), (counts.get(JSON.stringify(x)) ?? 0) + 1);
      return [...counts.values()].some((k) => k >= 3);
    };
  const settings = (seed: number) => ({ seed, database: null, maxExamples: 5000 });
  for (let seed = 0; seed < 6; seed++) {
    assert.deepEqual(
      find(
        st.lists(st.integers()),
        threeEqual((x: number) => x >= 10),
        settings(seed),
      ),
      [10, 10, 10],
      `integers, seed ${seed}`,
    );
    assert.deepEqual(
      find(
        st.lists(st.text()),
        threeEqual((s: string) => s.length >= 2),
        settings(seed),
      ),
      ["00", "00", "00"],
      `strings, seed ${seed}`,
    );
    assert.deepEqual(
      find(
        st.lists(st.floats()),
        threeEqual((x: number) => x >= 10.5),
        settings(seed),
      ),
      [11, 11, 11],
      `floats, seed ${seed}`,
    );
  }
});

/** Shrink calls summed over seeds 0..seeds−1 (database off: deterministic), and every minimal example found. */
function challengeCalls<T>(
  strategy: Strategy<T>,
  fails: (value: T) => boolean,
  precondition?: (value: T) => boolean,
  seeds = 20,
) {
  let calls = 0;
  const found: T[] = [];
  for (let seed = 0; seed < seeds; seed++) {
    try {
      check(
        property(strategy, (v) => {
          if (precondition !== undefined) assume(precondition(v));
          if (fails(v)) throw new Error("fails");
        }),
        { seed, database: null, deadline: null, maxExamples: 1000 },
      );
    } catch (e) {
      if (!(e instanceof PropertyFailure)) throw e;
      calls += e.statistics.shrinkCalls;
      found.push(e.args[0] as T);
    }
  }
  return { calls, found };
}

test("delete spans: after the last element goes, the list keeps only the first few that still fail (keep 0, 1, 2, 4, …), not a backward search over the whole list", () => {
  const h = harness(
    st.lists(ints),
    (xs) => xs.join() !== [...xs].reverse().join(),
    listChoices(...[5, 3, 9, 8, 1, 4, 6, 7, 2, 11, 12, 13].map((x) => [x])),
  );
  assert.deepEqual(h.pass("delete spans"), [5, 3]);
  assert.ok(h.calls <= 5, `${h.calls} calls`);
  // The reverse challenge (docs/benchmarks.md): at or below Hypothesis's mean (8.9 calls), ideal on every seed.
  const r = challengeCalls(st.lists(ints), (xs) => xs.join() !== [...xs].reverse().join());
  assert.equal(r.found.length, 20);
  for (const xs of r.found) assert.deepEqual(xs, [0, 1]);
  assert.ok(r.calls <= 178, `${r.calls} calls over 20 seeds`);
});

test("delete spans: an index drawn after a list follows the elements it points at down, so (list, index of its last element) shrinks by deletion", () => {
  // Deleting any one element alone leaves the index past the end (so that is not even tried); deleting it with
  // the index lowered keeps the element the index picks.
  const pair = st.tuples(st.lists(ints), st.integers({ min: 0, max: 10 }));
  const picksDuplicate = ([ls, i]: [number[], number]) =>
    i < ls.length && ls.filter((x, k) => k !== i && x === ls[i]).length > 0;
  const start = [...listChoices([5], [9], [7], [8], [7]), 4];
  const h = harness(pair, picksDuplicate, start);
  assert.deepEqual(h.pass("delete spans"), [[7, 7], 1]);
  assert.ok(h.calls <= 7, `${h.calls} calls`);
  // The deletion challenge (docs/benchmarks.md): ideal on every seed, within its pinned mean.
  const r = challengeCalls(
    pair,
    ([ls, i]) => ls.filter((x, k) => k !== i && x === ls[i]).length > 0,
    ([ls, i]) => i < ls.length,
  );
  assert.equal(r.found.length, 20);
  for (const x of r.found) assert.deepEqual(x, [[0, 0], 0]);
  assert.ok(r.calls <= 7.3 * 20, `${r.calls} calls over 20 seeds`); // Hypothesis 6.155: 7.3 (bench: two arguments, not a tuple)
});

test("join lists: the lists of two neighbouring elements of an outer list become one, so a failure spread across them ends in one list", () => {
  const lol = st.lists(st.lists(ints));
  const unionOf = (k: number) => (ls: number[][]) => new Set(ls.flat()).size >= k;
  const h = harness(lol, unionOf(3), [true, ...listChoices([1], [2]), true, ...listChoices([3]), false]);
  assert.deepEqual(h.pass("join lists"), [[1, 2, 3]]);
  assert.equal(h.calls, 1);
  // The large_union_list challenge (docs/benchmarks.md): at or below Hypothesis's mean (175.2), ideal on every seed.
  const r = challengeCalls(lol, unionOf(5));
  assert.equal(r.found.length, 20);
  for (const ls of r.found) assert.deepEqual(ls, [[0, 1, -1, 2, -2]]);
  assert.ok(r.calls <= 175.2 * 20, `${r.calls} calls over 20 seeds`);
});

test("try small values: the five simplest values and the two just below the current one, at most seven calls an integer — [10, 11] jumps the gap to [10, 9] (|a − b| = 1)", () => {
  const pair = st.tuples(st.integers({ min: 1 }), st.integers({ min: 1 }));
  const h = harness(pair, ([a, b]) => a >= 10 && Math.abs(a - b) === 1, [10, 11]);
  assert.deepEqual(h.pass("try small values"), [10, 9]);
  assert.ok(h.calls <= 13, `${h.calls} calls`);
  // A lone integer is not deleted (that only shifts the next one into its place): one call, for the pair.
  const calls = h.calls;
  h.pass("delete spans");
  assert.equal(h.calls - calls, 1);
  // The difference_small challenge (docs/benchmarks.md): at or below Hypothesis's mean (36.8), ideal on every seed.
  const r = challengeCalls(pair, ([a, b]) => a >= 10 && Math.abs(a - b) >= 1 && Math.abs(a - b) <= 4);
  assert.equal(r.found.length, 20);
  for (const x of r.found) assert.deepEqual(x, [10, 6]);
  assert.ok(r.calls <= 706, `${r.calls} calls over 20 seeds`);
});

test(
  "a search from below -2^53 toward a shrinkTowards above zero ends: the bisection stops when its midpoint no longer moves (it asked the DataTree the same cached candidate forever, uncounted, so no budget stopped it)",
  { timeout: 60_000 },
  () => {
    // Seed 104 drew -9007199254740989; every seed must end on the boundary.
    for (let seed = 100; seed < 110; seed++) {
      assert.equal(
        find(st.integers({ shrinkTowards: 2000 }), (n) => n < 1990, { seed, database: null, deadline: null }),
        1989,
        `seed ${seed}`,
      );
    }
  },
);

test("shrink calls count the property's calls: candidates a filter rejects before it runs are cases, not calls", () => {
  const indices = st.lists(st.integers({ min: 0, max: 10 })).filter((xs) => xs.every((v) => v < xs.length));
  let rejectedSomewhere = false;
  for (let seed = 0; seed < 10; seed++) {
    let shrinking = false;
    let bodyCalls = 0;
    const f = failure(() =>
      check(
        property(indices, (xs) => {
          if (shrinking) bodyCalls++;
          // With a message: without one, each failing call has node:assert re-parse this file to print the expression,
          // which on some layouts of the file took minutes.
          assert.ok(!xs.some((j, i) => i !== j && xs[j] === i), "two indices point at each other");
        }),
        {
          database: null,
          deadline: null,
          seed,
          maxExamples: 1000,
          phases: ["generate", "shrink"],
          onEvent: (e: EngineEvent) => {
            if (e.type === "phase") shrinking = e.phase === "shrink";
          },
        },
      ),
    );
    assert.deepEqual(f.args, [[1, 0]]);
    assert.equal(f.statistics.shrinkCalls, bodyCalls, `seed ${seed}`);
    assert.ok(f.statistics.shrinkCases >= f.statistics.shrinkCalls);
    if (f.statistics.shrinkCases > f.statistics.shrinkCalls) rejectedSomewhere = true;
  }
  assert.ok(rejectedSomewhere, "no candidate was rejected by the filter: the test no longer tests anything");
  // The coupling challenge (docs/benchmarks.md): at or below Hypothesis's mean (27.9 calls), ideal on every seed.
  const r = challengeCalls(indices, (xs) => xs.some((j, i) => i !== j && xs[j] === i));
  assert.equal(r.found.length, 20);
  for (const xs of r.found) assert.deepEqual(xs, [1, 0]);
  assert.ok(r.calls <= 27.9 * 20, `${r.calls} calls over 20 seeds`);
});

test("a regex alternative shrinks to the shortest match, whichever alternative the failure was found in", () => {
  // Switching alternatives changes how many choices follow, so no edit of the old ones fits: the alternative stayed
  // as found. Lower and refill probes the alternative drawn afresh.
  const ends = new Set<string>();
  for (let seed = 1; seed <= 20; seed++) {
    const f = failure(() =>
      check(
        // zod's UUID pattern: a versioned UUID, or the nil one (a literal: no choices at all).
        property(
          st.integers(),
          st.fromRegex(
            /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000)$/,
          ),
          (x) => {
            if (x >= 5) throw new Error("big");
          },
        ),
        { seed, database: null },
      ),
    );
    ends.add(JSON.stringify(f.args));
  }
  assert.deepEqual([...ends], ['[5,"00000000-0000-0000-0000-000000000000"]']);
});
