/**
 * The engine: one run of one property, phase by phase. The main loop fits on a screen (`run`):
 *
 *   explicit  the examples pinned in settings, as given (no shrinking of a value that is not choices)
 *   reuse     choice sequences that failed before, from the database, replayed first
 *   generate  fresh cases, steered by the DataTree so none repeats, until maxExamples valid cases, a failure,
 *             or the whole input space has been run
 *   shrink    the first failure, to a minimal one (shrinker.ts)
 *   final     the minimal case replayed once more, to report its arguments and error exactly
 *
 * The engine never calls the property itself: `run` is a generator that yields each TestCase to execute and
 * is resumed with it executed, so that one engine serves sync and async bodies (see property.ts's driver).
 */
import type { ChoiceNode, ChoiceValue, Constraints, StringConstraints } from "./choices.ts";
import { CHOICE_STRIDE, FORCED_BIT, indexNumber, TYPE_NAMES, typeCode } from "./choices.ts";
import type { ExampleDatabase } from "./database.ts";
import { conclusionOf, DataTree, Status, STATUS_NAMES, TreeCursor } from "./datatree.ts";
import type { CaseOrigin, ChoiceInfo, EngineEvent, Phase, RunStatistics, SpanInfo } from "./events.ts";
import { Random } from "./random.ts";
import { Shrinker } from "./shrinker.ts";
import type { Span } from "./testcase.ts";
import { SpanStore, TestCase } from "./testcase.ts";

export interface EngineSettings {
  readonly maxExamples: number;
  readonly seed: number;
  readonly derandomize: boolean;
  readonly deadline: number | null;
  readonly database: ExampleDatabase | null;
  readonly databasePath: string | null;
  readonly databaseKey: string;
  readonly phases: readonly Phase[];
  readonly onEvent: ((event: EngineEvent) => void) | undefined;
  readonly maxChoices: number;
  readonly maxShrinkCalls: number;
  readonly maxShrinkTimeMs: number;
  readonly examples: readonly (readonly unknown[])[];
}

export type EngineResult =
  | { readonly outcome: "passed" | "exhausted"; readonly statistics: RunStatistics }
  | { readonly outcome: "gave-up"; readonly statistics: RunStatistics; readonly reason: string }
  | {
      readonly outcome: "failed";
      readonly statistics: RunStatistics;
      readonly case: TestCase;
      /** Set when the minimal case did not fail again on replay. */
      readonly flaky: boolean;
      readonly shrinkStopped: string | undefined;
      readonly explicit: boolean;
    };

type Run<T> = Generator<TestCase, T, TestCase>;

/**
 * Per kind of choice (constraints object and type code), for the event tap: the constraints described as
 * plain data, and the ChoiceInfo objects of its simplest values (index below SHARED_INFOS: most booleans
 * and small integers), built once and shared by every event (they are immutable data).
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
      d = { minSize: s.minSize, maxSize: s.maxSize, alphabetSize: s.alphabet.size, alphabet: s.alphabet.intervals.slice(0, 8) };
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
    if (info === undefined) kind.shared[index] = info = Object.freeze({ type, value, index, forced, constraints: kind.description });
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

/** choiceInfos of a test case, read straight from its flat choices (no ChoiceNode objects). */
function caseChoiceInfos(tc: TestCase): ChoiceInfo[] {
  const n = tc.choiceCount;
  const data = tc.data;
  const out = new Array<ChoiceInfo>(n);
  for (let i = 0; i < n; i++) {
    const at = (tc.base + i) * CHOICE_STRIDE;
    out[i] = choiceInfo(data[at] as number, data[at + 1] as Constraints, data[at + 2] as ChoiceValue);
  }
  return out;
}

const NO_CHOICES: ChoiceValue[] = [];
const NO_EVENTS: readonly string[] = Object.freeze([]);
const NO_DEPTHS: readonly number[] = Object.freeze([]);

export function spanInfos(spans: readonly Span[]): SpanInfo[] {
  return spans.map((s) => ({ label: s.label, start: s.start, end: s.end, depth: s.depth, discarded: s.discarded }));
}

