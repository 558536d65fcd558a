// The panel's view model, folded from event streams of real runs (recorded here with the engine itself,
// batched by the runner's Outbox), and its invariants: bounded memory, batch-size independence, JSON-safe
// state, and a reload's replay recognised instead of counted twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import type {
  EngineEvent,
  PanelMessage,
  ResultEvent,
  ShrinkCandidateEvent,
  ShrinkTargetEvent,
  TestCaseEvent,
} from "../../src/shared/protocol.ts";
import { HOST_HISTORY, initialState, receive, reduce, resumeFor, restore, showValue } from "../../webview/model.ts";
import type { PanelState } from "../../webview/model.ts";
import { ROWS_PER_PASS, describeComparison, verdictOf } from "../../webview/models/candidates.ts";
import { MAX_CELLS, alignTarget, toSequence } from "../../webview/models/cells.ts";
import { MAX_POINTS, MAX_TARGETS, emptyProgress, series, setTargets } from "../../webview/models/progress.ts";
import type { Steps } from "../../webview/models/steps.ts";
import { MAX_STEPS, emptySteps, readSteps, targetSteps } from "../../webview/models/steps.ts";
import {
  HEAD_MARKS,
  MAX_LANES,
  MAX_MARKS,
  OTHER_TASKS,
  TAIL_LINES,
  readSchedule,
} from "../../webview/models/timeline.ts";
import { lruMachine, mixed, passing, scheduleReload, scheduleReplicate, sortedPair, targeted } from "./streams.ts";
import { deserialise, serialise } from "./serialise.ts";

function fold(messages: readonly PanelMessage[], s: PanelState = initialState): PanelState {
  for (const m of messages) s = reduce(s, m);
  return s;
}

function eventsOf(messages: readonly PanelMessage[]): EngineEvent[] {
  return messages.flatMap((m) => (m.type === "events" ? m.events : []));
}

test("folding a real failing run: counts, the target, candidates, passes, progress and the result", () => {
  const rec = sortedPair();
  const s = fold(rec.messages);
  const events = rec.events;
  const cases = events.filter((e): e is TestCaseEvent => e.type === "test-case");
  const result = events.find((e) => e.type === "result");
  assert.ok(result?.type === "result");
  // The engine's counts replace the live ones at the end, and agree with what was streamed.
  assert.equal(s.stats.cases, result.statistics.examples + result.statistics.shrinkCases);
  assert.equal(s.stats.cases, cases.filter((e) => e.origin !== "final" && e.origin !== "explain").length);
  assert.equal(result.statistics.examples, cases.filter((e) => e.origin === "generate").length);
  assert.equal(s.stats.valid + s.stats.invalid + s.stats.overrun + s.stats.interesting, s.stats.cases);
  assert.deepEqual(s.stats.events, result.statistics.events);
  assert.equal(s.stats.generated, cases.filter((e) => e.origin === "generate").length);
  assert.equal(s.run.status, "failed");
  assert.equal(s.run.phase, "done");
  assert.equal(s.run.seed, 7);

  // The target is the last shrink-target, cell for cell.
  const last = events.filter((e) => e.type === "shrink-target").pop();
  assert.ok(last?.type === "shrink-target");
  assert.deepEqual(
    s.choices.target?.cells.map((c) => c.text),
    last.choices.map(showValue),
  );
  assert.equal(s.choices.shrinks, events.filter((e) => e.type === "shrink-target").length);
  assert.equal(s.choices.current?.id, cases[cases.length - 1].id);

  // Candidates: all counted, the latest described as the engine compared it.
  const cands = events.filter((e): e is ShrinkCandidateEvent => e.type === "shrink-candidate");
  assert.equal(s.candidates.count, cands.length);
  const lastCand = cands[cands.length - 1];
  assert.equal(s.candidates.latest?.row.comparison, describeComparison(lastCand.comparison));
  assert.equal(s.candidates.latest?.row.verdict, verdictOf(lastCand));
  for (const rows of Object.values(s.candidates.byPass)) assert.ok(rows.length <= ROWS_PER_PASS);

  // Progress: one point for the first failure, one per accepted shrink, ending at the final target.
  assert.equal(series(s.progress).length, 1 + s.choices.shrinks);
  const pts = series(s.progress);
  assert.equal(pts[pts.length - 1].length, last.choices.length);
  for (let i = 1; i < pts.length; i++)
    assert.ok(pts[i].length <= pts[i - 1].length, "a shrink never makes the target longer");
  const passNames = new Set(events.flatMap((e) => (e.type === "shrink-pass" ? [e.pass] : [])));
  assert.deepEqual(new Set(s.progress.passes.map((p) => p.name)), passNames);
  const ends = events.filter((e) => e.type === "shrink-pass" && e.state === "end");
  const accepted = ends.reduce((a, e) => a + (e.type === "shrink-pass" ? e.accepted : 0), 0);
  assert.equal(
    s.progress.passes.reduce((a, p) => a + p.accepted, 0),
    accepted,
  );
  assert.equal(s.progress.totals?.shrinkCalls, result.statistics.shrinkCalls);
  assert.equal(s.progress.currentPass, "");

  // The session's history has the run, with its repro.
  assert.equal(s.history.length, 1);
  assert.equal(s.history[0].outcome, "failed");
  assert.equal(s.history[0].repro, s.run.failure?.repro);
});

