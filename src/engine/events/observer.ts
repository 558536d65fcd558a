/**
 * Watching a run. The engine tells its observer what happens at a few points — a test case concluded (and
 * what it made the DataTree grow), a shrink candidate was judged, the shrink target changed, and the plain
 * events around them (run start, phases, shrink passes, targets, the result) — handing over its own objects.
 * Turning those into the plain-data events of the public tap (settings.onEvent, events.ts) is the observer's
 * work, not the engine's: with no observer the engine's hot path does no projection at all, and an observer
 * that keeps only some test cases projects only those. The editor's tap keeps a few thousand cases a second
 * of a run's hundreds of thousands (src/runner/outbox.ts), so it asks for most of them nothing but a count.
 *
 * A ConcludedCase is valid only during the `concluded` call: a generated case's storage is reused by the next
 * one. `event()` projects it now; `keep()` takes a cheap copy of what the event needs, to project later.
 *
 * The observer may be loaded from another copy of the engine (the editor's tap is bundled on its own), so
 * it sees these interfaces only, never the engine's classes (the engine's side is caseView.ts).
 */
import type { ChoiceNode, ChoiceValue, Constraints, StringConstraints } from "../choice/types.ts";
import type { SortKeyComparison } from "../choice/order.ts";
import { FORCED_BIT, TYPE_NAMES, typeCode } from "../choice/storage.ts";
import { indexNumber } from "../choice/complexityIndex.ts";
import type { ChoiceData } from "../choice/storage.ts";
import type {
  CaseOrigin,
  ChoiceInfo,
  EngineEvent,
  Presentation,
  SpanInfo,
  StatusName,
  TestCaseEvent,
} from "./events.ts";

/** A span as the engine holds it (testCase.ts Span): what its event needs. */
export interface SpanLike {
  readonly label: string;
  readonly start: number;
  readonly end: number;
  readonly depth: number;
  readonly discarded: boolean;
}

/** A concluded test case, for the `concluded` call only. */
export interface ConcludedCase {
  readonly id: number;
  readonly origin: CaseOrigin;
  readonly status: StatusName;
  readonly choiceCount: number;
  readonly spanCount: number;
  /** The DataTree's growth from recording it. */
  readonly newNodes: number;
  readonly totalNodes: number;
  readonly exhaustedDepths: readonly number[];
  readonly rootExhausted: boolean;
  /** The arguments the body was called with (undefined for a case that presents itself: a machine's steps). */
  readonly args?: readonly unknown[] | undefined;
  /** How it presents itself, when it does (a machine's steps). */
  readonly presentation?: Presentation | undefined;
  /** Its event, projected now. */
  event(): TestCaseEvent;
  /** A copy of what its event needs, projected when asked (`reuse`: a copy no longer needed, whose storage it may take over). */
  keep(reuse?: KeptCase): KeptCase;
}

export interface KeptCase {
  event(): TestCaseEvent;
}

export interface CandidateJudged {
  readonly pass: string;
  readonly nodes: readonly ChoiceNode[];
  readonly comparison: SortKeyComparison;
  readonly status: StatusName;
  readonly accepted: boolean;
  readonly cached: boolean;
}

export interface TargetChanged {
  readonly pass: string;
  readonly nodes: readonly ChoiceNode[];
  readonly spans: readonly SpanLike[];
  readonly presentation: Presentation | undefined;
}

export interface RunObserver {
  /** Any event but the three below. */
  event(e: EngineEvent): void;
  concluded(c: ConcludedCase): void;
  candidate(c: CandidateJudged): void;
  target(t: TargetChanged): void;
}

/**
 * The observer of settings.onEvent: every test case projected, with a tree event after it when the tree grew
 * — the events a tap has always received.
 */
export function eventObserver(onEvent: (e: EngineEvent) => void): RunObserver {
  return {
    event: onEvent,
    concluded(c) {
      onEvent(c.event());
      if (c.newNodes > 0 || c.exhaustedDepths.length > 0) {
        onEvent({
          type: "tree",
          newNodes: c.newNodes,
          totalNodes: c.totalNodes,
          exhaustedDepths: c.exhaustedDepths,
          rootExhausted: c.rootExhausted,
        });
      }
    },
    candidate(c) {
      onEvent({
        type: "shrink-candidate",
        pass: c.pass,
        choices: choiceInfos(c.nodes),
        comparison: c.comparison,
        status: c.status,
        accepted: c.accepted,
        cached: c.cached,
      });
    },
    target(t) {
      const e = {
        type: "shrink-target",
        pass: t.pass,
        choices: choiceInfos(t.nodes),
        spans: spanInfos(t.spans),
      } as const;
      onEvent(t.presentation === undefined ? e : { ...e, presentation: t.presentation });
    },
  };
}

/** Both observers, in order (the user's tap, then the editor's). */
export function bothObservers(a: RunObserver, b: RunObserver): RunObserver {
  return {
    event: (e) => (a.event(e), b.event(e)),
    concluded: (c) => (a.concluded(c), b.concluded(c)),
    candidate: (c) => (a.candidate(c), b.candidate(c)),
    target: (t) => (a.target(t), b.target(t)),
  };
}