export class Engine {
  readonly tree = new DataTree();
  private readonly random: Random;
  private readonly emit: ((e: EngineEvent) => void) | undefined;
  private readonly started = Date.now();
  private nextId = 0;
  /** Receives the exhausted depths of each recording when events are on (copied out only when non-empty). */
  private readonly depthsScratch: number[] = [];
  private readonly stats = { examples: 0, valid: 0, invalid: 0, overrun: 0, duplicates: 0, shrinkCalls: 0, shrinks: 0 };
  private readonly eventCounts: Record<string, number> = {};

  constructor(readonly settings: EngineSettings) {
    this.random = new Random(settings.seed);
    this.emit = settings.onEvent;
  }

  statistics(): RunStatistics {
    return { ...this.stats, timeMs: Date.now() - this.started, events: { ...this.eventCounts } };
  }

  *run(): Run<EngineResult> {
    const s = this.settings;
    this.emit?.({
      type: "run-start",
      seed: s.seed,
      settings: { maxExamples: s.maxExamples, derandomize: s.derandomize, deadline: s.deadline, database: s.databasePath, phases: s.phases },
    });
    let failure: TestCase | undefined;

    if (s.phases.includes("explicit") && s.examples.length > 0) {
      this.phase("explicit");
      for (const args of s.examples) {
        const tc = new TestCase([], null, s.maxChoices);
        tc.explicitArgs = [...args];
        yield* this.execute(tc, "explicit");
        if (tc.status === Status.Interesting) {
          return { outcome: "failed", statistics: this.statistics(), case: tc, flaky: false, shrinkStopped: undefined, explicit: true };
        }
      }
    }

    const saved = s.phases.includes("reuse") && s.database !== null ? s.database.fetch(s.databaseKey) : [];
    if (saved.length > 0) {
      this.phase("reuse");
      for (const choices of saved) {
        const tc = yield* this.execute(new TestCase(choices, null, s.maxChoices), "reuse");
        // A saved case that passes now (the bug was fixed) is dropped from the database.
        if (tc.status !== Status.Interesting) s.database?.delete(s.databaseKey, choices);
        else if (failure === undefined || this.simpler(tc, failure)) failure = tc;
      }
    }

    let exhausted = false;
    if (failure === undefined && s.phases.includes("generate")) {
      this.phase("generate");
      const limit = s.maxExamples * 10 + 100;
      // Shared by the generated cases, one after another (a failure's spans are copied out in finish()).
      const spanStore = new SpanStore();
      const cursor = new TreeCursor(this.tree);
      while (this.stats.valid < s.maxExamples && this.stats.examples + this.stats.duplicates < limit) {
        if (this.tree.exhausted) {
          exhausted = true;
          break;
        }
        // Inlined execute(): one generator step per case instead of a delegated generator per case.
        cursor.reset();
        const tc = new TestCase(NO_CHOICES, this.random, s.maxChoices, cursor, spanStore);
        yield tc;
        this.finish(tc, "generate", undefined);
        if (tc.status === Status.Interesting) {
          failure = tc;
          break;
        }
      }
      if (failure === undefined && this.tree.exhausted) exhausted = true;
    }

    if (failure === undefined) {
      if (this.stats.valid === 0 && this.stats.examples > 0 && !exhausted) {
        const why =
          this.stats.overrun > this.stats.invalid
            ? `every test case exceeded the ${s.maxChoices}-choice budget (a strategy draws too much)`
            : `assume() or .filter() rejected all ${this.stats.invalid} test cases`;
        return { outcome: "gave-up", statistics: this.statistics(), reason: `Unable to satisfy the property's preconditions: ${why}` };
      }
      return { outcome: exhausted ? "exhausted" : "passed", statistics: this.statistics() };
    }

    let target = failure;
    let shrinkStopped: string | undefined;
    if (s.phases.includes("shrink")) {
      this.phase("shrink");
      const shrinker = new Shrinker(
        {
          tree: this.tree,
          emit: this.emit,
          execute: (choices, pass) => this.execute(new TestCase(choices, null, s.maxChoices), "shrink", pass),
          choiceInfos,
          spanInfos,
        },
        { nodes: failure.nodes, spans: failure.spans, origin: failure.origin },
        { maxCalls: s.maxShrinkCalls, maxTimeMs: s.maxShrinkTimeMs },
      );
      const outcome = yield* shrinker.run();
      this.stats.shrinkCalls = outcome.calls;
      this.stats.shrinks = outcome.shrinks;
      shrinkStopped = outcome.stoppedBy;
      target = new TestCase(outcome.target.nodes.map((n) => n.value), null, s.maxChoices);
    } else {
      target = new TestCase(failure.choices, null, s.maxChoices);
    }

    this.phase("final");
    const final = yield* this.execute(target, "final");
    const flaky = final.status !== Status.Interesting;
    if (s.database !== null) {
      for (const choices of saved) s.database.delete(s.databaseKey, choices);
      s.database.save(s.databaseKey, (flaky ? failure : final).choices);
    }
    return { outcome: "failed", statistics: this.statistics(), case: flaky ? failure : final, flaky, shrinkStopped, explicit: false };
  }

