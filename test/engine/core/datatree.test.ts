// The DataTree on its own: recording, compressed runs and splits, exhaustion, and answering repeats.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  Branch,
  CHOICE_BUDGET,
  DataTree,
  Inserted,
  NODE_BUDGET,
  OPEN_AFTER,
  Status,
  TreeCursor,
  WIDE_CHILDREN,
} from "../../../src/engine/core/datatree.ts";
import type { ChoiceNode } from "../../../src/engine/choice/types.ts";
import { dataOfNodes } from "../../../src/engine/choice/storage.ts";
import { IntervalSet } from "../../../src/engine/choice/intervals.ts";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--expose-gc");

const BOOL = { p: 0.5 };
const DIGIT = { min: 0, max: 9, shrinkTowards: 0 };
const b = (value: boolean, forced = false): ChoiceNode => ({ type: "boolean", value, constraints: BOOL, forced });
const d = (value: number): ChoiceNode => ({ type: "integer", value, constraints: DIGIT, forced: false });
const done = (status: Status = Status.Valid, origin?: string) => ({ kind: "conclusion" as const, status, origin });
// Kinds of choice over wide domains (more than WIDE_DOMAIN values).
const WIDE = { min: null, max: null, shrinkTowards: 0 };
const w = (value: number): ChoiceNode => ({ type: "integer", value, constraints: WIDE, forced: false });
const TEXT = { alphabet: new IntervalSet([[0, 0x10ffff]]), minSize: 0, maxSize: 10_000 };
const t = (value: string): ChoiceNode => ({ type: "string", value, constraints: TEXT, forced: false });
const FLOAT = { min: -Infinity, max: Infinity, allowNaN: true };
const f = (value: number): ChoiceNode => ({ type: "float", value, constraints: FLOAT, forced: false });

test("recording a novel sequence costs one node; a divergence splits a run into a branch", () => {
  const tree = new DataTree();
  assert.equal(tree.record([d(3), b(true), d(7)], done()).newNodes, 0, "the first sequence lives in the root's run");
  const g = tree.record([d(3), b(false)], done());
  assert.equal(g.newNodes, 2, "split: the old tail and the new branch child");
  assert.equal(tree.root.values.length, 1);
  assert.equal(tree.root.transition?.kind, "branch");
  assert.equal(tree.record([d(3), b(false)], done()).newNodes, 0, "a repeat adds nothing");
});

test("lookup answers a sequence seen before, with the conclusion and the aligned choices", () => {
  const tree = new DataTree();
  tree.record([d(1), d(2)], done(Status.Interesting, "E@x"));
  tree.record([d(1), d(5)], done(Status.Valid));
  assert.deepEqual(tree.lookup([1, 2])?.status, Status.Interesting);
  assert.equal(tree.lookup([1, 2])?.origin, "E@x");
  assert.equal(tree.lookup([1, 5])?.status, Status.Valid);
  assert.equal(tree.lookup([1, 4]), undefined, "never run");
  // Extra choices past a conclusion are ignored by the test, so the answer is the same.
  assert.equal(tree.lookup([1, 2, 9, 9])?.nodes.length, 2);
  // A value that does not fit is replayed as the simplest legal one (here 0), which has not been run.
  assert.equal(tree.lookup([1, 99]), undefined);
});

test("exhaustion propagates to the root once every value below has concluded; forced choices do not count", () => {
  const tree = new DataTree();
  for (const x of [true, false]) {
    for (const y of [true, false]) {
      assert.equal(tree.exhausted, false);
      tree.record([b(x), b(true, true), b(y)], done());
    }
  }
  assert.equal(tree.exhausted, true);
});

test("the cursor steers generation away from exhausted subtrees and recognises a finished case", () => {
  const tree = new DataTree();
  tree.record([b(true), b(true)], done());
  tree.record([b(true), b(false)], done());
  const cursor = new TreeCursor(tree);
  assert.equal(cursor.leadsToExhausted("boolean", true), true);
  assert.equal(cursor.leadsToExhausted("boolean", false), false);
  cursor.advance("boolean", true);
  cursor.advance("boolean", false);
  assert.equal(cursor.atConclusion(), true);
});

