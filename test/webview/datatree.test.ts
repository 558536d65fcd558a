// The DataTree view model, folded from event streams of real runs (recorded here with the engine itself).
import { test } from "node:test";
import assert from "node:assert/strict";
import { assume, check, property, st } from "../../src/engine/index.ts";
import { recordEvents } from "./streams.ts";
import type { EngineEvent, ShrinkTargetEvent } from "../../src/shared/protocol.ts";
import type { TreeModel, TreeNode } from "../../webview/models/datatree.ts";
import { applyEvents, applyMessage, choiceKey, createTreeModel } from "../../webview/models/datatree.ts";
import {
  fit,
  followTarget,
  LABEL_HEIGHT,
  layoutIcicle,
  TARGET_HEIGHT,
  type IcicleLayout,
} from "../../webview/layout/datatree.ts";

const record = recordEvents;

const settings = { database: null, deadline: null } as const;

function fold(events: readonly EngineEvent[], batch = 50, options?: Parameters<typeof createTreeModel>[0]): TreeModel {
  const model = createTreeModel(options);
  for (let i = 0; i < events.length; i += batch) applyEvents(model, events.slice(i, i + batch));
  return model;
}

function walk(model: TreeModel): TreeNode[] {
  const out: TreeNode[] = [];
  const stack = [model.root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.push(n);
    stack.push(...n.children.values());
  }
  return out;
}

/**
 * The icicle accounts for every case: each drawn inner node (left of the last column) is split among its drawn
 * children and its rest band, by count and by height.
 */
function assertIcicleAddsUp(model: TreeModel, lay: IcicleLayout): void {
  const byId = new Map(walk(model).map((n) => [n.id, n]));
  const drawn = new Map(lay.rects.filter((r) => r.kind === "node").map((r) => [r.nodeId, r]));
  const lastX = (lay.columns - 1) * lay.columnWidth;
  for (const r of lay.rects) {
    if (r.kind !== "node" || r.x >= lastX - 0.5) continue;
    const n = byId.get(r.nodeId)!;
    if (n.children.size === 0) continue;
    const kids = [...n.children.values()].map((c) => drawn.get(c.id)).filter((c) => c !== undefined);
    const rest = lay.rects.find((x) => x.kind === "rest" && x.nodeId === n.id);
    assert.equal(kids.reduce((a, c) => a + c.count, 0) + (rest?.count ?? 0), n.count, `counts under node ${n.id}`);
    const hs = kids.reduce((a, c) => a + c.h, 0) + (rest?.h ?? 0);
    assert.ok(Math.abs(hs - r.h) < 1 + 1e-6, `heights under node ${n.id}: ${hs} of ${r.h}`);
  }
}

/** A node's count is its children's, plus its aggregate's, plus the cases that ended there. */
function assertCountsAddUp(model: TreeModel): void {
  for (const n of walk(model)) {
    let sum = n.ended + (n.folded?.count ?? 0);
    for (const c of n.children.values()) sum += c.count;
    assert.equal(sum, n.count, `node at depth ${n.depth}`);
    const s = n.statuses;
    assert.equal(s.valid + s.invalid + s.overrun + s.interesting, n.count);
  }
}

test("three booleans: eight leaves, all valid, every subtree and the root exhausted", () => {
  const events = record((onEvent) =>
    check(
      property(st.booleans(), st.booleans(), st.booleans(), () => {}),
      { ...settings, seed: 1, onEvent },
    ),
  );
  const model = fold(events, 3);
  const cases = events.filter((e) => e.type === "test-case").length;
  assert.equal(cases, 8);
  assert.equal(model.cases, 8);
  assert.equal(model.nodeCount, 1 + 2 + 4 + 8);
  assert.equal(model.root.exhausted, true);
  const leaves = walk(model).filter((n) => n.children.size === 0);
  assert.equal(leaves.length, 8);
  assert.ok(leaves.every((n) => n.depth === 3 && n.leaf === "valid" && n.count === 1));
  // Every internal node was reported exhausted along the path of the case that completed it.
  assert.ok(
    walk(model)
      .filter((n) => n.children.size > 0)
      .every((n) => n.exhausted),
  );
  assertCountsAddUp(model);

  const layout = layoutIcicle(model, { width: 400, height: 240 });
  assert.equal(layout.rects.length, 15, "every node, no rest band: nothing ended early or was left out");
  assert.ok(
    layout.rects.every((n) => n.exhausted),
    "exhaustion is inherited by every drawn node",
  );
  assert.equal(layout.rects.filter((n) => n.leaf && n.status === "valid").length, 8);
  assert.equal(new Set(layout.rects.map((n) => n.id)).size, 15, "ids are unique");
  // Each column is the whole height: the eight leaves share it equally, each labelled.
  const leafRects = layout.rects.filter((r) => r.depth === 3);
  assert.ok(
    leafRects.length === 8 &&
      leafRects.every(
        (r) => Math.abs(r.h - 30) < 1e-9 && r.label !== "" && Math.abs(r.x - 3 * layout.columnWidth) < 1e-9,
      ),
  );
  // Choice order: false (index 0) above true.
  const rootKids = layout.rects.filter((n) => n.depth === 1);
  assert.deepEqual(
    rootKids.sort((a, b) => a.y - b.y).map((n) => n.label),
    ["false", "true"],
  );
  assertIcicleAddsUp(model, layout);
});

