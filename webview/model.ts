/**
 * The panel's view model: a pure fold of the host's PanelMessages into what the panel shows. Unit-tested in
 * Node with event streams of real runs; main.ts only folds and renders.
 *
 * What matters most:
 *  - Bounded memory. A run can stream millions of events; the model keeps the latest test case, the last
 *    few candidates per pass, a downsampled progress series and counts — never a list that grows with the run.
 *  - JSON-safe. The whole state is saved with the webview's setState, so it holds display strings and finite
 *    numbers only (see models/cells.ts).
 *  - Structural sharing. A batch replaces only the parts it changed, so the renderer redraws a view only when
 *    its part of the state is a new object.
 *  - Survives a reload. The host replays the current run's messages when the webview reloads; `receive`
 *    recognises the replay of the run it restored and skips it instead of counting it twice.
 */
import type { ChoiceInfo, EngineEvent, FailureReport, PanelMessage, RunOutcome, ShrinkCandidateEvent, TestCaseEvent } from "../src/protocol.ts";
import type { Sequence } from "./models/cells.ts";
import { alignTarget, toSequence, valueText } from "./models/cells.ts";
import type { CandidatesModel } from "./models/candidates.ts";
import { addCandidates, emptyCandidates } from "./models/candidates.ts";
import type { ProgressModel } from "./models/progress.ts";
import { addPoint, emptyProgress, passCandidates, passEnded, passStarted, phaseStarted, setTargets } from "./models/progress.ts";
import type { StatsModel } from "./models/stats.ts";
import type { StepsModel } from "./models/steps.ts";
import { caseSteps, emptySteps, finalSteps, targetSteps } from "./models/steps.ts";
import { addCases, addResult, addTree, emptyStats } from "./models/stats.ts";
import type { Timeline } from "./models/timeline.ts";
import { readSchedule } from "./models/timeline.ts";

export const STATE_VERSION = 5;
/** Runs remembered in the session's history. */
export const MAX_HISTORY = 20;
/** How many messages of a run the host keeps for a reload (src/extension/panel.ts). */
export const HOST_HISTORY = 200;

export type RunStatus = "idle" | "running" | RunOutcome;

export interface RunInfo {
  readonly title: string;
  readonly file: string;
  readonly testPath: readonly string[];
  /** The test runner that runs it (run-started's `via`). */
  readonly via: string;
  readonly status: RunStatus;
  readonly phase: string;
  readonly seed: number | undefined;
  readonly failure: FailureReport | undefined;
  readonly reason: string | undefined;
  /** The engine's one-line summary from its result event. */
  readonly message: string | undefined;
  /** Messages received for this run (run-started included): what a reload has to skip. */
  readonly messages: number;
}

export interface CurrentCase {
  readonly id: number;
  readonly origin: string;
  readonly pass: string | undefined;
  readonly status: string;
  readonly seq: Sequence;
}

export interface ChoicesModel {
  /** The shrink target: the simplest failing case so far. Its cell ids persist across targets. */
  readonly target: Sequence | undefined;
  readonly targetPass: string | undefined;
  /** How many times the target changed. */
  readonly shrinks: number;
  /** The most recent test case received. */
  readonly current: CurrentCase | undefined;
  readonly nextId: number;
}

export interface HistoryEntry {
  /** Run number within the session (1-based), the join key. */
  readonly n: number;
  readonly title: string;
  readonly outcome: RunOutcome;
  readonly seed: number | undefined;
  readonly cases: number;
  readonly shrinks: number;
  readonly timeMs: number | undefined;
  readonly repro: string | undefined;
}

export interface PanelState {
  readonly version: number;
  readonly run: RunInfo;
  readonly choices: ChoicesModel;
  readonly candidates: CandidatesModel;
  readonly progress: ProgressModel;
  readonly stats: StatsModel;
  /** A state machine's steps (machine runs only). */
  readonly steps: StepsModel;
  /** A schedule failure's timeline (simTest runs that failed only). */
  readonly timeline: Timeline | undefined;
  readonly history: readonly HistoryEntry[];
  readonly runs: number;
}

const emptyRun: RunInfo = { title: "", file: "", testPath: [], via: "", status: "idle", phase: "", seed: undefined, failure: undefined, reason: undefined, message: undefined, messages: 0 };
const emptyChoices: ChoicesModel = { target: undefined, targetPass: undefined, shrinks: 0, current: undefined, nextId: 0 };

export const initialState: PanelState = {
  version: STATE_VERSION,
  run: emptyRun,
  choices: emptyChoices,
  candidates: emptyCandidates,
  progress: emptyProgress,
  stats: emptyStats,
  steps: emptySteps,
  timeline: undefined,
  history: [],
  runs: 0,
};

