// The engine end to end: phases, seeds and profiles, the DataTree's promises, statuses and budgets, events.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  assume,
  check,
  find,
  note,
  property,
  PropertyFailure,
  st,
  Unsatisfiable,
  event,
} from "../../../src/engine/index.ts";
import type { EngineEvent, Settings } from "../../../src/engine/index.ts";
import { failure, tempDir, withEnv } from "../helpers.ts";

const QUIET: Settings = { database: null, deadline: null };

function events(settings: Settings, prop: Parameters<typeof check>[0]): EngineEvent[] {
  const out: EngineEvent[] = [];
  try {
    check(prop, { ...QUIET, ...settings, onEvent: (e) => out.push(e) });
  } catch (e) {
    if (!(e instanceof PropertyFailure)) throw e;
  }
  return out;
}

test("a finite space is run exactly once per input and reported exhausted (three booleans: 8 calls)", () => {
  const seen = new Set<string>();
  let calls = 0;
  const evs = events(
    { maxExamples: 1000 },
    property(st.booleans(), st.booleans(), st.booleans(), (a, b, c) => {
      calls++;
      seen.add(`${a}${b}${c}`);
    }),
  );
  assert.equal(calls, 8);
  assert.equal(seen.size, 8);
  const result = evs.find((e) => e.type === "result");
  assert.equal(result?.type === "result" && result.outcome, "exhausted");
});

test("no test case runs twice: a small integer space is enumerated without repeats", () => {
  const seen = new Map<string, number>();
  check(
    property(st.integers({ min: 0, max: 20 }), st.booleans(), (n, b) => {
      const k = `${n},${b}`;
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }),
    { ...QUIET, maxExamples: 1000 },
  );
  assert.equal(seen.size, 42);
  assert.ok(
    [...seen.values()].every((n) => n === 1),
    "every input ran once",
  );
});

test("the same seed runs the same test cases", () => {
  const run = () => {
    const xs: string[] = [];
    check(
      property(st.lists(st.integers()), st.text(), (a, b) => {
        xs.push(JSON.stringify([a, b]));
      }),
      { ...QUIET, seed: 12345, maxExamples: 50 },
    );
    return xs;
  };
  assert.deepEqual(run(), run());
});

test("SHRINKSCOPE_SEED overrides the seed setting; the CI profile derandomizes and turns the database off", () => {
  const seedOf = (settings: Settings) => {
    const evs = events(
      settings,
      property(st.integers(), () => {}),
    );
    const start = evs.find((e) => e.type === "run-start");
    assert.ok(start?.type === "run-start");
    return start;
  };
  withEnv({ SHRINKSCOPE_SEED: "777", CI: undefined }, () => assert.equal(seedOf({ seed: 5 }).seed, 777));
  withEnv({ SHRINKSCOPE_SEED: undefined, CI: "true" }, () => {
    const prop = property(st.integers(), () => {});
    const seeds = [0, 1].map(() => {
      const evs: EngineEvent[] = [];
      check(prop, { onEvent: (e) => evs.push(e) });
      const s = evs[0];
      assert.ok(s.type === "run-start");
      assert.equal(s.settings.database, null);
      assert.equal(s.settings.derandomize, true);
      return s.seed;
    });
    assert.equal(seeds[0], seeds[1]);
  });
  withEnv({ SHRINKSCOPE_SEED: "abc" }, () =>
    assert.throws(() => check(property(st.integers(), () => {})), /SHRINKSCOPE_SEED must be an integer/),
  );
});