test("runs live in shared chunk storage: a split points into the same chunk, copying nothing", () => {
  const tree = new DataTree();
  const data = dataOfNodes([d(3), b(true), d(7)]);
  tree.insert(data, 0, 3, done(), null, null);
  const chunk = tree.root.chunk;
  assert.deepEqual(tree.root.values, [3, true, 7]);
  tree.record([d(3), b(false), d(5)], done());
  const branch = tree.root.transition as Branch;
  const tail = tree.childOf(tree.root, branch, true);
  assert.equal(tail?.chunk, chunk, "the split-off tail points into the same chunk");
  assert.deepEqual(tail?.values, [7]);
  assert.deepEqual(tree.root.values, [3]);
  assert.equal(typeof branch.children.get(false), "number", "a leaf nothing walked into is a table entry, not a node");
  assert.equal(tree.childOf(tree.root, branch, false)?.chunk, chunk, "the next case's tail goes into the same chunk");
  assert.equal(tree.childOf(tree.root, branch, false)?.transition?.kind, "conclusion");
  assert.ok(branch.children.get(false) instanceof Object, "walking into it made it a node");
  // Every type round-trips through the chunk: −0, NaN, strings and bytes.
  const kinds = [
    {
      type: "float" as const,
      value: -0,
      constraints: { min: -Infinity, max: Infinity, allowNaN: true },
      forced: false,
    },
    {
      type: "float" as const,
      value: NaN,
      constraints: { min: -Infinity, max: Infinity, allowNaN: true },
      forced: false,
    },
    { type: "bytes" as const, value: new Uint8Array([1, 2]), constraints: { minSize: 0, maxSize: 9 }, forced: false },
    { type: "boolean" as const, value: true, constraints: BOOL, forced: true },
  ];
  const other = new DataTree();
  other.record(kinds, done());
  assert.deepEqual(
    other.root.values,
    kinds.map((n) => n.value),
  );
  assert.equal(other.lookup(kinds.map((n) => n.value))?.status, Status.Valid);
  assert.equal(other.lookup([0, NaN, new Uint8Array([1, 2]), true]), undefined, "+0 is not −0");
});

test("recording from a generation cursor's divergence point builds the same tree as a walk from the root", () => {
  const cases = [[d(1), b(true), d(2)], [d(1), b(true), d(3)], [d(1), b(false)], [d(4)], [d(1), b(true), d(2)]];
  const walked = new DataTree();
  const hinted = new DataTree();
  for (const nodes of cases) {
    const a = walked.record(nodes, done());
    const cursor = new TreeCursor(hinted);
    for (const n of nodes) cursor.advance(n.type, n.value);
    const before = hinted.nodeCount;
    const result = hinted.insert(dataOfNodes(nodes), 0, nodes.length, done(), cursor, null);
    assert.equal(hinted.nodeCount - before, a.newNodes);
    assert.equal(result === Inserted.Flaky, a.flaky);
  }
  for (const nodes of cases) assert.equal(hinted.lookup(nodes.map((n) => n.value))?.status, Status.Valid);
  assert.equal(hinted.nodeCount, walked.nodeCount);
  // A cursor made before the tree changed is not trusted: recording falls back to walking from the root.
  const stale = new TreeCursor(hinted);
  hinted.record([d(9)], done());
  assert.equal(hinted.insert(dataOfNodes([d(9)]), 0, 1, done(), stale, null), Inserted.Repeat);
});

test("the cursor's no-exhausted-children shortcut still steers away from exhausted values", () => {
  const tree = new DataTree();
  tree.record([b(false)], done());
  const cursor = new TreeCursor(tree);
  assert.equal(cursor.leadsToExhausted("boolean", false), true);
  assert.equal(cursor.leadsToExhausted("boolean", true), false);
  tree.record([b(true), d(1)], done());
  const c2 = new TreeCursor(tree);
  c2.advance("boolean", true);
  assert.equal(c2.leadsToExhausted("integer", 1), true);
  assert.equal(c2.leadsToExhausted("integer", 2), false);
});