test("the fold does not depend on how the runner batched the events", () => {
  const rec = mixed();
  const events = eventsOf(rec.messages);
  const start = rec.messages[0];
  const end = rec.messages[rec.messages.length - 1];
  const one = fold([start, { type: "events", events, dropped: 0 }, end]);
  const many = fold([start, ...events.map((e): PanelMessage => ({ type: "events", events: [e], dropped: 0 })), end]);
  const visible = (s: PanelState): unknown => ({
    stats: s.stats,
    target: s.choices.target,
    current: s.choices.current,
    candidates: s.candidates,
    progress: { ...s.progress, points: series(s.progress) },
    history: s.history.map((h) => ({ ...h })),
    steps: s.steps,
  });
  assert.deepEqual(visible(one), visible(many));
  // A machine's steps too, from the case before the first failure to the minimal steps.
  const lru = lruMachine();
  const lruEvents = eventsOf(lru.messages);
  const steps = (ms: PanelMessage[]) => fold([lru.messages[0], ...ms, lru.messages[lru.messages.length - 1]]).steps;
  assert.deepEqual(
    steps([{ type: "events", events: lruEvents, dropped: 0 }]),
    steps(lruEvents.map((e): PanelMessage => ({ type: "events", events: [e], dropped: 0 }))),
  );
});

test("a passing run: generation statistics only, labels and sizes", () => {
  const rec = passing();
  const s = fold(rec.messages);
  assert.equal(s.run.status, "passed");
  assert.equal(s.choices.target, undefined);
  assert.equal(s.candidates.count, 0);
  assert.ok(s.stats.invalid > 0, "the filter rejects some cases");
  assert.ok(Object.keys(s.stats.events).length >= 3);
  assert.equal(
    s.stats.sizes.reduce((a, n) => a + n, 0),
    s.stats.generated,
  );
  assert.equal(
    s.stats.duplicates,
    (eventsOf(rec.messages).find((e) => e.type === "result") as Extract<EngineEvent, { type: "result" }>).statistics
      .duplicates,
  );
});

/** The state without its undefined fields (which JSON leaves out, and which mean the same when absent). */
function defined(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(defined);
  if (typeof x === "object" && x !== null)
    return Object.fromEntries(
      Object.entries(x)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, defined(v)]),
    );
  return x;
}

test("the state is JSON-safe: it survives setState's serialisation unchanged", () => {
  for (const rec of [sortedPair(), mixed()]) {
    const s = fold(rec.messages);
    assert.deepEqual(JSON.parse(JSON.stringify(s)), defined(s));
    assert.deepEqual(restore(JSON.parse(JSON.stringify(s))), defined(s));
  }
  assert.equal(restore({ version: 1, run: {} }), undefined, "a state from another version is not used");
});

test("values the host's JSON postMessage flattens (NaN, -0, Uint8Array) still display", () => {
  const c = (type: string, value: unknown, constraints: Record<string, unknown> = {}) =>
    ({ type, value, index: 3, forced: false, constraints }) as never;
  const seq = toSequence(
    [
      c("float", -0),
      c("float", null, { min: null, max: null, allowNaN: true }),
      c("bytes", new Uint8Array([1, 2])),
      c("bytes", { 0: 1, 1: 2 }),
      c("string", "héllo wörld"),
    ],
    [],
  );
  assert.deepEqual(
    seq.cells.map((x) => x.text),
    ["-0", "NaN or ±Infinity", "[1, 2]", "[1, 2]", '"héllo wörld"'],
  );
  assert.deepEqual(
    seq.cells.map((x) => x.short),
    ["-0", "NaN", "b2", "b2", '"héll…'],
  );
  assert.equal(seq.cells[1].constraints, "−∞ … ∞, NaN allowed");
});