/** A saved state, if it is one this version can use (anything else: start afresh). */
export function restore(saved: unknown): PanelState | undefined {
  if (typeof saved !== "object" || saved === null) return undefined;
  const s = saved as Partial<PanelState>;
  if (s.version !== STATE_VERSION || typeof s.run !== "object" || s.run === null) return undefined;
  return s as PanelState;
}

function candidateSeq(e: ShrinkCandidateEvent): Sequence {
  return toSequence(e.choices, undefined);
}

function setTarget(c: ChoicesModel, choices: readonly ChoiceInfo[], spans: TestCaseEvent["spans"] | undefined, pass: string | undefined, counts: boolean): ChoicesModel {
  const { seq, nextId } = alignTarget(c.target, choices, spans, c.nextId);
  return { ...c, target: seq, targetPass: pass, nextId, shrinks: c.shrinks + (counts ? 1 : 0) };
}

/** Fold one batch of engine events. Work per event is O(1) or O(its choices); cells are built only for
 * what can be on screen (the last test case and last candidate of the batch, and each new target). */
function foldEvents(s: PanelState, events: readonly EngineEvent[], dropped: number): PanelState {
  let { run, choices, candidates, progress, stats, steps, timeline } = s;
  const cases: TestCaseEvent[] = [];
  let batch: { event: ShrinkCandidateEvent; target: Sequence | undefined }[] = [];
  let lastCase: TestCaseEvent | undefined;
  // The last case before any failure: what the Steps view shows while generating (its presentation is read
  // once per batch, and not at all once the target is shown).
  let generated: TestCaseEvent | undefined;
  // Live per-pass counts from candidates, applied before any pass boundary so the pass's base is right.
  let live = new Map<string, { candidates: number; calls: number; accepted: number }>();
  const flushLive = (): void => {
    for (const [name, l] of live) progress = passCandidates(progress, name, l.candidates, l.calls, l.accepted);
    live = new Map();
  };
  const flushCandidates = (): void => {
    candidates = addCandidates(candidates, batch, candidateSeq);
    batch = [];
  };
  for (const e of events) {
    switch (e.type) {
      case "run-start":
        run = { ...run, seed: e.seed };
        break;
      case "phase":
        run = { ...run, phase: e.phase };
        progress = phaseStarted(progress, e.phase);
        break;
      case "targets":
        progress = setTargets(progress, e.best);
        break;
      case "test-case":
        cases.push(e);
        lastCase = e;
        if (choices.target === undefined && e.status !== "interesting") generated = e;
        // The first failure found by generation is the target until the shrinker reports better ones.
        if (e.status === "interesting" && choices.target === undefined) {
          choices = setTarget(choices, e.choices, e.spans, undefined, false);
          steps = targetSteps(steps, e.presentation);
          if (choices.target) progress = addPoint(progress, { x: candidates.count + batch.length, length: choices.target.length, indexSum: choices.target.indexSum });
        }
        break;
      case "tree":
        stats = addTree(stats, e.totalNodes, e.rootExhausted);
        break;
      case "shrink-pass":
        flushLive();
        progress = e.state === "start" ? passStarted(progress, e.pass) : passEnded(progress, e.pass, e.calls, e.accepted);
        break;
      case "shrink-candidate": {
        batch.push({ event: e, target: choices.target });
        let l = live.get(e.pass);
        if (l === undefined) live.set(e.pass, (l = { candidates: 0, calls: 0, accepted: 0 }));
        l.candidates++;
        if (!e.cached) l.calls++;
        if (e.accepted) l.accepted++;
        break;
      }
      case "shrink-target":
        choices = setTarget(choices, e.choices, e.spans, e.pass, true);
        steps = targetSteps(steps, e.presentation);
        if (choices.target) progress = addPoint(progress, { x: candidates.count + batch.length, length: choices.target.length, indexSum: choices.target.indexSum });
        break;
      case "result": {
        const st = e.statistics;
        flushLive();
        flushCandidates();
        progress = { ...progress, currentPass: "", totals: { examples: st.examples, shrinkCalls: st.shrinkCalls, shrinks: st.shrinks, timeMs: st.timeMs, shrinkStopped: e.shrinkStopped } };
        stats = addResult(addCases(stats, cases.splice(0), 0), e);
        run = { ...run, seed: e.seed, message: e.message };
        steps = finalSteps(steps, e.presentation);
        timeline = readSchedule(e.schedule) ?? timeline;
        if (choices.target === undefined && e.choices !== undefined && e.choices.length >= 0 && e.outcome === "failed") choices = setTarget(choices, e.choices, undefined, undefined, false);
        break;
      }
    }
  }
  flushLive();
  flushCandidates();
  stats = addCases(stats, cases, dropped);
  if (lastCase !== undefined) {
    choices = { ...choices, current: { id: lastCase.id, origin: lastCase.origin, pass: lastCase.pass, status: lastCase.status, seq: toSequence(lastCase.choices, lastCase.spans) } };
  }
  // While no failure is known this is also the current row of cells, so its steps index those cells; once one
  // is, the view shows the target's steps instead.
  if (generated !== undefined) steps = caseSteps(steps, generated.presentation);
  return { ...s, run, choices, candidates, progress, stats, steps, timeline };
}