test("a case that disagrees with the tree on the same choices is Flaky, says how, and changes nothing", () => {
  const tree = new DataTree();
  tree.record([d(1), b(true)], done(), 1);
  tree.record([d(1), b(false), d(4)], done(), 2);
  const nodes = tree.nodeCount;
  const flaky = (list: ChoiceNode[], status: Status = Status.Valid) => {
    const result = tree.insert(
      dataOfNodes(list),
      0,
      list.length,
      done(status, status === Status.Interesting ? "E@x" : undefined),
      null,
      null,
      9,
    );
    assert.equal(result, Inserted.Flaky, JSON.stringify(list.map((n) => n.value)));
    assert.equal(tree.nodeCount, nodes, "a flaky case adds nothing");
    return tree.divergence;
  };
  // The same choices, another outcome: the earlier outcome comes with its call.
  assert.deepEqual(flaky([d(1), b(true)], Status.Interesting), {
    kind: "conclusion",
    position: 2,
    previous: { status: Status.Valid, origin: undefined, call: 1 },
    before: undefined,
    now: undefined,
  });
  // Drew more where it had ended, and ended where it had drawn more.
  assert.equal(flaky([d(1), b(true), d(0)])?.kind, "continued");
  const ended = flaky([d(1), b(false)]);
  assert.equal(ended?.kind, "ended");
  assert.equal(ended?.previous?.call, 2);
  // Another kind of choice at a position of a run, and at a branch.
  const inRun = flaky([d(1), b(false), b(true)]);
  assert.deepEqual(
    [inRun?.kind, inRun?.position, inRun?.before, inRun?.now],
    ["draw", 2, "integer in [0, 9]", "boolean"],
  );
  assert.equal(flaky([d(1), d(0)])?.kind, "draw");
  assert.equal(
    flaky([{ type: "integer", value: 1, constraints: { min: 0, max: 99, shrinkTowards: 0 }, forced: false }])?.before,
    "integer in [0, 9]",
  );
  // A forced value that differs after the same choices.
  const forced = new DataTree();
  forced.record([d(1), b(true, true)], done());
  const result = forced.insert(dataOfNodes([d(1), b(false, true)]), 0, 2, done(), null, null);
  assert.equal(result, Inserted.Flaky);
  assert.deepEqual(
    [forced.divergence?.before, forced.divergence?.now],
    ["boolean (forced) = true", "boolean (forced) = false"],
  );
  // Equal constraints in another object (a strategy built per draw) are the same kind: a plain repeat.
  const again = [
    { ...d(1), constraints: { ...DIGIT } },
    { ...b(true), constraints: { ...BOOL } },
  ];
  assert.equal(tree.insert(dataOfNodes(again), 0, 2, done(), null, null), Inserted.Repeat);
});

test("the generation cursor checks each draw's kind: a different kind with an equal value stops it, and recording says Flaky", () => {
  const tree = new DataTree();
  tree.record([d(1), d(0)], done(), 1);
  const other = [
    d(1),
    { type: "integer" as const, value: 0, constraints: { min: 0, max: 99, shrinkTowards: 0 }, forced: false },
  ];
  const data = dataOfNodes(other);
  const cursor = new TreeCursor(tree);
  cursor.reset(data);
  cursor.advance("integer", 1);
  cursor.advance("integer", 0);
  assert.equal(cursor.alive, false);
  assert.equal(cursor.atConclusion(), false, "not a duplicate: the body must run");
  assert.equal(tree.insert(data, 0, 2, done(), cursor, null, 2), Inserted.Flaky);
  assert.deepEqual([tree.divergence?.kind, tree.divergence?.position, tree.divergence?.previous?.call], ["draw", 1, 1]);
  // Equal constraints in another object: the cursor goes on to the recorded conclusion.
  const same = dataOfNodes([d(1), { ...d(0), constraints: { ...DIGIT } }]);
  cursor.reset(same);
  cursor.advance("integer", 1);
  cursor.advance("integer", 0);
  assert.equal(cursor.atConclusion(), true);
});

test("a run's branch completed by a child reports the prefixes after the run's last free choice as exhausted (pinned)", () => {
  // [f, f, f] is stored as one run; [f, f, t] splits it after two choices and completes that branch. The run
  // itself is not exhausted (its first two choices are free), but the prefix of length 2 is: a viewer with a
  // node per choice marks it (the panel's DataTree missed it when the simplest case came first).
  const tree = new DataTree();
  tree.insert(dataOfNodes([b(false), b(false), b(false)]), 0, 3, done(), null, null);
  const depths: number[] = [];
  tree.insert(dataOfNodes([b(false), b(false), b(true)]), 0, 3, done(), null, depths);
  assert.deepEqual(depths, [3, 2]);
  assert.equal(tree.root.exhausted, false);
});