test("recorded fixtures round-trip -0, NaN and Uint8Array", () => {
  const value = { a: -0, b: NaN, c: Infinity, d: new Uint8Array([0, 255]), e: [1, -0], f: "x" };
  const back = deserialise(serialise(value)) as typeof value;
  assert.ok(Object.is(back.a, -0) && Number.isNaN(back.b) && back.c === Infinity && Object.is(back.e[1], -0));
  assert.ok(back.d instanceof Uint8Array);
  assert.deepEqual(Array.from(back.d), [0, 255]);
});

test("memory stays bounded on a long run: 100,000 cases, 50,000 candidates, 5,000 shrinks", () => {
  const choice = (i: number) => ({
    type: "integer" as const,
    value: i,
    index: 2 * i,
    forced: false,
    constraints: { min: null, max: null, shrinkTowards: 0 },
  });
  let s = reduce(initialState, { type: "run-started", title: "long", file: "f", testPath: ["long"] });
  let id = 0;
  for (let batch = 0; batch < 400; batch++) {
    const events: EngineEvent[] = [];
    for (let k = 0; k < 250; k++) {
      const n = (id % 30) + 1;
      events.push({
        type: "test-case",
        id: id++,
        origin: batch < 200 ? "generate" : "shrink",
        choices: Array.from({ length: n }, (_, i) => choice(i)),
        spans: [],
        status: k % 2 ? "valid" : "interesting",
        durationMs: 0,
        events: [`label ${id % 500}`],
      });
      if (batch >= 200) {
        events.push({
          type: "shrink-candidate",
          pass: `pass ${k % 7}`,
          choices: [choice(1)],
          comparison: { order: -1, by: "length", lengths: [1, 2] },
          status: "valid",
          accepted: false,
          cached: false,
        });
        if (k % 10 === 0)
          events.push({
            type: "shrink-target",
            pass: "p",
            choices: Array.from({ length: 5 }, (_, i) => choice(i + (k % 3))),
            spans: [],
          });
      }
    }
    s = reduce(s, { type: "events", events, dropped: 10 });
  }
  assert.equal(s.stats.cases, 100_000);
  assert.equal(s.stats.dropped, 4000);
  assert.ok(s.progress.points.length <= MAX_POINTS + 1);
  assert.ok(s.progress.stride > 1);
  for (const rows of Object.values(s.candidates.byPass)) assert.ok(rows.length <= ROWS_PER_PASS);
  assert.ok(Object.keys(s.stats.events).length <= 101);
  const size = JSON.stringify(s).length;
  assert.ok(size < 1_000_000, `state is ${size} characters`);
});

test("a new target keeps the ids of surviving cells: deleted cells vanish, simplified cells stay", () => {
  const c = (v: number) => ({
    type: "integer" as const,
    value: v,
    index: Math.abs(v) * 2,
    forced: false,
    constraints: {},
  });
  const first = alignTarget(undefined, [c(1), c(2), c(3), c(4), c(5)], [], 0);
  assert.deepEqual(
    first.seq.cells.map((x) => x.id),
    [0, 1, 2, 3, 4],
  );
  // Delete the middle two: prefix [1] and suffix [4, 5] keep their ids; 2 and 3 are gone.
  const deleted = alignTarget(first.seq, [c(1), c(4), c(5)], [], first.nextId);
  assert.deepEqual(
    deleted.seq.cells.map((x) => x.id),
    [0, 3, 4],
  );
  assert.deepEqual(
    deleted.seq.cells.map((x) => x.pos),
    [0, 1, 2],
  );
  // Minimise one choice in place: same ids, a new value.
  const simpler = alignTarget(deleted.seq, [c(1), c(0), c(5)], [], deleted.nextId);
  assert.deepEqual(
    simpler.seq.cells.map((x) => x.id),
    [0, 3, 4],
  );
  assert.equal(simpler.seq.cells[1].text, "0");
  // Cells beyond MAX_CELLS are not built, but the length and index sum are exact.
  const long = toSequence(
    Array.from({ length: MAX_CELLS + 10 }, (_, i) => c(i)),
    [],
  );
  assert.equal(long.cells.length, MAX_CELLS);
  assert.equal(long.length, MAX_CELLS + 10);
});