function historyEntry(s: PanelState, outcome: RunOutcome, failure: FailureReport | undefined): HistoryEntry {
  const t = s.progress.totals;
  return {
    n: s.runs,
    title: s.run.title,
    outcome,
    seed: failure?.seed ?? s.run.seed,
    cases: s.stats.cases + s.stats.dropped,
    shrinks: t?.shrinks ?? s.choices.shrinks,
    timeMs: t?.timeMs,
    repro: failure?.repro,
  };
}

/** The schedule is kept once, as the timeline read it (checked and clipped), not again raw in the saved state. */
function withoutSchedule(f: FailureReport | undefined): FailureReport | undefined {
  if (typeof f !== "object" || f === null || !("schedule" in f)) return f;
  const { schedule: _, ...rest } = f;
  return rest;
}

/** Fold one message. Pure: returns a new state, sharing every part the message did not change. */
export function reduce(s: PanelState, m: PanelMessage): PanelState {
  switch (m.type) {
    case "run-started":
      return {
        ...initialState,
        history: s.history,
        runs: s.runs + 1,
        run: { ...emptyRun, title: m.title, file: m.file, testPath: m.testPath, via: typeof m.via === "string" ? m.via.slice(0, 80) : "", status: "running", messages: 1 },
      };
    case "run-finished": {
      const run: RunInfo = { ...s.run, status: m.outcome, failure: withoutSchedule(m.failure), reason: m.reason, phase: "done", messages: s.run.messages + 1 };
      const entry = historyEntry(s, m.outcome, m.failure);
      const history = [...s.history, entry].slice(-MAX_HISTORY);
      return { ...s, run, history, steps: finalSteps(s.steps, m.failure?.presentation), timeline: readSchedule(m.failure?.schedule) ?? s.timeline };
    }
    case "events": {
      const next = foldEvents(s, Array.isArray(m.events) ? m.events : [], typeof m.dropped === "number" ? m.dropped : 0);
      return { ...next, run: { ...next.run, messages: next.run.messages + 1 } };
    }
    default:
      return s;
  }
}

/**
 * After a reload the host replays the current run's messages (run-started first). While a restored state
 * is waiting for that replay, `Resume` says how much of it to skip:
 *   await-start     the next message decides: the replay of the restored run, or something new;
 *   until-finished  the restored run had finished: skip through its run-finished;
 *   skip            the restored run was live: skip the messages already folded, fold the rest.
 */
export type Resume = { readonly kind: "await-start" } | { readonly kind: "until-finished" } | { readonly kind: "skip"; readonly n: number } | undefined;

export function resumeFor(restored: PanelState | undefined): Resume {
  return restored !== undefined && restored.run.status !== "idle" ? { kind: "await-start" } : undefined;
}

function sameRun(r: RunInfo, m: Extract<PanelMessage, { type: "run-started" }>): boolean {
  return r.title === m.title && r.file === m.file && r.testPath.length === m.testPath.length && r.testPath.every((p, i) => p === m.testPath[i]);
}

/** `reduce`, aware of a reload's replay. */
export function receive(s: PanelState, resume: Resume, m: PanelMessage): { state: PanelState; resume: Resume } {
  if (resume === undefined) return { state: reduce(s, m), resume };
  switch (resume.kind) {
    case "await-start":
      if (m.type === "run-started" && sameRun(s.run, m)) {
        if (s.run.status !== "running") return { state: s, resume: { kind: "until-finished" } };
        // The host keeps the first message and the last HOST_HISTORY−1: beyond that the replay is not a
        // prefix of what was folded, so fold it afresh (keeping the session's history).
        if (s.run.messages <= HOST_HISTORY) return { state: s, resume: s.run.messages > 1 ? { kind: "skip", n: s.run.messages - 1 } : undefined };
        return { state: reduce({ ...s, runs: s.runs - 1 }, m), resume: undefined };
      }
      return { state: reduce(s, m), resume: undefined };
    case "until-finished":
      return { state: s, resume: m.type === "run-finished" ? undefined : resume };
    case "skip":
      if (m.type === "run-started") return { state: reduce(s, m), resume: undefined };
      return { state: s, resume: resume.n > 1 ? { kind: "skip", n: resume.n - 1 } : undefined };
  }
}

/** A short display of one choice value (kept for callers of the first model). */
export function showValue(c: ChoiceInfo): string {
  return valueText(c.type, c.value);
}