test("SHRINKSCOPE_SHARD=i/n gives each shard its own derandomised seed (the same on every re-run), and leaves explicit seeds alone", () => {
  const prop = property(st.lists(st.integers()), () => {});
  const runOf = (shard: string | undefined, settings: Settings = {}) =>
    withEnv({ SHRINKSCOPE_SEED: undefined, CI: "true", SHRINKSCOPE_SHARD: shard }, () => {
      const evs: EngineEvent[] = [];
      check(prop, { ...settings, maxExamples: 20, onEvent: (e) => evs.push(e) });
      const start = evs[0];
      assert.ok(start.type === "run-start");
      const cases = evs
        .filter((e) => e.type === "test-case")
        .map((e) => JSON.stringify(e.type === "test-case" ? e.choices.map((c) => c.value) : null));
      return { seed: start.seed, cases };
    });
  const plain = runOf(undefined);
  assert.equal(runOf("1/1").seed, plain.seed, "one shard is the plain derandomised run");
  const shards = ["1/3", "2/3", "3/3"].map((s) => runOf(s));
  assert.equal(new Set([plain.seed, ...shards.map((r) => r.seed)]).size, 4, "every shard has its own seed");
  assert.deepEqual(runOf("2/3"), shards[1], "a shard re-runs the same cases");
  // What the shards generate differs (the empty list aside, which every run tries first).
  assert.ok(shards[0].cases.length >= 20 && !shards[0].cases.includes("null"));
  const overlap = shards[0].cases.filter((c) => c !== "[false]" && shards[1].cases.includes(c));
  assert.ok(overlap.length <= 2, `shards 1 and 2 overlap in ${overlap.length} of 20 cases`);
  assert.equal(runOf("2/3", { seed: 99 }).seed, 99, "an explicit seed wins");
  for (const bad of ["0/3", "4/3", "2", "a/b", "1/0", "-1/2"]) {
    assert.throws(
      () => runOf(bad),
      new RegExp(
        `SHRINKSCOPE_SHARD must be "i/n" with 1 <= i <= n .*got ${JSON.stringify(bad).replace(/[/]/g, "\\/")}`,
      ),
    );
  }
});

test("a failure reports the minimal arguments, the original error, the seed and a TypeScript repro", () => {
  const boom = new RangeError("too big");
  const f = failure(() =>
    check(
      property(st.integers(), st.text(), (n) => {
        if (n >= 1000) throw boom;
      }),
      { ...QUIET, seed: 3 },
    ),
  );
  assert.deepEqual(f.args, [1000, ""]);
  assert.equal(f.cause, boom);
  assert.equal(f.repro, '1000, ""');
  assert.equal(f.seed, 3);
  // The explain phase found the string free: one argument per line, the free one marked.
  assert.match(
    f.message,
    /Minimal failing arguments \(TypeScript\):\n {2}1000,\n {2}"" \/\/ or any other generated value\n/,
  );
  assert.match(f.message, /RangeError: too big/);
  assert.match(f.message, /SHRINKSCOPE_SEED=3/);
  assert.ok(f.statistics.shrinkCalls > 0);
});

test("async properties: failures reject with the shrunk PropertyFailure", async () => {
  const prop = property(
    st.lists(st.integers()),
    async (xs) => {
      await new Promise((r) => setImmediate(r));
      if (xs.length >= 2) throw new Error("long");
    },
    QUIET,
  );
  const out = prop();
  assert.ok(out instanceof Promise);
  await assert.rejects(out, (e: unknown) => e instanceof PropertyFailure && JSON.stringify(e.args) === "[[0,0]]");
  await check(
    property(st.integers(), async () => {}),
    QUIET,
  );
});

test("find returns the shortlex-minimal satisfying value, and throws when there is none", () => {
  assert.deepEqual(
    find(st.lists(st.integers()), (xs) => xs.length > 3, QUIET),
    [0, 0, 0, 0],
  );
  assert.deepEqual(
    find(st.lists(st.integers()), (xs) => xs.reduce((a, b) => a + b, 0) > 100, QUIET),
    [101],
  );
  assert.equal(
    find(st.text(), (s) => [...s].length >= 2, QUIET),
    "00",
  );
  assert.equal(
    find(st.floats(), (x) => x > 1.5, QUIET),
    2,
  );
  assert.throws(() => find(st.integers({ min: 0, max: 5 }), (x) => x > 10, QUIET), /no value satisfying/);
});

test("every accepted shrink is strictly shortlex-smaller than the target before it", () => {
  const key = (cs: readonly { index: number }[]) => [cs.length, ...cs.map((c) => c.index)];
  const less = (a: number[], b: number[]) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i];
    return false;
  };
  let checked = 0;
  for (let seed = 0; seed < 15; seed++) {
    // Bounded integers keep the events' (number) indices exact; the shrinker itself compares exact bigints.
    const int = st.integers({ min: -1e6, max: 1e6 });
    const evs = events(
      { seed },
      property(st.lists(st.tuples(int, st.text())), int, (xs, n) => {
        if (xs.length + Math.abs(n) > 5 && xs.some(([a]) => a > 3)) throw new Error("bad");
      }),
    );
    let previous: number[] | undefined;
    for (const e of evs) {
      if (e.type === "test-case" && e.origin === "generate" && e.status === "interesting") previous = key(e.choices);
      if (e.type === "shrink-candidate" && e.accepted) {
        assert.ok(previous !== undefined && less(key(e.choices), previous), "accepted candidates are simpler");
        assert.equal(e.comparison.order, -1);
        previous = key(e.choices);
        checked++;
      }
    }
  }
  assert.ok(checked > 20, `checked ${checked} accepted shrinks`);
});

