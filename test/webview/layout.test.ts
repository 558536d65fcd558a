// The views' layout functions: pure, DOM-free, so checked here in Node — wrapping, span brackets, the
// comparison window, the progress chart's geometry, statistics bars, and the repro's tokens.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce } from "../../webview/model.ts";
import type { PanelState } from "../../webview/model.ts";
import { toSequence } from "../../webview/models/cells.ts";
import { CELL_W, GAP, ROW_H, layoutSequence, shade } from "../../webview/layout/sequence.ts";
import { layoutCandidateList, layoutComparison } from "../../webview/layout/comparison.ts";
import { layoutProgress, logTicks } from "../../webview/layout/progress.ts";
import { layoutStats } from "../../webview/layout/stats.ts";
import { layoutResult, tokenize } from "../../webview/layout/result.ts";
import { mixed, passing, sortedPair } from "./streams.ts";

function fold(messages: readonly Parameters<typeof reduce>[1][]): PanelState {
  return messages.reduce(reduce, initialState);
}

const int = (v: number) => ({ type: "integer" as const, value: v, index: v, forced: false, constraints: {} });

test("cells wrap to the width, spans split where they wrap, shade grows with the index", () => {
  const seq = toSequence(Array.from({ length: 10 }, (_, i) => int(i)), [{ label: "list", start: 2, end: 7, depth: 0, discarded: false }, { label: "gone", start: 0, end: 1, depth: 0, discarded: true }]);
  const perRow = 4;
  const lay = layoutSequence(seq, perRow * (CELL_W + GAP) - GAP);
  assert.equal(lay.cells.length, 10);
  assert.deepEqual(lay.cells.map((c) => [c.x / (CELL_W + GAP), c.y / ROW_H]).slice(3, 6), [[3, 0], [0, 1], [1, 1]]);
  assert.equal(lay.height, 3 * ROW_H);
  assert.equal(lay.spans.length, 2, "span 2..7 covers two rows; the discarded span is not drawn");
  assert.ok(shade(0) === 0 && shade(1) < shade(1000) && shade(1e130) < 1);
  assert.match(lay.cells[0].detail, /#0 integer 0 · index 0/);
});

test("the comparison shows the window around the deciding position, candidate under target", () => {
  const s = fold(mixed().messages);
  const lay = layoutComparison(s.candidates, 10 * (CELL_W + GAP));
  assert.ok(lay !== undefined);
  assert.ok(lay.comparison.length > 0);
  assert.ok(lay.target.every((c) => c.y === 0) && lay.candidate.every((c) => c.y > 0));
  const row = s.candidates.latest!.row;
  if (row.position >= 0) assert.ok(row.position >= lay.from && row.position < lay.to);
  const list = layoutCandidateList(s.candidates, undefined);
  assert.equal(list.selected, row.pass);
  assert.equal(list.rows[0].seq, row.seq, "newest first");
  assert.equal(layoutCandidateList(s.candidates, "no such pass").selected, row.pass);
});

test("the progress chart: a step line per panel, ticks inside the panel, the pass table", () => {
  const s = fold(sortedPair().messages);
  const lay = layoutProgress(s.progress, 600);
  assert.equal(lay.panels.length, 2);
  for (const p of lay.panels) {
    assert.match(p.path, /^M[\d.]+,[\d.]+/);
    assert.ok(p.last !== undefined);
    for (const t of p.yTicks) assert.ok(t.pos >= 0 && t.pos <= 70);
  }
  assert.ok(lay.totals?.includes("shrink calls"));
  assert.deepEqual(logTicks(8e23), [0, 1e7, 1e15, 1e23]);
  assert.deepEqual(logTicks(0), [0, 1]);
});

test("statistics: percentages of the cases run, labels sorted by count, the histogram trimmed", () => {
  const s = fold(passing().messages);
  const lay = layoutStats(s.stats);
  const fig = Object.fromEntries(lay.figures.map((f) => [f.key, f.value]));
  assert.equal(fig.cases, String(s.stats.cases));
  assert.match(fig.invalid, /^\d+ \(\d+%\)$/);
  const counts = lay.labels.map((b) => b.count);
  assert.deepEqual(counts, counts.slice().sort((a, b) => b - a));
  assert.equal(lay.labels[0].fraction, 1);
  assert.ok(lay.sizes.length >= 1 && lay.sizes[lay.sizes.length - 1].count > 0);
});

test("the result: tokens join back to the repro exactly, the location and history are laid out", () => {
  const repro = '[{ id: 0, w: -1.5e-7, tag: "a\\"b", raw: new Uint8Array([1]) }], 0, true';
  assert.equal(tokenize(repro).map((t) => t.text).join(""), repro);
  assert.deepEqual(tokenize('-1.5e-7, "x"').filter((t) => t.kind !== "space").map((t) => t.kind), ["number", "punct", "string"]);
  const s = fold(sortedPair().messages);
  const lay = layoutResult(s);
  assert.equal(lay.state, "failed");
  assert.equal(lay.reproText, s.run.failure?.repro);
  assert.equal(lay.location?.label, "example.test.ts:12:7");
  assert.equal(lay.history.length, 1);
  assert.ok(lay.history[0].current);
  assert.equal(layoutResult(initialState).state, "none");
});

test("a row can be capped to a number of rows: the rest is counted, spans are cut at the last cell shown", () => {
  const seq = toSequence(Array.from({ length: 10 }, (_, i) => int(i)), [{ label: "list", start: 2, end: 9, depth: 0, discarded: false }]);
  const lay = layoutSequence(seq, 4 * (CELL_W + GAP) - GAP, undefined, 2);
  assert.equal(lay.cells.length, 8);
  assert.equal(lay.more, 2);
  assert.equal(lay.height, 2 * ROW_H);
  assert.ok(lay.spans.every((s) => s.y < 2 * ROW_H));
});
