// Generation on the log (core/generationLog.ts): what the DataTree gave generation still holds without it —
// no input called twice, small spaces exhausted, every case generation ran known to the shrinker, flakiness caught.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assume, check, InMemoryDatabase, property, PropertyFailure, st, target } from "../../../src/engine/index.ts";
import type { Settings } from "../../../src/engine/index.ts";
import { ChoiceData, typeCode } from "../../../src/engine/choice/storage.ts";
import { DataTree, conclusionOf, Status } from "../../../src/engine/core/datatree.ts";
import { GenerationLog, LOG_CHOICES } from "../../../src/engine/core/generationLog.ts";
import {
  fingerprint,
  FingerprintSet,
  stringHash,
  strippedHash,
  unitsHash,
} from "../../../src/engine/core/fingerprints.ts";
import { Random } from "../../../src/engine/util/random.ts";
import { TestCase } from "../../../src/engine/core/testCase.ts";
import { failure } from "../helpers.ts";

const QUIET: Settings = { database: null, deadline: null };
const INT = { min: -1000, max: 1000 } as never;

function choices(values: (number | string | boolean | Uint8Array)[]): ChoiceData {
  const data = new ChoiceData();
  for (const v of values) {
    if (typeof v === "number") data.push(typeCode("integer"), INT, v);
    else if (typeof v === "boolean") data.push(typeCode("boolean"), { p: 0.5 }, v);
    else if (typeof v === "string") data.push(typeCode("string"), { min: 0, max: 10 } as never, v);
    else data.push(typeCode("bytes"), { min: 0, max: 10 } as never, v);
  }
  return data;
}

test("fingerprints: equal choices print alike in any storage; a value, a kind, a character or a byte apart they differ", () => {
  const a = choices([3, true, "ab", new Uint8Array([1, 2])]);
  const b = choices([3, true, "ab", new Uint8Array([1, 2])]);
  assert.equal(fingerprint(a, a.length), fingerprint(b, b.length));
  const prints = new Set([
    fingerprint(a, a.length),
    fingerprint(choices([4, true, "ab", new Uint8Array([1, 2])]), 4),
    fingerprint(choices([3, false, "ab", new Uint8Array([1, 2])]), 4),
    fingerprint(choices([3, true, "ac", new Uint8Array([1, 2])]), 4),
    fingerprint(choices([3, true, "ab", new Uint8Array([1, 3])]), 4),
    fingerprint(choices([3, 1, "ab", new Uint8Array([1, 2])]), 4), // 1 as an integer, not `true`
    fingerprint(choices([3, true, "ab"]), 3),
    fingerprint(a, 2), // a prefix
  ]);
  assert.equal(prints.size, 8);
  const floats = new ChoiceData();
  floats.push(typeCode("float"), {} as never, 0);
  const negative = new ChoiceData();
  negative.push(typeCode("float"), {} as never, -0);
  assert.notEqual(fingerprint(floats, 1), fingerprint(negative, 1), "0 and -0 are different choices");
  // 20,000 distinct integer sequences: no two alike.
  const many = new Set<number>();
  for (let i = 0; i < 20_000; i++) many.add(fingerprint(choices([i % 100, Math.floor(i / 100)]), 2));
  assert.equal(many.size, 20_000);
});

test("a passing property on the log never calls its body twice with the same input, over 1,000 examples", () => {
  for (const strategy of [
    st.lists(st.integers()),
    st.text(),
    st.tuples(st.booleans(), st.integers({ min: 0, max: 9 })),
  ]) {
    const seen = new Map<string, number>();
    check(
      property(strategy as ReturnType<typeof st.text>, (v) => {
        const k = JSON.stringify(v);
        seen.set(k, (seen.get(k) ?? 0) + 1);
      }),
      { ...QUIET, maxExamples: 1000, seed: 7 },
    );
    assert.ok(
      [...seen.values()].every((n) => n === 1),
      "every input ran once",
    );
  }
});