test("shrinking is deterministic for a seed: same minimal example, same number of calls", () => {
  const run = () =>
    failure(() =>
      check(
        property(st.lists(st.integers()), (xs) => {
          if (new Set(xs).size >= 3) throw new Error("three distinct");
        }),
        { ...QUIET, seed: 99 },
      ),
    );
  const [a, b] = [run(), run()];
  assert.deepEqual(a.args, b.args);
  assert.equal(a.statistics.shrinkCalls, b.statistics.shrinkCalls);
});

test("assume and filter discard cases; when nothing is valid the run says why instead of passing", () => {
  let valid = 0;
  check(
    property(st.integers({ min: 0, max: 1000 }), (n) => {
      assume(n % 2 === 0);
      valid++;
    }),
    { ...QUIET, maxExamples: 50 },
  );
  assert.equal(valid, 50);
  assert.throws(
    () =>
      check(
        property(st.integers(), () => assume(false)),
        QUIET,
      ),
    (e: unknown) => e instanceof Unsatisfiable && /assume\(\) or \.filter\(\) rejected all/.test(e.message),
  );
  assert.throws(
    () =>
      check(
        property(
          st.integers().filter(() => false),
          () => {},
        ),
        QUIET,
      ),
    Unsatisfiable,
  );
});

test("a strategy that draws without end stops at the choice budget as an overrun, never hangs", () => {
  type Chain = [number, Chain];
  const chain: ReturnType<typeof st.deferred<Chain>> = st.deferred(() => st.tuples(st.integers(), chain));
  assert.throws(
    () =>
      check(
        property(chain, () => {}),
        { ...QUIET, maxExamples: 5 },
      ),
    (e: unknown) => e instanceof Unsatisfiable && /choice budget/.test(e.message),
  );
  // Bounded recursion always terminates and shrinks to the base case.
  type Tree = number | Tree[];
  const tree = st.recursive<Tree>(st.integers(), (self) => st.lists(self, { maxSize: 3 }));
  check(
    property(tree, () => {}),
    { ...QUIET, maxExamples: 200 },
  );
  assert.deepEqual(
    find(tree, (t) => Array.isArray(t), QUIET),
    [],
  );
});

test("the deadline fails a case that takes too long, with an error saying so", () => {
  const f = failure(() =>
    check(
      property(st.integers(), () => {
        const end = performance.now() + 30;
        while (performance.now() < end) {
          /* busy */
        }
      }),
      { database: null, deadline: 10, maxExamples: 3 },
    ),
  );
  assert.equal((f.cause as Error).name, "DeadlineExceeded");
  assert.match(f.message, /over the 10 ms deadline/);
});

test("a case slowed once by a pause that is not the body's (a garbage collection, the engine's own work) is no DeadlineExceeded: it is run again", () => {
  // One call in the middle of the run stalls as a long GC pause would; the same case run again is fast.
  let calls = 0;
  let stalled = 0;
  check(
    property(st.integers(), () => {
      if (++calls === 20) {
        stalled++;
        const end = performance.now() + 60;
        while (performance.now() < end) {
          /* a pause */
        }
      }
    }),
    { database: null, deadline: 20, maxExamples: 50 },
  );
  assert.equal(stalled, 1);
  assert.equal(calls, 51, "the slow case ran twice");
});