test("comparisons read as a person would say them", () => {
  assert.equal(describeComparison({ order: -1, by: "length", lengths: [2, 5] }), "shorter by 3 (2 vs 5 choices)");
  assert.equal(
    describeComparison({ order: -1, by: "position", position: 4, indices: [5, 19] }),
    "position 4: index 19 → 5",
  );
  assert.equal(
    describeComparison({ order: 1, by: "position", position: 0, indices: [4.139e133, 0] }),
    "position 0: index 0 → 4.14e133",
  );
  assert.equal(describeComparison({ order: 0, by: "equal" }), "same sort key");
  assert.equal(
    verdictOf({ accepted: false, status: "valid", comparison: { order: -1, by: "length", lengths: [1, 2] } }),
    "passed",
  );
  assert.equal(
    verdictOf({ accepted: false, status: "interesting", comparison: { order: 1, by: "length", lengths: [3, 2] } }),
    "not-simpler",
  );
});

test("dropped test cases are counted, and a new run starts afresh but keeps the session's history", () => {
  const rec = sortedPair();
  let s = fold(rec.messages);
  s = reduce(s, { type: "run-started", title: "t", file: "f", testPath: ["t"] });
  assert.equal(s.stats.cases, 0);
  assert.equal(s.choices.target, undefined);
  assert.equal(s.history.length, 1);
  s = reduce(s, { type: "events", events: [], dropped: 40 });
  assert.equal(s.stats.dropped, 40);
  s = reduce(s, { type: "run-finished", outcome: "stopped" });
  assert.equal(s.history.length, 2);
  assert.equal(s.history[1].cases, 40);
});

test("after a reload, the host's replay of the restored run is skipped, not counted twice", () => {
  const rec = sortedPair();
  const finished = JSON.parse(JSON.stringify(fold(rec.messages))) as PanelState;
  // A finished run: the whole replay is skipped.
  let st = finished;
  let resume = resumeFor(finished);
  for (const m of rec.messages) ({ state: st, resume } = receive(st, resume, m));
  assert.equal(resume, undefined);
  assert.deepEqual(st, finished);
  // New messages after the replay fold normally.
  ({ state: st, resume } = receive(st, resume, { type: "run-started", title: "next", file: "f", testPath: ["next"] }));
  assert.equal(st.run.title, "next");
  assert.equal(st.history.length, 1);

  // A live run (reloaded halfway): the messages already folded are skipped, the rest folded.
  const half = Math.floor(rec.messages.length / 2);
  const partial = fold(rec.messages.slice(0, half));
  assert.ok(partial.run.messages <= HOST_HISTORY);
  st = partial;
  resume = resumeFor(partial);
  for (const m of rec.messages) ({ state: st, resume } = receive(st, resume, m));
  assert.deepEqual(st, fold(rec.messages));

  // A different run arriving first is simply folded.
  ({ state: st } = receive(finished, resumeFor(finished), {
    type: "run-started",
    title: "other",
    file: "g",
    testPath: ["other"],
  }));
  assert.equal(st.run.title, "other");
  assert.equal(st.history.length, 1);
});

// ------------------------------------------------------------------------------------------------ machine runs

/** Rule and initialize calls of a presentation (what the panel counts as steps). */
function callsOf(p: unknown): string[] {
  const steps = (p as { steps?: { kind: string; code: string }[] } | undefined)?.steps ?? [];
  return steps.filter((s) => s.kind === "rule" || s.kind === "initialize").map((s) => s.code);
}
const callCodes = (st: Steps | undefined): string[] =>
  (st?.steps ?? []).filter((s) => s.kind === "rule" || s.kind === "initialize").map((s) => s.code);

test("a machine run: while generating, the Steps model holds the latest case's steps, case by case", () => {
  const rec = lruMachine();
  const events = eventsOf(rec.messages);
  let s = reduce(initialState, rec.messages[0]);
  let cases = 0;
  for (const e of events) {
    s = reduce(s, { type: "events", events: [e], dropped: 0 });
    if (e.type !== "test-case" || s.choices.target !== undefined) continue;
    cases++;
    assert.equal(s.steps.machine, true);
    assert.deepEqual(callCodes(s.steps.current), callsOf(e.presentation), `case #${e.id}`);
    // Its steps index the cells of the same case.
    const ends = (s.steps.current?.steps ?? []).filter((x) => x.end >= 0).map((x) => x.end);
    assert.ok(Math.max(...ends) <= (s.choices.current?.seq.length ?? 0));
  }
  assert.ok(cases >= 5, `steps followed over ${cases} generated cases`);
});