test("a case's tree event opening the next message still marks the case's path (pinned: lost when messages split them)", () => {
  const events = record((onEvent) =>
    check(
      property(st.booleans(), st.booleans(), st.booleans(), () => {}),
      { ...settings, seed: 1, onEvent },
    ),
  );
  for (const batch of [1, 2, 3]) {
    const model = fold(events, batch);
    assert.ok(
      walk(model)
        .filter((n) => n.children.size > 0)
        .every((n) => n.exhausted),
      `messages of ${batch} events`,
    );
  }
});

test("a failing list property with shrinking: the target path ends on a failing leaf and is highlighted", () => {
  const events = record((onEvent) =>
    check(
      property(st.lists(st.integers()), (xs) => {
        if (xs.length >= 2 && xs[0]! > xs[1]!) throw new Error("unsorted");
      }),
      { ...settings, seed: 7, onEvent },
    ),
  );
  const model = fold(events, 7);
  const lastTarget = events.filter((e): e is ShrinkTargetEvent => e.type === "shrink-target").pop();
  assert.ok(lastTarget !== undefined);
  assert.deepEqual(model.target, lastTarget.choices.map(choiceKey));
  assert.equal(model.targetFromShrinker, true);
  // The target's path exists in the trie and ends where a failing case concluded.
  let n: TreeNode | undefined = model.root;
  for (const key of model.target!) n = n?.children.get(key);
  assert.ok(n !== undefined);
  assert.equal(n.leaf, "interesting");
  assert.ok(model.root.statuses.interesting > 1, "shrinking ran failing cases");
  assertCountsAddUp(model);

  const layout = layoutIcicle(model, { width: 72 * (model.target!.length + 1), height: 200, maxVisible: 60 });
  const onPath = layout.rects.filter((x) => x.onTarget);
  assert.equal(onPath.length, model.target!.length + 1, "root plus one node per choice");
  const end = onPath.sort((a, b) => a.depth - b.depth).at(-1)!;
  assert.equal(end.status, "interesting");
  assert.ok(end.leaf);
  // However few cases went through it, the target's path is tall enough to be labelled.
  assert.ok(
    onPath.every((r) => r.h >= TARGET_HEIGHT - 1e-9 && r.h >= LABEL_HEIGHT && r.label !== ""),
    onPath.map((r) => `${r.label}:${r.h.toFixed(1)}`).join(" "),
  );
  assert.ok(layout.rects.filter((r) => r.kind === "node").length <= 60);
  assertIcicleAddsUp(model, layout);
  // Narrower than the path is deep: following the target shows the path's end in the last column.
  const columns = 3;
  const focus = followTarget(model, columns);
  const narrow = layoutIcicle(model, { width: 72 * columns, height: 200, focus });
  assert.equal(narrow.path.length, model.target!.length - (columns - 1) + 1);
  const narrowEnd = narrow.rects.filter((r) => r.onTarget).sort((a, b) => b.depth - a.depth)[0]!;
  assert.ok(
    narrowEnd.leaf && narrowEnd.status === "interesting" && Math.abs(narrowEnd.x - 2 * narrow.columnWidth) < 1e-9,
  );
});

test("before shrinking, the first failing case is the target; a new run resets the model", () => {
  const events = record((onEvent) =>
    check(
      property(st.integers({ min: 0, max: 1000 }), (x) => {
        if (x > 10) throw new Error("big");
      }),
      { ...settings, seed: 3, onEvent },
    ),
  );
  const firstFail = events.findIndex((e) => e.type === "test-case" && e.status === "interesting");
  const model = fold(events.slice(0, firstFail + 1));
  const e = events[firstFail]!;
  assert.ok(e.type === "test-case");
  assert.deepEqual(model.target, e.choices.map(choiceKey));
  assert.equal(model.targetFromShrinker, false);
  const fresh = applyMessage(model, { type: "run-started", title: "t", file: "f", testPath: ["t"] });
  assert.notEqual(fresh, model);
  assert.equal(fresh.cases, 0);
  assert.equal(fresh.nodeCount, 1);
});