test("events: run start, phases, every test case with its choices and spans, DataTree growth, shrink candidates, result", () => {
  const evs = events(
    { seed: 1 },
    property(st.lists(st.integers({ min: 0, max: 100 })), (xs) => {
      event(xs.length > 2 ? "long" : "short");
      if (xs.some((x) => x > 50)) throw new Error("over 50");
    }),
  );
  assert.equal(evs[0].type, "run-start");
  const phases = evs.flatMap((e) => (e.type === "phase" ? [e.phase] : []));
  assert.deepEqual(phases, ["generate", "shrink", "explain", "final"]);
  const tc = evs.find((e) => e.type === "test-case" && e.choices.length > 2);
  assert.ok(tc?.type === "test-case");
  const integer = tc.choices.find((c) => c.type === "integer");
  assert.ok(integer && typeof integer.value === "number" && integer.index >= 0);
  assert.deepEqual(integer.constraints, { min: 0, max: 100, shrinkTowards: 0 });
  assert.ok(tc.spans.some((s) => s.label === "list element"));
  assert.ok(["valid", "interesting"].includes(tc.status));
  assert.ok(evs.some((e) => e.type === "tree" && e.totalNodes > 1));
  const cand = evs.find((e) => e.type === "shrink-candidate");
  assert.ok(cand?.type === "shrink-candidate" && typeof cand.pass === "string" && cand.comparison.order !== undefined);
  assert.ok(evs.some((e) => e.type === "shrink-pass" && e.state === "end"));
  const result = evs[evs.length - 1];
  assert.ok(result.type === "result" && result.outcome === "failed");
  assert.equal(result.repro, "[51]");
  assert.ok(Object.keys(result.statistics.events).some((k) => k === "long" || k === "short"));
});

test("the database: a failure is saved, replayed first next run, and dropped once fixed", () => {
  const dir = tempDir("db");
  let broken = true;
  const prop = property(
    st.lists(st.integers()),
    (xs) => {
      if (broken && xs.length >= 3) throw new Error("three");
    },
    { database: dir, deadline: null, key: "db-test" },
  );
  const first = failure(() => check(prop));
  assert.deepEqual(first.args, [[0, 0, 0]]);
  const evs: EngineEvent[] = [];
  const second = failure(() => check(prop, { onEvent: (e) => evs.push(e) }));
  assert.deepEqual(second.args, [[0, 0, 0]]);
  const firstCase = evs.find((e) => e.type === "test-case");
  assert.ok(firstCase?.type === "test-case" && firstCase.origin === "reuse" && firstCase.status === "interesting");
  assert.ok(!evs.some((e) => e.type === "phase" && e.phase === "generate"), "no generation needed");
  broken = false;
  check(prop);
  const files = fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => String(f).endsWith(".json") && !String(f).endsWith("key.txt"));
  assert.equal(files.length, 0, "the fixed example was removed");
});

test("a corrupt database file is skipped with a warning, never a crash", () => {
  const dir = tempDir("db");
  const prop = property(
    st.integers(),
    (n) => {
      if (n > 5) throw new Error("big");
    },
    { database: dir, deadline: null, key: "corrupt" },
  );
  failure(() => check(prop));
  const sub = fs.readdirSync(dir)[0];
  for (const f of fs.readdirSync(path.join(dir, sub)))
    if (f.endsWith(".json")) fs.writeFileSync(path.join(dir, sub, f), "{not json");
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (m: string) => warnings.push(String(m));
  try {
    assert.deepEqual(failure(() => check(prop)).args, [6]);
  } finally {
    console.warn = warn;
  }
  assert.ok(warnings.some((w) => /corrupt example file/.test(w)));
});

test("explicit examples run first and are reported as given", () => {
  const f = failure(() =>
    check(
      property(st.integers(), (n) => {
        if (n === 123456) throw new Error("pinned");
      }),
      { ...QUIET, examples: [[123456]] },
    ),
  );
  assert.deepEqual(f.args, [123456]);
  assert.match(f.message, /explicit example/);
});

test("data() draws inside the body are shrunk and printed; note() appears in the report", () => {
  const f = failure(() =>
    check(
      property(st.data(), (data) => {
        const n = data.draw(st.integers({ min: 0, max: 100 }), "n");
        const xs = data.draw(st.lists(st.integers(), { minSize: n, maxSize: n }));
        note(`sum ${xs.reduce((a, b) => a + b, 0)}`);
        if (n >= 2 && xs[1] > 0) throw new Error("second positive");
      }),
      { ...QUIET, seed: 4 },
    ),
  );
  assert.match(f.message, /draw 1 \(n\): 2/);
  assert.match(f.message, /draw 2: \[0, 1\]/);
  assert.match(f.message, /note: sum 1/);
});