  private simpler(a: TestCase, b: TestCase): boolean {
    return a.nodes.length < b.nodes.length;
  }

  private phase(phase: Phase): void {
    this.emit?.({ type: "phase", phase });
  }

  /** Hand a case to the executor, then record it: statistics, DataTree, events. */
  *execute(tc: TestCase, origin: CaseOrigin, pass?: string): Run<TestCase> {
    yield tc;
    return this.finish(tc, origin, pass);
  }

  /** Account for an executed case: statistics, DataTree, events. */
  private finish(tc: TestCase, origin: CaseOrigin, pass: string | undefined): TestCase {
    const st = this.stats;
    if (tc.duplicate) {
      st.duplicates++;
      return tc;
    }
    if (origin !== "final") {
      st.examples++;
      if (tc.status === Status.Valid) st.valid++;
      else if (tc.status === Status.Invalid) st.invalid++;
      else if (tc.status === Status.Overrun) st.overrun++;
    }
    const events = tc.eventsOrNull;
    if (events !== null) for (const e of events) this.eventCounts[e] = (this.eventCounts[e] ?? 0) + 1;
    if (tc.explicitArgs !== undefined) return tc;
    const emit = this.emit;
    const conclusion = conclusionOf(tc.status, tc.origin);
    if (emit === undefined) {
      this.tree.insert(tc.data, tc.base, tc.choiceCount, conclusion, tc.cursor, null);
      // A failure's spans are read later (by the shrinker): take them out of the shared store now.
      if (tc.status === Status.Interesting) void tc.spans;
      return tc;
    }
    const before = this.tree.nodeCount;
    const depths = this.depthsScratch;
    depths.length = 0;
    this.tree.insert(tc.data, tc.base, tc.choiceCount, conclusion, tc.cursor, depths);
    const newNodes = this.tree.nodeCount - before;
    const choices = caseChoiceInfos(tc);
    // A failure's spans are read later (by the shrinker) as Span objects; otherwise straight from the store.
    const spans = tc.status === Status.Interesting ? spanInfos(tc.spans) : tc.spanInfos();
    const id = this.nextId++;
    const status = STATUS_NAMES[tc.status];
    emit(
      pass === undefined
        ? { type: "test-case", id, origin, choices, spans, status, durationMs: tc.durationMs, events: events ?? NO_EVENTS }
        : { type: "test-case", id, origin, pass, choices, spans, status, durationMs: tc.durationMs, events: events ?? NO_EVENTS },
    );
    if (newNodes > 0 || depths.length > 0) {
      emit({ type: "tree", newNodes, totalNodes: this.tree.nodeCount, exhaustedDepths: depths.length > 0 ? depths.slice() : NO_DEPTHS, rootExhausted: this.tree.root.exhausted });
    }
    return tc;
  }
}

export type { ChoiceValue };
