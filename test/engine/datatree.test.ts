// The DataTree on its own: recording, compressed runs and splits, exhaustion, and answering repeats.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Branch, CHOICE_BUDGET, DataTree, Inserted, NODE_BUDGET, OPEN_AFTER, Status, TreeCursor, WIDE_CHILDREN } from "../../src/engine/datatree.ts";
import type { ChoiceNode } from "../../src/engine/choices.ts";
import { dataOfNodes } from "../../src/engine/choices.ts";

const BOOL = { p: 0.5 };
const DIGIT = { min: 0, max: 9, shrinkTowards: 0 };
const b = (value: boolean, forced = false): ChoiceNode => ({ type: "boolean", value, constraints: BOOL, forced });
const d = (value: number): ChoiceNode => ({ type: "integer", value, constraints: DIGIT, forced: false });
const done = (status: Status = Status.Valid, origin?: string) => ({ kind: "conclusion" as const, status, origin });

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
    { type: "float" as const, value: -0, constraints: { min: -Infinity, max: Infinity, allowNaN: true }, forced: false },
    { type: "float" as const, value: NaN, constraints: { min: -Infinity, max: Infinity, allowNaN: true }, forced: false },
    { type: "bytes" as const, value: new Uint8Array([1, 2]), constraints: { minSize: 0, maxSize: 9 }, forced: false },
    { type: "boolean" as const, value: true, constraints: BOOL, forced: true },
  ];
  const other = new DataTree();
  other.record(kinds, done());
  assert.deepEqual(other.root.values, kinds.map((n) => n.value));
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
    const result = tree.insert(dataOfNodes(list), 0, list.length, done(status, status === Status.Interesting ? "E@x" : undefined), null, null, 9);
    assert.equal(result, Inserted.Flaky, JSON.stringify(list.map((n) => n.value)));
    assert.equal(tree.nodeCount, nodes, "a flaky case adds nothing");
    return tree.divergence;
  };
  // The same choices, another outcome: the earlier outcome comes with its call.
  assert.deepEqual(flaky([d(1), b(true)], Status.Interesting), { kind: "conclusion", position: 2, previous: { status: Status.Valid, origin: undefined, call: 1 }, before: undefined, now: undefined });
  // Drew more where it had ended, and ended where it had drawn more.
  assert.equal(flaky([d(1), b(true), d(0)])?.kind, "continued");
  const ended = flaky([d(1), b(false)]);
  assert.equal(ended?.kind, "ended");
  assert.equal(ended?.previous?.call, 2);
  // Another kind of choice at a position of a run, and at a branch.
  const inRun = flaky([d(1), b(false), b(true)]);
  assert.deepEqual([inRun?.kind, inRun?.position, inRun?.before, inRun?.now], ["draw", 2, "integer in [0, 9]", "boolean"]);
  assert.equal(flaky([d(1), d(0)])?.kind, "draw");
  assert.equal(flaky([{ type: "integer", value: 1, constraints: { min: 0, max: 99, shrinkTowards: 0 }, forced: false }])?.before, "integer in [0, 9]");
  // A forced value that differs after the same choices.
  const forced = new DataTree();
  forced.record([d(1), b(true, true)], done());
  const result = forced.insert(dataOfNodes([d(1), b(false, true)]), 0, 2, done(), null, null);
  assert.equal(result, Inserted.Flaky);
  assert.deepEqual([forced.divergence?.before, forced.divergence?.now], ["boolean (forced) = true", "boolean (forced) = false"]);
  // Equal constraints in another object (a strategy built per draw) are the same kind: a plain repeat.
  const again = [{ ...d(1), constraints: { ...DIGIT } }, { ...b(true), constraints: { ...BOOL } }];
  assert.equal(tree.insert(dataOfNodes(again), 0, 2, done(), null, null), Inserted.Repeat);
});