test("a machine run: each shrink target's steps, never more than the last, carrying the ids of the steps it kept", () => {
  const rec = lruMachine();
  const targets = rec.events.filter((e): e is ShrinkTargetEvent => e.type === "shrink-target");
  let s = fold(rec.messages.slice(0, 1));
  let before: Steps | undefined;
  let lastCalls = Infinity;
  for (const m of rec.messages.slice(1)) {
    s = reduce(s, m);
    const t = s.steps.target;
    if (t === undefined || t === before) continue;
    assert.ok(t.calls <= lastCalls, "a shrink never adds steps");
    if (before !== undefined) {
      // The steps both targets share at the start keep their rows.
      const shared = before.steps.findIndex((x, i) => t.steps[i]?.code !== x.code);
      for (let i = 0; i < shared; i++) assert.equal(t.steps[i].id, before.steps[i].id);
    }
    lastCalls = t.calls;
    before = t;
  }
  assert.deepEqual(callCodes(s.steps.target), callsOf(targets[targets.length - 1].presentation));
  assert.ok(
    s.steps.firstCalls !== undefined && s.steps.firstCalls > 10,
    `the first failing case had ${s.steps.firstCalls} steps`,
  );
  assert.equal(s.steps.target?.calls, 4);
});

test("a machine run ends on the minimal steps: the failing invariant marked, the Explanation and the machine's state", () => {
  const rec = lruMachine();
  const s = fold(rec.messages);
  const f = s.steps.final;
  assert.ok(f !== undefined);
  assert.equal(f.className, "LruMachine");
  // The statements are the repro's; the explain phase's finding (the values put do not matter) follows each as a comment.
  assert.deepEqual(
    ["const state = new LruMachine();", ...f.steps.map((x) => x.code.replace(/ \/\/ .*$/, ""))].join("\n"),
    s.run.failure?.repro,
  );
  assert.deepEqual(
    f.steps.filter((x) => x.code.includes("//")).map((x) => x.code.slice(x.code.indexOf("//"))),
    Array(3).fill("// value: or any other generated value"),
  );
  assert.deepEqual(
    f.steps.filter((x) => x.failed).map((x) => [x.kind, x.code]),
    [["invariant", "state.keysMatch();"]],
  );
  assert.deepEqual(f.failedIn, { kind: "invariant", name: "keysMatch" });
  assert.equal(f.explanation, "Explanation: assertion failed in invariant keysMatch");
  assert.equal(f.state, 'cache ["1","2"], model ["0","2"]');
  // The final steps are the last target's, so their rows (and cells) stay where they were.
  assert.deepEqual(
    f.steps.filter((x) => x.kind === "rule").map((x) => x.id),
    s.steps.target?.steps.filter((x) => x.kind === "rule").map((x) => x.id),
  );
  assert.deepEqual(JSON.parse(JSON.stringify(s.steps)), defined(s.steps), "JSON-safe");
});

test("a property run has no steps: the Steps view is never shown", () => {
  for (const rec of [sortedPair(), passing()]) {
    const s = fold(rec.messages);
    assert.equal(s.steps.machine, false);
    assert.deepEqual(s.steps, emptySteps);
  }
});