test("generation is biased the way a bug hunter wants, and every value stays reachable", () => {
  const lengths: number[] = [];
  let withDuplicate = 0;
  let bounds = 0;
  check(
    property(st.lists(st.integers({ min: -1000, max: 1000 })), (xs) => {
      lengths.push(xs.length);
      if (xs.length >= 2 && new Set(xs).size < xs.length) withDuplicate++;
      if (xs.includes(-1000) || xs.includes(1000)) bounds++;
    }),
    { ...QUIET, maxExamples: 500, seed: 11 },
  );
  lengths.sort((a, b) => a - b);
  assert.ok(lengths[lengths.length >> 1] <= 6, "short lists are common");
  assert.ok(lengths[lengths.length - 1] >= 15, "long lists happen");
  assert.ok(withDuplicate >= 50, `duplicates are common (${withDuplicate}/500)`);
  assert.ok(bounds >= 20, `boundaries are common (${bounds}/500)`);
  // Reachability: small spaces are covered completely.
  const strings = new Set<string>();
  check(
    property(st.text({ alphabet: "ab", maxSize: 2 }), (s) => void strings.add(s)),
    { ...QUIET, maxExamples: 100 },
  );
  assert.deepEqual([...strings].sort(), ["", "a", "aa", "ab", "b", "ba", "bb"]);
  const floats = new Set<number>();
  check(
    property(st.floats({ min: 0, max: 1 }), (x) => void floats.add(x)),
    { ...QUIET, maxExamples: 300 },
  );
  assert.ok(floats.has(0) && floats.has(1) && [...floats].some((x) => x > 0 && x < 1));
});

test("unique lists never repeat an element", () => {
  check(
    property(st.lists(st.integers({ min: 0, max: 20 }), { unique: true }), (xs) => {
      assert.equal(new Set(xs).size, xs.length);
    }),
    { ...QUIET, maxExamples: 300 },
  );
  check(
    property(st.lists(st.records({ id: st.integers({ min: 0, max: 5 }) }), { uniqueBy: (r) => r.id }), (xs) => {
      assert.equal(new Set(xs.map((r) => r.id)).size, xs.length);
    }),
    { ...QUIET, maxExamples: 300 },
  );
});

test("test cases: ChoiceNodes and spans are built on demand from flat storage; shared storage is not read after reuse, except by a case that took its own copy", async () => {
  const { TestCase, CaseStore } = await import("../../../src/engine/core/testCase.ts");
  const { Random } = await import("../../../src/engine/util/random.ts");
  const store = new CaseStore();
  const tc = new TestCase([], new Random(1), 100, null, store);
  const value = st.lists(st.integers({ min: 0, max: 3 }), { minSize: 2, maxSize: 2 }).draw(tc);
  assert.deepEqual(
    tc.nodes.map((n) => n.value),
    tc.choices,
  );
  assert.deepEqual(
    tc.nodes.filter((n) => n.type === "integer").map((n) => n.value),
    value,
  );
  assert.ok(tc.nodes.every((n, i) => (n.type === "boolean" ? n.forced : !n.forced) && tc.valueAt(i) === n.value));
  const spans = tc.spans;
  assert.equal(spans[0].label, "list");
  assert.deepEqual(
    spans.filter((s) => s.label === "list element").map((s) => [s.start, s.end]),
    [
      [0, 2],
      [2, 4],
      [4, 5],
    ],
  );
  const next = new TestCase([], new Random(2), 100, null, store);
  st.booleans().draw(next);
  assert.equal(tc.spans, spans, "spans read before reuse stay valid");
  const unread = new TestCase([], new Random(3), 100, null, store);
  st.lists(st.integers({ min: 0, max: 3 }), { minSize: 1, maxSize: 1 }).draw(unread);
  const kept = new TestCase([], new Random(5), 100, null, store);
  const keptValue = st.lists(st.integers({ min: 0, max: 3 }), { minSize: 3, maxSize: 3 }).draw(kept);
  kept.own();
  new TestCase([], new Random(4), 100, null, store);
  st.booleans().draw(new TestCase([], new Random(6), 100, null, store));
  assert.throws(() => unread.spans, /recycled/);
  assert.throws(() => unread.choices, /recycled/);
  assert.throws(() => unread.nodes, /recycled/);
  assert.deepEqual(
    kept.nodes.filter((n) => n.type === "integer").map((n) => n.value),
    keptValue,
    "a case that took its own copy keeps its choices",
  );
  assert.equal(kept.spans[0].label, "list");
  assert.equal(kept.spans.length, 5);
});