test("shed cases: tree events are not applied to the wrong path, but root exhaustion still is", () => {
  const events = record((onEvent) =>
    check(
      property(st.booleans(), st.booleans(), () => {}),
      { ...settings, seed: 1, onEvent },
    ),
  );
  const model = createTreeModel();
  applyEvents(model, events, 5);
  assert.equal(model.droppedCases, 5);
  assert.equal(model.root.exhausted, true);
  assert.ok(
    walk(model)
      .filter((n) => n !== model.root)
      .every((n) => !n.exhausted),
  );
});

test("50,000 cases: stored nodes stay under the cap, and aggregates carry every count", () => {
  const big = record((onEvent) =>
    check(
      property(st.lists(st.integers({ min: 0, max: 20 }), { maxSize: 8 }), st.booleans(), (xs, b) => {
        assume(!(b && xs.length > 6)); // some invalid cases too
      }),
      { ...settings, seed: 5, maxExamples: 50_000, onEvent },
    ),
  );
  const n = big.filter((e) => e.type === "test-case").length;
  assert.ok(n >= 1000, `recorded ${n} cases`);
  const model = createTreeModel({ cap: 5000 });
  let maxStored = 0;
  for (let i = 0; i < big.length; i += 250) {
    applyEvents(model, big.slice(i, i + 250));
    maxStored = Math.max(maxStored, model.nodeCount);
  }
  assert.equal(model.cases, n);
  assert.equal(model.root.count, n);
  assert.ok(maxStored <= 5000 + model.maxDepth, `stored at most ${maxStored}`);
  assert.ok(model.nodeCount <= 5000);
  assert.ok(model.foldedNodes > 0, "folding happened");
  assertCountsAddUp(model);
  const folded = walk(model).reduce((s, x) => s + (x.folded?.count ?? 0), 0);
  assert.ok(folded > 0);

  // The layout draws a bounded number of elements whatever the model holds, and the aggregates' counts
  // plus the drawn leaves account for every case.
  for (const maxVisible of [50, 400]) {
    const layout = layoutIcicle(model, { width: 600, height: 300, maxVisible });
    assert.ok(
      layout.rects.filter((r) => r.kind === "node").length <= maxVisible,
      `${layout.rects.length} ≤ ${maxVisible}`,
    );
    const rests = layout.rects.filter((x) => x.kind === "rest");
    assert.ok(
      rests.length > 0 &&
        rests.every((a) => a.count > 0 && (a.label === "" || a.label === fit(`+${a.count}`, layout.columnWidth - 2))),
    );
    assert.equal(layout.rects[0]!.count, n, "the root is every case");
    assertIcicleAddsUp(model, layout);
  }
});

test("layout: zooming into a node lays out its subtree in the whole view; a node that is gone shows the root; the same input gives the same layout", () => {
  const events = record((onEvent) =>
    check(
      property(st.booleans(), st.booleans(), st.booleans(), () => {}),
      { ...settings, seed: 1, onEvent },
    ),
  );
  const model = fold(events);
  const first = [...model.root.children.values()][0]!;
  const layout = layoutIcicle(model, { width: 400, height: 200, focus: first.id });
  assert.equal(layout.focus, first.id);
  assert.deepEqual(
    layout.path.map((p) => p.label),
    ["all cases", "false"],
  );
  const top = layout.rects[0]!;
  assert.deepEqual([top.nodeId, top.x, top.y, top.h], [first.id, 0, 0, 200]);
  assert.equal(layout.rects.length, 7, "the node, its two children and four grandchildren");
  assert.equal(layoutIcicle(model, { width: 400, height: 200, focus: 99_999 }).focus, model.root.id);
  assert.deepEqual(layoutIcicle(model, { width: 400, height: 200 }), layoutIcicle(model, { width: 400, height: 200 }));
  // Labels are cut to their rectangle's width, never drawn past it.
  assert.equal(fit("a long label", 40), "a l…");
  assert.equal(fit("ab", 40), "ab");
  assert.equal(fit("abc", 8), "");
});

test("createTreeModel rejects a bad cap, naming the API", () => {
  assert.throws(() => createTreeModel({ cap: 3 }), /createTreeModel: cap/);
});

test("choice keys keep -0 and 0 apart and long strings short", () => {
  assert.notEqual(choiceKey({ type: "float", value: -0 }), choiceKey({ type: "float", value: 0 }));
  assert.notEqual(choiceKey({ type: "integer", value: 1 }), choiceKey({ type: "float", value: 1 }));
  assert.ok(choiceKey({ type: "string", value: "x".repeat(10_000) }).length < 80);
  assert.notEqual(
    choiceKey({ type: "string", value: `${"x".repeat(100)}a` }),
    choiceKey({ type: "string", value: `${"x".repeat(100)}b` }),
  );
  assert.equal(choiceKey({ type: "bytes", value: new Uint8Array([1, 255]) }), "y:01ff");
});