test("presentations are read as untrusted: malformed steps dropped, text clipped, the failing step found or added", () => {
  assert.equal(readSteps({ kind: "arguments", text: "1" }), undefined);
  assert.equal(readSteps({ kind: "steps", steps: "no" }), undefined);
  assert.equal(readSteps(null), undefined);
  const r = readSteps({
    kind: "steps",
    className: "M",
    steps: [
      { kind: "rule", name: "a", args: "", code: "state.a();", start: 2, end: 4 },
      { kind: "rule", name: "b", code: 42 },
      { kind: "nonsense", name: "c", code: "state.c();" },
      { kind: "rule", name: "d", args: "", code: "x".repeat(5000), start: 4, end: 3 },
      null,
    ],
    failedIn: { kind: "invariant", name: "ok" },
    state: { toString: "no" },
  });
  assert.ok(r !== undefined);
  assert.deepEqual(
    r.steps.map((x) => [x.kind, x.name, x.start, x.end, x.failed]),
    [
      ["rule", "a", 2, 4, false],
      ["rule", "d", -1, -1, false],
      ["invariant", "ok", -1, -1, true],
    ],
  );
  assert.ok(r.steps[1].code.length <= 400);
  assert.equal(r.state, undefined);
  assert.equal(r.calls, 2);
  // A rule that threw ends the steps: the last call of it is the failing one.
  const threw = readSteps({
    kind: "steps",
    className: "M",
    steps: [
      { kind: "rule", name: "a", code: "state.a();" },
      { kind: "rule", name: "a", code: "state.a();" },
    ],
    failedIn: { kind: "rule", name: "a" },
  });
  assert.deepEqual(
    threw?.steps.map((x) => x.failed),
    [false, true],
  );
  // A very long sequence keeps its first and last steps around a count.
  const many = readSteps({
    kind: "steps",
    className: "M",
    steps: Array.from({ length: MAX_STEPS + 50 }, (_, i) => ({ kind: "rule", name: "a", code: `state.a(${i});` })),
  });
  assert.equal(many?.steps.length, MAX_STEPS);
  assert.equal(many?.gap, 50);
  assert.equal(many?.steps[many.gapAt].code, `state.a(${many!.gapAt + 50});`);
  assert.equal(many?.calls, MAX_STEPS + 50);
});

test("a new target keeps the ids of the steps it kept: a deleted step vanishes, a simplified one stays", () => {
  const p = (...codes: string[]) => ({
    kind: "steps",
    className: "M",
    steps: codes.map((code) => ({ kind: "rule", name: "put", code })),
  });
  const a = targetSteps(emptySteps, p("put 5", "get 7", "put 2", "get 5"));
  const ids = a.target!.steps.map((x) => x.id);
  const deleted = targetSteps(a, p("put 5", "put 2", "get 5"));
  assert.deepEqual(
    deleted.target!.steps.map((x) => x.id),
    [ids[0], ids[2], ids[3]],
  );
  const simpler = targetSteps(deleted, p("put 0", "put 2", "get 5"));
  assert.deepEqual(
    simpler.target!.steps.map((x) => x.id),
    [ids[0], ids[2], ids[3]],
  );
  assert.equal(simpler.target!.steps[0].code, "put 0");
  assert.equal(simpler.firstCalls, 4);
});

// ------------------------------------------------------------------------------------------------ schedules (simTest)

function scheduleOf(events: readonly EngineEvent[]) {
  const r = events.find((e): e is ResultEvent => e.type === "result");
  assert.ok(r?.schedule !== undefined, "the run's result carries its schedule");
  return r.schedule;
}

test("a schedule failure: the timeline holds the failing seed's run task by task, its one deviation on the event it ran", async () => {
  const rec = await scheduleReload();
  const s = fold(rec.messages);
  const info = scheduleOf(rec.events);
  const tl = s.timeline;
  assert.ok(tl !== undefined);
  assert.equal(tl.seed, info.seed);
  assert.equal(tl.traceHash, info.traceHash);
  assert.equal(tl.passed, info.passedBefore.length);
  assert.deepEqual(tl.lanes, ["main", "task 2 (reader 1)", "task 3 (reader 2)", "task 4 (reload)"]);
  // Every event, in the run's order, on its task's lane.
  assert.deepEqual(
    tl.marks.map((m) => [m.t, tl.lanes[m.lane], m.what]),
    info.events.map((e) => [e.t, e.task, e.what]),
  );
  assert.deepEqual([...new Set(tl.marks.map((m) => m.t))], [0, 10, 20], "virtual time moves");
  assert.equal(tl.decisions, info.schedule.length);
  // One decision differs from FIFO: the reload started before the first reader.
  assert.deepEqual(
    tl.nonFifo,
    info.schedule.flatMap((v, i) => (v !== 0 ? [{ n: i + 1, value: v }] : [])),
  );
  assert.equal(tl.deviationCount, 1);
  const d = tl.deviations[0];
  assert.deepEqual([d.decision, d.chosenLane, d.fifoLane], [info.deviations[0].decision, 3, 1]);
  const ran = tl.marks.filter((m) => m.decision !== 0);
  assert.deepEqual(
    ran.map((m) => [m.i, tl.lanes[m.lane], m.what, m.decision]),
    [[d.at, "task 4 (reload)", "start", d.decision]],
  );
  assert.deepEqual(
    tl.marks.filter((m) => m.kind === "failed").map((m) => tl.lanes[m.lane]),
    ["main"],
  );
  // The trace tail ends on the failure, as the report's does.
  assert.equal(tl.tail.length, Math.min(TAIL_LINES, info.events.length));
  assert.match(tl.tail[tl.tail.length - 1].what, /^rejected: AssertionError: a reader saw no config/);
  // The raw schedule is not kept a second time in the run's failure; the workload's minimal arguments are.
  assert.equal(s.run.failure !== undefined && "schedule" in s.run.failure, false);
  assert.equal(s.run.failure?.repro, "2, 10");
  assert.deepEqual(JSON.parse(JSON.stringify(s)), defined(s), "JSON-safe");
});