test("while generating (frugal), a wide branch records a value only when it is drawn there again, and none once full; the choice and node budgets cap the tree; failures and all other cases are always recorded", () => {
  const tree = new DataTree();
  tree.frugal = true;
  let unrecorded = 0;
  const put = (nodes: ChoiceNode[], status: Status = Status.Valid) => {
    const r = tree.insert(
      dataOfNodes(nodes),
      0,
      nodes.length,
      done(status, status === Status.Interesting ? "E@x" : undefined),
      null,
      null,
    );
    if (r === Inserted.Unrecorded) unrecorded++;
    return r;
  };
  // The root: a branch on the wide integer. While the tree is small each case is recorded whole (here under
  // [0, true], so that the root's branch has room left).
  assert.equal(put([w(0), b(true), w(0)]), Inserted.Kept);
  assert.equal(put([w(-1), b(true)]), Inserted.Kept);
  for (let x = 1; tree.nodeCount < OPEN_AFTER; x++) assert.equal(put([w(0), b(true), w(x)]), Inserted.Kept);
  assert.equal(tree.lookup([0, true, 1])?.status, Status.Valid, "a case of a small tree is known");
  let v = 1;
  // Then a value seen there for the first time leaves nothing: no node, no run.
  const stored = tree.storedChoices;
  const nodes = tree.nodeCount;
  const first = v;
  for (; v < first + 100; v++) assert.equal(put([w(v), b(true)]), Inserted.Unrecorded);
  assert.equal(tree.storedChoices, stored, "no run stored for a value seen once");
  assert.equal(tree.nodeCount, nodes, "no node made for a value seen once");
  assert.equal(tree.lookup([first, true]), undefined, "a value seen once answers nothing");
  // Drawn there again, it is recorded (with what followed it this time), and a repeat of that case is known.
  assert.equal(put([w(first), b(false)]), Inserted.Kept, "a value seen again is recorded");
  assert.equal(put([w(first), b(false)]), Inserted.Repeat, "and a repeat of it is known");
  assert.equal(tree.lookup([first, false])?.status, Status.Valid);
  assert.equal(put([w(first + 1), b(true)]), Inserted.Kept, "each value seen once is remembered");
  // Seen twice each, values fill the branch up to WIDE_CHILDREN; then it takes none, seen twice or not.
  const branch = tree.root.transition as Branch;
  for (; branch.children.size < WIDE_CHILDREN; v++) {
    put([w(v), b(true)]);
    put([w(v), b(true)]);
  }
  const full = tree.nodeCount;
  assert.equal(put([w(-5), b(true)]), Inserted.Unrecorded, "the wide branch is full");
  assert.equal(put([w(-5), b(true)]), Inserted.Unrecorded, "the wide branch is full, also for a value seen again");
  assert.equal(tree.nodeCount, full);
  assert.equal(put([w(-6), b(true)], Status.Interesting), Inserted.Kept, "a failure is always recorded");
  assert.equal(tree.lookup([-6, true])?.status, Status.Interesting);
  tree.frugal = false;
  assert.equal(put([w(-7), b(true)]), Inserted.Kept, "outside generation every case is recorded");
  assert.equal(tree.unrecorded, unrecorded);

  // The budget: runs that would take the tree past CHOICE_BUDGET choices are not made while generating.
  const narrow = new DataTree();
  narrow.frugal = true;
  const many = Array.from({ length: CHOICE_BUDGET }, () => b(true));
  assert.equal(narrow.insert(dataOfNodes([d(1), ...many]), 0, many.length + 1, done(), null, null), Inserted.Kept);
  assert.equal(narrow.insert(dataOfNodes([d(2), b(false)]), 0, 2, done(), null, null), Inserted.Unrecorded);
  assert.ok(narrow.storedChoices <= CHOICE_BUDGET + 1);

  // And the node budget (each case put twice: a wide branch takes a value on its second sight).
  const BIG = { min: 0, max: 2 ** 40, shrinkTowards: 0 };
  const many2 = new DataTree();
  many2.frugal = true;
  for (let x = 0; many2.nodeCount < NODE_BUDGET && x < 10 * NODE_BUDGET; x++) {
    const nodes: ChoiceNode[] = [
      { type: "integer", value: x >> 8, constraints: BIG, forced: false },
      { type: "integer", value: x & 255, constraints: BIG, forced: false },
    ];
    many2.insert(dataOfNodes(nodes), 0, 2, done(), null, null);
    many2.insert(dataOfNodes(nodes), 0, 2, done(), null, null);
  }
  assert.equal(many2.nodeCount, NODE_BUDGET);
  assert.equal(
    many2.insert(
      dataOfNodes([{ type: "integer", value: 2 ** 39, constraints: BIG, forced: false }, b(true)]),
      0,
      2,
      done(),
      null,
      null,
    ),
    Inserted.Unrecorded,
    "past the node budget, no new node",
  );
  assert.equal(many2.nodeCount, NODE_BUDGET);
});