// ---------------------------------------------------------------------------------------------- projection

/**
 * Per kind of choice (constraints object and type code): the constraints described as plain data, and the
 * ChoiceInfo objects of its simplest values (index below SHARED_INFOS: most booleans and small integers),
 * built once and shared by every event (they are immutable data).
 */
interface KindInfo {
  readonly description: Record<string, unknown>;
  readonly shared: (ChoiceInfo | undefined)[];
}

const SHARED_INFOS = 64;
const kindInfoCache = new WeakMap<object, (KindInfo | undefined)[]>();
const constraintDescriptions = new WeakMap<object, Record<string, unknown>>();

/** A few recently used kinds in front of the WeakMap (a property draws few kinds, in turn). */
const recentConstraints: (Constraints | null)[] = [null, null, null, null];
const recentCodes = [-1, -1, -1, -1];
const recentInfos: KindInfo[] = [];
let recentNext = 0;

/** Plain, serialisable constraints for events (an alphabet becomes its size and first ranges). */
function describeConstraints(c: Constraints): Record<string, unknown> {
  let d = constraintDescriptions.get(c);
  if (d === undefined) {
    if ("alphabet" in c) {
      const s = c as StringConstraints;
      d = {
        minSize: s.minSize,
        maxSize: s.maxSize,
        alphabetSize: s.alphabet.size,
        alphabet: s.alphabet.intervals.slice(0, 8),
      };
    } else d = { ...c };
    constraintDescriptions.set(c, d);
  }
  return d;
}

function kindInfo(c: Constraints, code: number): KindInfo {
  for (let k = 0; k < 4; k++) if (recentConstraints[k] === c && recentCodes[k] === code) return recentInfos[k];
  let byCode = kindInfoCache.get(c);
  if (byCode === undefined) kindInfoCache.set(c, (byCode = []));
  let info = byCode[code];
  if (info === undefined) byCode[code] = info = { description: describeConstraints(c), shared: [] };
  recentConstraints[recentNext] = c;
  recentCodes[recentNext] = code;
  recentInfos[recentNext] = info;
  recentNext = (recentNext + 1) & 3;
  return info;
}

/** The ChoiceInfo of one choice (shared for the simplest values of integers and booleans). */
function choiceInfo(code: number, c: Constraints, value: ChoiceValue): ChoiceInfo {
  const kind = kindInfo(c, code);
  const type = TYPE_NAMES[code & 7];
  const index = indexNumber(type, value, c);
  const forced = (code & FORCED_BIT) !== 0;
  if (index < SHARED_INFOS && (type === "integer" || type === "boolean")) {
    // Under fixed constraints an index names one value, so the info can be shared.
    let info = kind.shared[index];
    if (info === undefined)
      kind.shared[index] = info = Object.freeze({ type, value, index, forced, constraints: kind.description });
    return info;
  }
  return { type, value, index, forced, constraints: kind.description };
}

export function choiceInfos(nodes: readonly ChoiceNode[]): ChoiceInfo[] {
  const out = new Array<ChoiceInfo>(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    out[i] = choiceInfo(typeCode(n.type) | (n.forced ? FORCED_BIT : 0), n.constraints, n.value);
  }
  return out;
}

/** choiceInfos of choices [0, n) of flat storage (no ChoiceNode objects). */
export function dataChoiceInfos(data: ChoiceData, n: number): ChoiceInfo[] {
  const out = new Array<ChoiceInfo>(n);
  for (let i = 0; i < n; i++) out[i] = choiceInfo(data.codes[i], data.constraints[i], data.value(i));
  return out;
}

export function spanInfos(spans: readonly SpanLike[]): SpanInfo[] {
  return spans.map((s) => ({ label: s.label, start: s.start, end: s.end, depth: s.depth, discarded: s.discarded }));
}

/** The fields of a test case's event besides its choices and spans. */
export interface CaseFields {
  readonly id: number;
  readonly origin: CaseOrigin;
  readonly pass: string | undefined;
  readonly status: StatusName;
  readonly durationMs: number;
  readonly events: readonly string[];
  readonly presentation: Presentation | undefined;
}

export function caseEvent(f: CaseFields, choices: readonly ChoiceInfo[], spans: readonly SpanInfo[]): TestCaseEvent {
  const e: TestCaseEvent =
    f.pass === undefined
      ? {
          type: "test-case",
          id: f.id,
          origin: f.origin,
          choices,
          spans,
          status: f.status,
          durationMs: f.durationMs,
          events: f.events,
        }
      : {
          type: "test-case",
          id: f.id,
          origin: f.origin,
          pass: f.pass,
          choices,
          spans,
          status: f.status,
          durationMs: f.durationMs,
          events: f.events,
        };
  return f.presentation === undefined ? e : { ...e, presentation: f.presentation };
}