test("the replicated log's lost append needs no deviation: every decision FIFO, every event at t = 0", async () => {
  const rec = await scheduleReplicate();
  const s = fold(rec.messages);
  const tl = s.timeline!;
  assert.equal(s.run.failure?.repro, '2, ["a"], 0');
  assert.deepEqual(tl.lanes, ["main", "task 2", "task 3"]);
  assert.ok(tl.decisions > 0);
  assert.deepEqual([tl.nonFifo, tl.deviations, tl.deviationCount], [[], [], 0]);
  assert.ok(tl.marks.every((m) => m.t === 0 && m.decision === 0));
  // The result event is enough (a reload's replay may end before run-finished), and run-finished alone too.
  const events = rec.messages.filter((m) => m.type !== "run-finished");
  assert.deepEqual(fold(events).timeline, tl);
  const finished = rec.messages.filter((m) => m.type !== "events");
  assert.deepEqual(fold(finished).timeline, tl);
});

test("runs without a schedule failure have no timeline, and a new run clears the last one", async () => {
  for (const rec of [sortedPair(), passing(), lruMachine()])
    assert.equal(fold(rec.messages).timeline, undefined, rec.name);
  const s = fold((await scheduleReload()).messages);
  assert.ok(s.timeline !== undefined);
  assert.equal(reduce(s, { type: "run-started", title: "again", file: "f", testPath: ["again"] }).timeline, undefined);
});

test("schedules are read as untrusted: malformed events and deviations dropped, text clipped, lanes and marks bounded", () => {
  for (const bad of [
    undefined,
    null,
    "x",
    { seed: "1", events: [] },
    { seed: 1, events: "no" },
    { seed: 1.5, events: [] },
  ])
    assert.equal(readSchedule(bad), undefined);
  const markup = '<img src=x onerror="alert(1)">';
  const tl = readSchedule({
    seed: 3,
    strategy: "<b>",
    traceHash: { no: 1 },
    passedBefore: [0, "1", 2],
    schedule: [0, 1, -2, "x", 2],
    tasks: ["main", markup, 7],
    events: [
      { t: 0, task: "main", what: "start" },
      { t: -1, task: "main", what: "bad time" },
      { t: 0, task: markup, what: "x".repeat(5000) },
      { t: 5, task: "stranger", what: "spawn y" },
      null,
      { t: 5, task: "main", what: "rejected: boom" },
    ],
    deviations: [
      { decision: 2, t: 5, chosen: "stranger (spawn y)", fifo: "main (start)" },
      { decision: "3", t: 0, chosen: "x", fifo: "y" },
      { decision: 5, t: 9, chosen: "nobody (x)", fifo: "main (x)" },
    ],
    truncated: 0,
  });
  assert.ok(tl !== undefined);
  assert.equal(tl.strategy, "random");
  assert.equal(tl.traceHash, "");
  assert.deepEqual(
    tl.lanes,
    ["main", markup, "stranger"],
    "markup is a label like any other (the view sets it as text); an unlisted task gets its own lane",
  );
  assert.deepEqual(
    tl.marks.map((m) => [m.i, m.lane, m.kind]),
    [
      [0, 0, "start"],
      [1, 1, "step"],
      [2, 2, "spawn"],
      [3, 0, "failed"],
    ],
  );
  assert.ok(tl.marks[1].what.length <= 200);
  assert.deepEqual(tl.nonFifo, [
    { n: 2, value: 1 },
    { n: 5, value: 2 },
  ]);
  assert.equal(tl.decisions, 5);
  assert.deepEqual(
    tl.deviations.map((d) => [d.decision, d.chosenLane, d.fifoLane, d.at]),
    [
      [2, 2, 0, 2],
      [5, -1, 0, -1],
    ],
  );
  assert.deepEqual(
    tl.marks.map((m) => m.decision),
    [0, 0, 2, 0],
  );
  assert.deepEqual([tl.passed, tl.passedSeeds], [2, [0, 2]]);

  // Many tasks: the first MAX_LANES get lanes, the rest share one.
  const tasks = Array.from({ length: MAX_LANES + 6 }, (_, i) => `task ${i + 1}`);
  const wide = readSchedule({
    seed: 0,
    tasks,
    events: tasks.map((task) => ({ t: 0, task, what: "start" })),
    schedule: [],
    deviations: [],
  })!;
  assert.equal(wide.lanes.length, MAX_LANES + 1);
  assert.equal(wide.lanes[MAX_LANES], OTHER_TASKS);
  assert.deepEqual(
    wide.marks.slice(MAX_LANES).map((m) => [m.lane, m.task]),
    tasks.slice(MAX_LANES).map((t) => [MAX_LANES, t]),
  );

  // Many events: the first and the last kept around a count; a run the engine cut takes its tail from the report.
  const n = MAX_MARKS + 100;
  const report =
    "explore: …\ntrace hash: 0123 (9000 events; the last 2):\n  [t=70] task 2 (reader 1) wake (slept 1 ms)\n  [t=71] main       rejected: Error: x";
  const long = readSchedule({
    seed: 0,
    tasks: ["main", "task 2 (reader 1)"],
    events: Array.from({ length: n }, (_, i) => ({ t: i, task: "main", what: `e${i}` })),
    truncated: 7000,
    text: report,
  })!;
  assert.equal(long.marks.length, MAX_MARKS);
  assert.deepEqual([long.gap, long.gapAt, long.events], [100, HEAD_MARKS, n + 7000]);
  assert.deepEqual([long.marks[HEAD_MARKS - 1].i, long.marks[HEAD_MARKS].i], [HEAD_MARKS - 1, HEAD_MARKS + 100]);
  assert.deepEqual(long.tail, [
    { t: 70, task: "task 2 (reader 1)", what: "wake (slept 1 ms)" },
    { t: 71, task: "main", what: "rejected: Error: x" },
  ]);
});