test("generation's stores are reused run after run: runs at the same time each draw into their own, and a failure kept from an earlier run keeps its choices", async () => {
  const { TestCase, giveBackStores, takeStore } = await import("../../../src/engine/core/testCase.ts");
  const { Random } = await import("../../../src/engine/util/random.ts");
  // A store given back is not read through a case of the run that gave it: that case's reads throw.
  const store = takeStore();
  const last = new TestCase([], new Random(1), 100, null, store);
  st.lists(st.integers(), { minSize: 3, maxSize: 3 }).draw(last);
  giveBackStores([store]);
  assert.throws(() => last.choices, /recycled/);
  assert.equal(takeStore(), store, "the next run takes the store given back");

  // The same properties, one after the other and then interleaved (async bodies, each awaiting between cases):
  // every case draws what it drew alone, and each run's failure shrinks to the same example.
  const seen = (tag: string, log: string[]) =>
    property(st.lists(st.integers({ min: 0, max: 50 })), async (xs) => {
      log.push(`${tag}:${JSON.stringify(xs)}`);
      await new Promise((r) => setImmediate(r));
      if (xs.length > 3 && xs[0] === xs[1]) throw new Error(`${tag} found a repeat`);
    });
  const run = async (tag: string, seed: number, log: string[]) => {
    try {
      await check(seen(tag, log), { ...QUIET, seed, maxExamples: 300 });
      return "passed";
    } catch (e) {
      return e instanceof PropertyFailure ? JSON.stringify(e.args) : String(e);
    }
  };
  const aloneA: string[] = [];
  const aloneB: string[] = [];
  const alone = [await run("a", 11, aloneA), await run("b", 12, aloneB)];
  const together: string[] = [];
  const both = await Promise.all([run("a", 11, together), run("b", 12, together)]);
  assert.deepEqual(both, alone);
  assert.ok(
    alone.every((r) => r !== "passed"),
    "both runs fail and shrink",
  );
  assert.deepEqual(
    together.filter((l) => l.startsWith("a:")),
    aloneA,
  );
  assert.deepEqual(
    together.filter((l) => l.startsWith("b:")),
    aloneB,
  );
  assert.ok(new Set(together.slice(0, 20).map((l) => l[0])).size === 2, "the two runs were interleaved");
});

test("a watched run's test-case events carry every case's spans, though generation draws them only for the cases an observer reads", () => {
  const evs = events(
    { seed: 4, maxExamples: 200 },
    property(st.lists(st.integers()), st.text(), () => {}),
  );
  const cases = evs.flatMap((e) => (e.type === "test-case" && e.origin === "generate" ? [e] : []));
  assert.ok(cases.length >= 200);
  for (const c of cases) {
    const args = c.spans.filter((sp) => sp.depth === 0);
    assert.deepEqual(
      args.map((sp) => sp.label),
      ["argument", "argument"],
    );
    assert.equal(args[0].start, 0);
    assert.equal(args[0].end, args[1].start, "the arguments' spans tile the choices");
    assert.equal(args[1].end, c.choices.length);
    const list = c.spans.find((sp) => sp.label === "list")!;
    const elements = c.spans.filter((sp) => sp.label === "list element");
    assert.equal(elements.length, c.choices.filter((x, i) => i < list.end && x.type === "boolean").length);
    assert.equal(elements.at(-1)!.end, list.end, "the list's last span is its final flag");
  }
});

test("events: every choice info carries its own value and index; infos of the simplest values are shared and frozen", () => {
  const evs = events(
    { seed: 3, maxExamples: 200 },
    property(st.lists(st.integers({ min: -1000, max: 1000 })), st.booleans(), () => {}),
  );
  const infos = evs.flatMap((e) => (e.type === "test-case" ? [...e.choices] : []));
  assert.ok(infos.length > 500);
  for (const c of infos) {
    if (c.type === "integer")
      assert.equal(
        c.index,
        c.value === 0 ? 0 : (c.value as number) > 0 ? 2 * (c.value as number) - 1 : -2 * (c.value as number),
      );
    if (c.type === "boolean") assert.equal(c.index, c.value ? 1 : 0);
  }
  const zeros = infos.filter((c) => c.type === "integer" && c.value === 0);
  assert.ok(zeros.length > 1 && zeros.every((c) => c === zeros[0] && Object.isFrozen(c)), "one shared info for 0");
  const big = infos.find((c) => c.type === "integer" && c.index >= 64);
  assert.ok(big !== undefined && !Object.isFrozen(big), "larger values get their own info");
});