test("the generation cursor checks each draw's kind: a different kind with an equal value stops it, and recording says Flaky", () => {
  const tree = new DataTree();
  tree.record([d(1), d(0)], done(), 1);
  const other = [d(1), { type: "integer" as const, value: 0, constraints: { min: 0, max: 99, shrinkTowards: 0 }, forced: false }];
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

test("while generating (frugal), a wide branch keeps only the values drawn there (open leaves, filled in by the next case through them) and takes none once full; the choice budget caps the runs; failures and all other cases are always recorded", () => {
  const WIDE = { min: null, max: null, shrinkTowards: 0 };
  const w = (value: number): ChoiceNode => ({ type: "integer", value, constraints: WIDE, forced: false });
  const tree = new DataTree();
  tree.frugal = true;
  const put = (nodes: ChoiceNode[], status: Status = Status.Valid) => tree.insert(dataOfNodes(nodes), 0, nodes.length, done(status, status === Status.Interesting ? "E@x" : undefined), null, null);
  // The root's run, then a branch on the wide integer: each case recorded whole while the tree is small, then
  // one open leaf per value.
  assert.equal(put([w(0), b(true)]), Inserted.Kept);
  let v = 1;
  for (; tree.nodeCount < OPEN_AFTER; v++) assert.equal(put([w(v), b(true)]), Inserted.Kept);
  assert.equal(tree.lookup([1, true])?.status, Status.Valid, "a case of a small tree is known");
  const stored = tree.storedChoices;
  const opened = v;
  for (; v < WIDE_CHILDREN; v++) assert.equal(put([w(v), b(true)]), Inserted.Unrecorded);
  assert.equal(tree.storedChoices, stored, "no run stored for an open leaf");
  assert.equal(tree.lookup([v - 1, true]), undefined, "an open leaf answers nothing");
  const nodes = tree.nodeCount;
  assert.equal(put([w(-5), b(true)]), Inserted.Unrecorded, "the wide branch is full");
  assert.equal(tree.nodeCount, nodes);
  assert.equal(put([w(opened), b(false)]), Inserted.Kept, "the next case through a value fills its open leaf in");
  assert.equal(put([w(opened), b(false)]), Inserted.Repeat, "and a repeat of it is known");
  assert.equal(tree.lookup([opened, false])?.status, Status.Valid);
  assert.equal(put([w(-6), b(true)], Status.Interesting), Inserted.Kept, "a failure is always recorded");
  assert.equal(tree.lookup([-6, true])?.status, Status.Interesting);
  tree.frugal = false;
  assert.equal(put([w(-7), b(true)]), Inserted.Kept, "outside generation every case is recorded");
  assert.equal(tree.unrecorded, WIDE_CHILDREN - opened + 1);

  // The budget: runs that would take the tree past CHOICE_BUDGET choices are not made while generating.
  const narrow = new DataTree();
  narrow.frugal = true;
  const many = Array.from({ length: CHOICE_BUDGET }, () => b(true));
  assert.equal(narrow.insert(dataOfNodes([d(1), ...many]), 0, many.length + 1, done(), null, null), Inserted.Kept);
  assert.equal(narrow.insert(dataOfNodes([d(2), b(false)]), 0, 2, done(), null, null), Inserted.Unrecorded);
  assert.ok(narrow.storedChoices <= CHOICE_BUDGET + 1);

  // And the node budget: open leaves store no run, but each is a node.
  const BIG = { min: 0, max: 2 ** 40, shrinkTowards: 0 };
  const many2 = new DataTree();
  many2.frugal = true;
  for (let x = 0; many2.nodeCount < NODE_BUDGET && x < 10 * NODE_BUDGET; x++) {
    const nodes: ChoiceNode[] = [{ type: "integer", value: x >> 8, constraints: BIG, forced: false }, { type: "integer", value: x & 255, constraints: BIG, forced: false }];
    many2.insert(dataOfNodes(nodes), 0, 2, done(), null, null);
  }
  assert.equal(many2.nodeCount, NODE_BUDGET);
  assert.equal(many2.insert(dataOfNodes([{ type: "integer", value: 2 ** 39, constraints: BIG, forced: false }, b(true)]), 0, 2, done(), null, null), Inserted.Unrecorded, "past the node budget, no new node");
  assert.equal(many2.nodeCount, NODE_BUDGET);
});