test("a failure: the shrinker knows every case generation ran (a run watched and one not make the same calls)", () => {
  // Watched, each generated case goes into the DataTree as it runs; not watched, into the log, replayed into the
  // tree when the failure is found. Had the replay left a case out, the shrinker would call it again: a small
  // space, and a failure found after a few dozen cases, make the shrinker try inputs generation already ran.
  const run = (seed: number, watched: boolean) => {
    const calls: string[] = [];
    try {
      check(
        property(st.integers({ min: 0, max: 40 }), st.booleans(), (n, b) => {
          calls.push(JSON.stringify([n, b]));
          if (n >= 38 && b) throw new Error("big");
        }),
        { ...QUIET, seed, ...(watched ? { onEvent: () => {} } : {}) },
      );
    } catch (e) {
      if (!(e instanceof PropertyFailure)) throw e;
    }
    return calls;
  };
  for (let seed = 0; seed < 10; seed++) {
    assert.deepEqual(run(seed, false), run(seed, true), `seed ${seed}`);
  }
});

test("flakiness among generated cases is still caught when a failure puts them into the tree", () => {
  // A strategy reading a counter: from its 10th draw of n ≥ 1 on, the same first choice leads to another kind of
  // draw. Only the early cases (in the log) disagree with the failure: without the replay, nothing would.
  let drawn = 0;
  const strategy = st
    .integers({ min: 0, max: 3 })
    .flatMap((n) => (n >= 1 && ++drawn > 10 ? st.booleans().map((b) => [n, b]) : st.just([n, false])));
  const e = failure(() =>
    check(
      property(strategy, st.integers({ min: 0, max: 10_000 }), ([n], k) => {
        if (k > 9000 && (n as number) >= 1) throw new Error("late");
      }),
      { ...QUIET, seed: 1 },
    ),
  );
  assert.equal(e.flaky, true, e.message);
  assert.match(
    e.message,
    /Flaky: after the same first 1 choice, call \d+ drew an integer .* but call \d+ drew a boolean/,
  );
});

test("small spaces: once repeats keep coming the tree steers, and three booleans exhaust after 8 calls", () => {
  let calls = 0;
  check(
    property(st.booleans(), st.booleans(), st.booleans(), () => {
      calls++;
    }),
    { ...QUIET, maxExamples: 1000 },
  );
  assert.equal(calls, 8);
});

test("the log replays its cases into the tree in call order, and past LOG_CHOICES it forgets them", () => {
  const tree = new DataTree();
  const log = new GenerationLog(new Set());
  const cases: TestCase[] = [];
  for (const [a, b] of [
    [false, false],
    [false, true],
    [true, false],
    [true, true],
  ]) {
    const tc = new TestCase([a, b], null, 100);
    tc.drawBoolean({ p: 0.5 });
    tc.drawBoolean({ p: 0.5 });
    assert.equal(log.known(tc), false);
    log.record(tc, conclusionOf(Status.Valid, undefined), cases.length + 1, true);
    assert.equal(log.known(tc), true, "a case recorded is known");
    cases.push(tc);
  }
  assert.equal(tree.root.exhausted, false, "nothing is in the tree before the replay");
  log.replayInto(tree, () => assert.fail("not flaky"));
  assert.equal(tree.root.exhausted, true, "the four cases of two booleans exhaust the tree");
  assert.equal(log.forgotten, false);
  const big = new TestCase([], null, LOG_CHOICES + 10);
  const bigLog = new GenerationLog(new Set());
  for (let i = 0; i < LOG_CHOICES; i++) big.data.push(typeCode("boolean"), { p: 0.5 }, false);
  big.choiceCount = LOG_CHOICES;
  bigLog.record(big, conclusionOf(Status.Valid, undefined), 1, true);
  assert.equal(bigLog.forgotten, true, "past LOG_CHOICES the log forgets");
});

