// The panel's fold (webview/fold.ts), as the worker runs it: real runs' messages in, as the host posts them;
// patches out, applied to the page's copy. The page must end with exactly the state a direct fold gives, keep
// the identity of every part a patch did not change (the views redraw by identity), and get the heavy parts
// no more often than their views draw them while a run streams.
import { test } from "node:test";
import assert from "node:assert/strict";
import { posted } from "../../src/shared/eventWire.ts";
import type { PanelMessage } from "../../src/shared/protocol.ts";
import { applyPatch, createFold, PART_GAP_MS, TREE_RUNNING_MS, type FoldOut } from "../../webview/fold.ts";
import { initialState, receive, resumeFor, type PanelState } from "../../webview/model.ts";
import { ALL, mixed, passing } from "./streams.ts";

/** A fold with a clock the test moves, and the page's side: its copy of the state and the patches it got. */
function harness() {
  let clock = 0;
  let timers: { at: number; fn: () => void }[] = [];
  const outs: FoldOut[] = [];
  const fold = createFold((o) => outs.push(o), {
    now: () => clock,
    after: (fn, ms) => void timers.push({ at: clock + ms, fn }),
  });
  let page: PanelState = initialState;
  /** Every patch, with the clock when it was posted. */
  const log: { at: number; out: FoldOut }[] = [];
  /** Apply what the fold posted since; the latest (undefined if nothing). */
  const take = (): FoldOut | undefined => {
    let last: FoldOut | undefined;
    for (const o of outs.splice(0)) {
      if (o.state !== undefined) page = applyPatch(page, o.state);
      log.push({ at: clock, out: o });
      last = o;
    }
    return last;
  };
  fold({ type: "init", saved: undefined });
  return {
    fold,
    take,
    log,
    page: () => page,
    /** Move the clock; the fold's timers that are due fire. */
    tick(ms: number): void {
      clock += ms;
      const due = timers.filter((t) => t.at <= clock);
      timers = timers.filter((t) => t.at > clock);
      for (const t of due) t.fn();
      take();
    },
    /** Post one host message and pull, as the page does after each frame. */
    send(m: PanelMessage): FoldOut | undefined {
      fold({ type: "message", data: posted(m) });
      fold({ type: "pull" });
      return take();
    },
  };
}

function direct(messages: readonly PanelMessage[]): PanelState {
  let s = initialState;
  let resume = resumeFor(undefined);
  for (const m of messages) ({ state: s, resume } = receive(s, resume, m));
  return s;
}

test("every recorded run: the page's copy, patched, ends equal to the fold itself", async () => {
  for (const record of ALL) {
    const rec = await record();
    const h = harness();
    for (const m of rec.messages) {
      h.send(m);
      h.tick(16);
    }
    h.fold({ type: "pull" });
    h.take();
    assert.deepEqual(h.page(), direct(rec.messages), record.name);
  }
});

test("a part a patch does not name keeps its identity, and so does an unchanged child of a part it names", () => {
  const rec = mixed();
  const h = harness();
  const [start, ...rest] = rec.messages;
  h.send(start!);
  const before = h.page();
  h.tick(1000);
  h.send(rest[0]!);
  const after = h.page();
  assert.notEqual(after, before);
  assert.equal(after.history, before.history, "history unchanged: the same object");
  assert.equal(after.timeline, before.timeline);
  assert.equal(after.steps, before.steps);
});

test("while a run streams, a heavy part is sent at most once per its gap, one heavy part a patch; a finished run sends all", () => {
  const rec = mixed();
  const h = harness();
  // Messages far enough apart that the recorded run streams for several of the longest gaps.
  const messages = rec.messages.slice(0, -1);
  const step = Math.ceil((4 * Math.max(...Object.values(PART_GAP_MS))) / messages.length);
  for (const m of messages) {
    h.send(m);
    h.tick(step);
  }
  const streaming = h.log.slice(1);
  for (const { out } of streaming) {
    const heavy = Object.keys(out.state ?? {}).filter((k) => ["choices", "candidates", "progress"].includes(k));
    assert.ok(heavy.length <= 1, `one heavy part a patch, got ${heavy.join(", ")}`);
  }
  for (const k of ["candidates", "progress"] as const) {
    const at = streaming.filter(({ out }) => out.state !== undefined && k in out.state).map((p) => p.at);
    assert.ok(at.length >= 2, `${k} was sent while streaming (${at.length} times)`);
    for (let i = 1; i < at.length; i++)
      assert.ok(at[i]! - at[i - 1]! >= PART_GAP_MS[k], `${k} sent ${at[i]! - at[i - 1]!} ms after the last`);
  }
  // The run ends: everything the page lacks arrives at once.
  h.send(rec.messages.at(-1)!);
  assert.deepEqual(h.page(), direct(rec.messages));
});

test("the tree is laid out when the view asks (size, zoom), and at most every TREE_RUNNING_MS while a run streams", () => {
  const rec = passing();
  const h = harness();
  const params = { width: 600, height: 300, chosen: undefined, maxVisible: 400 };
  h.fold({ type: "tree", params });
  h.fold({ type: "pull" });
  const first = h.take();
  assert.ok(first?.tree !== undefined && first.tree.params === params, "a layout for the size asked");
  const frames: number[] = [];
  let now = 0;
  for (const m of rec.messages.slice(0, -1)) {
    if (h.send(m)?.tree !== undefined) frames.push(now);
    h.tick(50);
    now += 50;
  }
  assert.ok(frames.length >= 1);
  for (let i = 2; i < frames.length; i++)
    assert.ok(
      frames[i]! - frames[i - 1]! >= TREE_RUNNING_MS,
      `laid out ${frames[i]! - frames[i - 1]!} ms after the last`,
    );
  // The run ends: its last cases are laid out at once (no pacing once it is over).
  h.send(rec.messages.at(-1)!);
  const last = h.log.filter((p) => p.out.tree !== undefined).at(-1)!.out.tree!;
  const cases = rec.messages
    .flatMap((m) => (m.type === "events" ? m.events : []))
    .filter((e) => e.type === "test-case").length;
  assert.equal(last.cases, cases, "the last layout holds every case");
  // A zoom is answered at once.
  h.fold({ type: "tree", params: { ...params, chosen: 3 } });
  h.fold({ type: "pull" });
  assert.equal(h.take()?.tree?.params.chosen, 3);
});

test("malformed messages are skipped; the fold goes on", () => {
  const rec = mixed();
  const h = harness();
  for (const bad of [
    null,
    5,
    "x",
    { type: "events", wire: 3, dropped: 0 },
    { type: "events", wire: new Uint8Array([0xff]), dropped: 0 },
    { type: "run-started" },
    { type: "nope" },
  ])
    h.fold({ type: "message", data: bad });
  for (const m of rec.messages) h.send(m);
  h.fold({ type: "pull" });
  h.take();
  assert.deepEqual(h.page(), direct(rec.messages));
});