test("generated integers: every value of a small range is reached, and near-equal pairs are common", () => {
  const seen = new Set<number>();
  let near = 0;
  let pairs = 0;
  check(
    property(st.integers({ min: -3, max: 3 }), st.integers(), st.integers(), (a, x, y) => {
      seen.add(a);
      pairs++;
      if (Math.abs(x - y) <= 2) near++;
    }),
    { ...QUIET, seed: 5, maxExamples: 2000 },
  );
  assert.deepEqual(
    [...seen].sort((p, q) => p - q),
    [-3, -2, -1, 0, 1, 2, 3],
  );
  assert.ok(near / pairs > 0.05, `near-equal pairs: ${near} of ${pairs}`);
});

test("each accepted shrink of a property carries its arguments as the report prints them (drawn before the body ran)", () => {
  let calls = 0;
  const prop = property(st.lists(st.integers()), st.text(), (xs, label) => {
    calls++;
    const failing = xs.length >= 2 && label.length > 0;
    xs.push(99); // the body's mutation must not show in what the event presents
    if (failing) throw new Error("found");
  });
  const evs: EngineEvent[] = [];
  const f = failure(() => check(prop, { ...QUIET, seed: 3, onEvent: (e) => evs.push(e) }));
  const targets = evs.filter((e) => e.type === "shrink-target");
  assert.ok(targets.length > 0);
  for (const t of targets) assert.equal(t.presentation?.kind, "arguments", `pass ${t.pass}`);
  const last = targets[targets.length - 1].presentation;
  assert.equal(last?.kind === "arguments" ? last.text : undefined, f.repro, "the last target is the minimal example");
  assert.equal(f.repro, '[0, 0], "0"');
  const callsWithEvents = calls;
  calls = 0;
  failure(() => check(prop, { ...QUIET, seed: 3 }));
  assert.equal(calls, callsWithEvents, "presenting calls no body");
});

test("generated cases record spans only when read: a run with no observer finds, varies and shrinks exactly as an observed one", () => {
  // Without an observer a plain property's generated cases draw no spans (TestCase.spansOff); a failure, a case
  // varied by the mutations and a case climbed from get theirs by drawing their arguments again. Were those
  // spans wrong or missing, the shrinker and the mutations would take other steps than in an observed run.
  const dedupe = (xs: number[]) => xs.filter((x, i) => i === 0 || xs[i - 1] !== x);
  const cases: [string, () => ReturnType<typeof property>][] = [
    [
      "a repeat that is not adjacent",
      () =>
        property(st.lists(st.integers({ min: -5, max: 50 })), (xs) =>
          assert.equal(new Set(dedupe(xs)).size, dedupe(xs).length, "unique after dedupe"),
        ),
    ],
    [
      "nested records",
      () =>
        property(
          st.records({
            id: st.integers(),
            items: st.lists(
              st.records({ sku: st.text(), qty: st.integers({ min: 0, max: 100 }) }).filter((r) => r.qty !== 7),
            ),
          }),
          (o) => assert.ok(o.items.reduce((a, r) => a + r.qty, 0) < 150, "under 150"),
        ),
    ],
    [
      "a drawing that throws",
      () =>
        property(
          st.lists(
            st.integers().map((n) => {
              if (n === 1000) throw new Error("no 1000");
              return n;
            }),
          ),
          st.integers({ min: 0, max: 3 }),
          (xs, k) => assert.ok(xs.length <= 4 + k, "short"),
        ),
    ],
  ];
  for (const [name, make] of cases) {
    for (const seed of [1, 2, 3, 4]) {
      const plain = failure(() => check(make(), { ...QUIET, seed }));
      const observed = failure(() => check(make(), { ...QUIET, seed, onEvent: () => {} }));
      assert.deepEqual(plain.args, observed.args, `${name}, seed ${seed}: the same minimal example`);
      const { timeMs: _a, ...p } = plain.statistics;
      const { timeMs: _b, ...o } = observed.statistics;
      assert.deepEqual(p, o, `${name}, seed ${seed}: the same cases, variations and shrinks`);
    }
  }
});