test("strippedHash is the string hash of the text with what \\s matches removed, for every code unit", () => {
  const stripped = (t: string) => t.replace(/\s+/g, "");
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    assert.equal(strippedHash("", `a${ch}b`), stringHash(stripped(`a${ch}b`)), `code unit ${c.toString(16)}`);
  }
  const pieces = ["x", " ", "\t", "\n", "\u00a0", "\u2028", "\ufeff", "\u3000", "é", "𝒳", "(a,b)=>{", "}", "\r\n"];
  for (let k = 0; k < 500; k++) {
    let text = "";
    for (let j = 0; j < (k % 40) + 1; j++) text += pieces[(k * 7 + j * 13) % pieces.length];
    assert.equal(strippedHash("property\0", text), stringHash(`property\0${stripped(text)}`), JSON.stringify(text));
  }
});

test("a FingerprintSet finds what was added, after growing too, and nothing else; past its limit it keeps no more", () => {
  const set = new FingerprintSet(5000);
  for (let i = 0; i < 5000; i++) set.add(i * 7919, (i * 104729) | 1);
  assert.equal(set.size, 5000);
  for (let i = 0; i < 5000; i++) assert.ok(set.has(i * 7919, (i * 104729) | 1), `pair ${i}`);
  for (let i = 5000; i < 6000; i++) assert.equal(set.has(i * 7919, (i * 104729) | 1), false);
  set.add(1, 1);
  assert.equal(set.has(1, 1), false, "the limit is kept");
  set.add(0, (0 * 104729) | 1);
  assert.equal(set.size, 5000, "adding one already there changes nothing");
  // A small set's arrays go to the next set, emptied.
  const small = new FingerprintSet(100);
  small.add(5, 7);
  small.release();
  const next = new FingerprintSet(100);
  assert.equal(next.has(5, 7), false, "the next set starts empty");
  assert.equal(next.size, 0);
});

test("a full log forgets its cases and keeps their fingerprints", () => {
  const log = new GenerationLog(new Set());
  const tc = new TestCase([true], null, 100);
  tc.drawBoolean({ p: 0.5 });
  log.record(tc, conclusionOf(Status.Valid, undefined), 1, true);
  log.forget();
  const tree = new DataTree();
  log.replayInto(tree, () => assert.fail("not flaky"));
  assert.equal(tree.nodeCount, 1, "nothing left to replay");
  assert.equal(log.known(tc), true, "a forgotten case is still known");
});

test("a string's hash: made from its units while generating or from its characters later, the same number", () => {
  for (const s of ["", "a", "héllo", "😀x", "\uD800", "a".repeat(5000)]) {
    const units = Array.from({ length: s.length }, (_, k) => s.charCodeAt(k));
    assert.equal(unitsHash(units), stringHash(s), JSON.stringify(s.slice(0, 10)));
  }
  // A case that drew its strings fresh (hashed from their units) and one that replays them (hashed from the
  // characters when first printed) print alike.
  const strategy = st.lists(st.text({ minSize: 3 }), { minSize: 5 });
  for (let seed = 0; seed < 20; seed++) {
    const fresh = new TestCase([], new Random(seed), 1000);
    strategy.draw(fresh);
    const again = new TestCase(fresh.choices, null, 1000);
    strategy.draw(again);
    assert.equal(
      fingerprint(again.data, again.choiceCount),
      fingerprint(fresh.data, fresh.choiceCount),
      `seed ${seed}`,
    );
  }
});