test("while generating (frugal), a value seen once is remembered for its own wide branch only, strings and floats as well as integers", () => {
  const tree = new DataTree();
  tree.frugal = true;
  const put = (nodes: ChoiceNode[]) => tree.insert(dataOfNodes(nodes), 0, nodes.length, done(), null, null);
  // Two wide branches: the root's, and one under [1].
  put([w(0), w(0)]);
  put([w(1), w(0)]);
  put([w(1), w(1)]);
  for (let x = 1; tree.nodeCount < OPEN_AFTER; x++) put([w(0), w(x)]);
  assert.equal(put([w(7), b(true)]), Inserted.Unrecorded, "7 at the root, first seen");
  assert.equal(put([w(1), w(7)]), Inserted.Unrecorded, "7 under [1] is another value: first seen there");
  assert.equal(put([w(7), b(false)]), Inserted.Kept, "7 at the root, seen again");
  assert.equal(put([w(1), w(7)]), Inserted.Kept, "7 under [1], seen again");
  // Strings and floats (NaN, and -0 apart from 0) at wide decision points of their own: a prefix recorded (seen
  // twice) with one value after it, then others there (inside the prefix's run, then at the branch they make).
  const under = (k: number, first: ChoiceNode, others: ChoiceNode[]) => {
    put([w(k), first]);
    assert.equal(put([w(k), first]), Inserted.Kept);
    const nodes = tree.nodeCount;
    for (const o of others) assert.equal(put([w(k), o]), Inserted.Unrecorded, `${String(o.value)} first seen`);
    assert.equal(tree.nodeCount, nodes, "a value seen for the first time inside a run does not split it");
    for (const o of others) assert.equal(put([w(k), o]), Inserted.Kept, `${String(o.value)} seen again`);
    for (const o of others) assert.equal(put([w(k), o]), Inserted.Repeat, `${String(o.value)} known`);
  };
  // (a long string is remembered by its length and hashes: another of the same length is still another)
  under(20, t("x"), [
    t("abc"),
    t(""),
    t("ab"),
    t("a".repeat(1000)),
    t(`${"a".repeat(999)}b`),
    t(`b${"a".repeat(999)}`),
  ]);
  under(30, f(1.5), [f(Number.NaN), f(-0), f(0), f(2 ** 70)]);
});

test("the table of values seen once does not hold on to long strings (a run of long distinct strings keeps its memory)", () => {
  const gc = runInNewContext("gc") as () => void;
  const tree = new DataTree();
  tree.frugal = true;
  const put = (nodes: ChoiceNode[]) => tree.insert(dataOfNodes(nodes), 0, nodes.length, done(), null, null);
  for (let x = 0; tree.nodeCount < OPEN_AFTER; x++) put([w(x)]);
  // A string branch under the root's run: every string after is seen there once.
  put([w(-1), t("first")]);
  put([w(-1), t("first")]);
  gc();
  const before = process.memoryUsage().heapUsed;
  const bytes = Buffer.alloc(4096, 97);
  for (let i = 0; i < 20_000; i++) {
    bytes.writeUInt32LE(i, 0);
    const s = bytes.toString("latin1"); // a flat string of its own, 4 KB
    assert.equal(put([w(-1), t(s)]), Inserted.Unrecorded);
  }
  gc();
  const grown = (process.memoryUsage().heapUsed - before) / 1e6;
  // Kept whole, 16,384 of them would be 64 MB.
  assert.ok(grown < 16, `the heap grew by ${grown.toFixed(1)} MB`);
});