test("a targeted run: the progress model follows the target phase and the best score per label", () => {
  const rec = targeted();
  const s = fold(rec.messages);
  assert.equal(s.run.status, "failed");
  assert.equal(s.progress.targetPhase, "done");
  const byLabel = Object.fromEntries(s.progress.targets.map((r) => [r.label, r.score]));
  assert.equal(byLabel.length, "20");
  assert.ok(Number(byLabel.sum) > 1700, JSON.stringify(byLabel));
  // Mid-run, while climbing: the phase says so.
  const events = eventsOf(rec.messages);
  const at = events.findIndex((e) => e.type === "phase" && e.phase === "target");
  assert.ok(at > 0);
  const mid = fold([rec.messages[0]!, { type: "events", events: events.slice(0, at + 1), dropped: 0 }]);
  assert.equal(mid.progress.targetPhase, "climbing");
  assert.equal(mid.run.phase, "target");
});

test("targets events are untrusted data: only string labels with numbers are kept, a bounded number of them", () => {
  assert.equal(setTargets(emptyProgress, null), emptyProgress);
  assert.equal(setTargets(emptyProgress, "sum"), emptyProgress);
  const m = setTargets(emptyProgress, { b: 2, a: Infinity, c: "7", d: Number.NaN, e: 1.23456789e-7, f: -0 });
  assert.deepEqual(m.targets, [
    { label: "a", score: "∞" },
    { label: "b", score: "2" },
    { label: "e", score: "1.23457e-7" },
    { label: "f", score: "0" },
  ]);
  const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`label ${String(i).padStart(2, "0")}`, i]));
  assert.equal(setTargets(emptyProgress, many).targets.length, MAX_TARGETS);
  assert.deepEqual(JSON.parse(JSON.stringify(m.targets)), m.targets);
});

test("an infinite best score that postMessage's JSON turned into null still shows its label", () => {
  const sent = JSON.parse(JSON.stringify({ top: Infinity, bottom: -Infinity, sum: 3 })) as unknown;
  assert.deepEqual(setTargets(emptyProgress, sent).targets, [
    { label: "bottom", score: "±∞" },
    { label: "sum", score: "3" },
    { label: "top", score: "±∞" },
  ]);
});