test("repeats of the cases kept small do not hand generation to the tree (a list of 1,000 examples stayed on the log on 21 of 30 seeds)", () => {
  // The first cases are kept small (TestCase.growthLimit): short lists repeat among them in any space. Counted
  // with the others, 4 repeats in the first 10 cases handed a large space to the tree, which then cost every case.
  const log = new GenerationLog(new Set(), 50);
  for (let i = 0; i < 10; i++) {
    const tc = new TestCase([i % 2 === 0], null, 100);
    tc.drawBoolean({ p: 0.5 });
    log.remember(tc);
  }
  for (let i = 0; i < 53; i++) assert.equal(log.repeatsAdd(true), false, `small repeat ${i + 1}`);
  assert.equal(log.repeatsAdd(true), true, "more repeats than small cases: the space is small");
  const other = new GenerationLog(new Set(), 50);
  for (let i = 0; i < 10; i++) {
    const tc = new TestCase([i % 2 === 0], null, 100);
    tc.drawBoolean({ p: 0.5 });
    other.remember(tc);
  }
  assert.deepEqual(
    Array.from({ length: 10 }, () => other.repeatsAdd(false)),
    [false, false, false, false, false, false, false, false, false, true],
    "the others: at least 4, and as many as the cases run",
  );
});

test("past the log's budget: no input runs twice, watched or not, the same calls, and the run ends (from a review)", () => {
  // 10,000 inputs of three choices: the log forgets cases before repeats say the space is small. Handing over to
  // the tree then lost the forgotten cases (5,462 inputs ran twice in a larger space) and a watched run, whose
  // tree has them all, made other calls. Now the tree never steers after the log forgot, and repeats stay known.
  const run = (watched: boolean) => {
    const calls: string[] = [];
    check(
      property(st.integers({ min: 0, max: 99 }), st.integers({ min: 0, max: 99 }), st.booleans(), (a, b, c) => {
        calls.push(`${a},${b},${c}`);
      }),
      { ...QUIET, seed: 1, maxExamples: 25_000, ...(watched ? { onEvent: () => {} } : {}) },
    );
    return calls;
  };
  const unwatched = run(false);
  assert.equal(new Set(unwatched).size, unwatched.length, "every input ran once");
  assert.ok(unwatched.length > 15_000, `${unwatched.length} inputs run`);
  assert.deepEqual(run(true), unwatched);
});

test("inputs replayed from the database or climbed by the target phase are not run again by generation (from a review)", () => {
  const db = new InMemoryDatabase();
  let failing = true;
  const calls: number[] = [];
  const prop = property(st.integers({ min: 0, max: 60 }), (n) => {
    calls.push(n);
    if (failing && n === 3) throw new Error("three");
  });
  assert.throws(() => check(prop, { database: db, deadline: null, seed: 1 }));
  failing = false;
  calls.length = 0;
  check(prop, { database: db, deadline: null, seed: 2 });
  assert.equal(new Set(calls).size, calls.length, `every input ran once: ${calls.length} calls`);
  for (let seed = 1; seed <= 10; seed++) {
    const seen = new Map<string, number>();
    check(
      property(st.integers({ min: 0, max: 50 }), st.integers({ min: 0, max: 50 }), (a, b) => {
        const k = `${a},${b}`;
        seen.set(k, (seen.get(k) ?? 0) + 1);
        target(a * b);
      }),
      { ...QUIET, seed, maxExamples: 300 },
    );
    assert.ok(
      [...seen.values()].every((n) => n === 1),
      `seed ${seed}: an input ran twice`,
    );
  }
});

test("a filter-heavy property tests as many inputs as before: repeats on the log do not use up its attempts (from a review)", () => {
  const seen = new Set<string>();
  check(
    property(st.lists(st.integers({ min: 0, max: 20 })), (xs) => {
      assume(xs.length >= 3 && xs.every((x, i) => i === 0 || xs[i - 1]! <= x));
      seen.add(JSON.stringify(xs));
    }),
    { ...QUIET, seed: 1, suppressHealthCheck: ["filterTooMuch"] },
  );
  assert.ok(
    seen.size >= 55,
    `${seen.size} distinct valid inputs (66 with the tree steering, 44 with the log's repeats counted)`,
  );
});
