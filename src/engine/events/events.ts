/**
 * Typed events the engine emits through `settings.onEvent`: what the runner streams to the extension and the
 * panel draws. Plain data only (values stay raw; the protocol layer serialises).
 */
import type { ChoiceType, ChoiceValue } from "../choice/types.ts";
import type { SortKeyComparison } from "../choice/order.ts";

export type Phase = "explicit" | "reuse" | "generate" | "target" | "shrink" | "explain" | "final";
export type StatusName = "overrun" | "invalid" | "valid" | "interesting";
export type CaseOrigin = "explicit" | "reuse" | "generate" | "target" | "shrink" | "explain" | "final";

export interface ChoiceInfo {
  readonly type: ChoiceType;
  readonly value: ChoiceValue;
  /** The complexity index under its constraints (0 = simplest; approximate above 2^53). */
  readonly index: number;
  readonly forced: boolean;
  readonly constraints: Readonly<Record<string, unknown>>;
}

export interface SpanInfo {
  readonly label: string;
  readonly start: number;
  readonly end: number;
  readonly depth: number;
  readonly discarded: boolean;
}

/** One step of a state-machine sequence, as presented (machine.ts). */
export interface StepInfo {
  readonly kind: "initialize" | "rule" | "invariant" | "teardown";
  readonly name: string;
  /** The argument object printed as TypeScript (bundle values by variable name); "" when none. */
  readonly args: string;
  /** The bundle variable the result went into. */
  readonly target?: string;
  /** The statement in the repro. */
  readonly code: string;
  /** The step's choices [start, end) in the test case (absent for invariant and teardown calls). */
  readonly start?: number;
  readonly end?: number;
  /** Each argument of the step: its key, printed value, and choices [start, end) (when the step has args). */
  readonly argSpans?: readonly {
    readonly name: string;
    readonly text: string;
    readonly start: number;
    readonly end: number;
  }[];
  /** Keys of the arguments the explain phase found free: any other generated value fails the same way. */
  readonly free?: readonly string[];
}

/** One argument of a failure, printed, and whether the explain phase found it free. */
export interface ExplainedArgument {
  readonly text: string;
  readonly free: boolean;
}

/** The comment that marks a free argument in a printed failure. */
export const FREE_COMMENT = "// or any other generated value";

/**
 * How a test case presents itself to a person: a property's arguments, or a machine's steps. The printer,
 * the protocol, the panel and the quick fix all read this one shape.
 */
export type Presentation =
  | {
      readonly kind: "arguments";
      /** The arguments printed as TypeScript, comma-separated. */
      readonly text: string;
      /** When the explain phase found some arguments free: each argument, marked (otherwise absent). */
      readonly args?: readonly ExplainedArgument[];
      /**
       * For each argument that is an input parsed by a schema (fromZod), that input printed as TypeScript (the
       * value itself may be a transform's output), for a regression test that parses it again; null for the other
       * arguments. Absent when no argument is one.
       */
      readonly inputs?: readonly (string | null)[];
    }
  | {
      readonly kind: "steps";
      /** The machine's class name, as the repro constructs it. */
      readonly className: string;
      readonly steps: readonly StepInfo[];
      /** Where the sequence failed, when it did: the invariant, rule or initialize rule that threw. */
      readonly failedIn?: { readonly kind: "invariant" | "rule" | "initialize"; readonly name: string };
      /** "Explanation: assertion failed in invariant X" (failures only). */
      readonly explanation?: string;
      /** The machine's toString() at the failing step, when its class defines one. */
      readonly state?: string;
    };

/**
 * A failing schedule (simTest): the seed, the shrunk decisions, the minimal run's events for a timeline (one
 * lane per task over virtual time), and where it differs from FIFO. Plain data, as the report renders it.
 */
export interface ScheduleInfo {
  readonly seed: number;
  readonly passedBefore: readonly number[];
  readonly strategy: "random" | "pct";
  readonly traceHash: string;
  /** The shrunk decisions, one per point where more than one task was ready; 0 = FIFO. */
  readonly schedule: readonly number[];
  /** Every event of the minimal run (the first TIMELINE_EVENTS; `truncated` counts the rest). */
  readonly events: readonly { readonly t: number; readonly task: string; readonly what: string }[];
  readonly truncated: number;
  /** The tasks in the order they were created ("main" first). */
  readonly tasks: readonly string[];
  /** The decisions that differ from FIFO: which task ran, and which FIFO would have run. */
  readonly deviations: readonly {
    readonly decision: number;
    readonly t: number;
    readonly chosen: string;
    readonly fifo: string;
  }[];
  /** The report's text (SeedReport.render()). */
  readonly text: string;
}

export interface RunStartEvent {
  readonly type: "run-start";
  readonly seed: number;
  readonly settings: {
    readonly maxExamples: number;
    readonly derandomize: boolean;
    readonly deadline: number | null;
    readonly database: string | null;
    readonly phases: readonly Phase[];
  };
}
export interface PhaseEvent {
  readonly type: "phase";
  readonly phase: Phase;
}
/** The best score seen so far per target() label (sent when one rises, in generation and in the target phase). */
export interface TargetsEvent {
  readonly type: "targets";
  readonly best: Readonly<Record<string, number>>;
}
export interface TestCaseEvent {
  readonly type: "test-case";
  readonly id: number;
  readonly origin: CaseOrigin;
  /** The shrink pass that proposed it, for shrink cases. */
  readonly pass?: string;
  readonly choices: readonly ChoiceInfo[];
  readonly spans: readonly SpanInfo[];
  readonly status: StatusName;
  readonly durationMs: number;
  readonly events: readonly string[];
  /** A machine's case: its steps (properties present their arguments only in the result). */
  readonly presentation?: Presentation;
}
export interface TreeEvent {
  readonly type: "tree";
  readonly newNodes: number;
  readonly totalNodes: number;
  readonly exhaustedDepths: readonly number[];
  readonly rootExhausted: boolean;
}
export interface ShrinkPassEvent {
  readonly type: "shrink-pass";
  readonly pass: string;
  readonly state: "start" | "end";
  /** Property calls spent in this pass so far, and how many candidates it had accepted. */
  readonly calls: number;
  readonly accepted: number;
}
export interface ShrinkCandidateEvent {
  readonly type: "shrink-candidate";
  readonly pass: string;
  readonly choices: readonly ChoiceInfo[];
  /** Candidate against the current target: negative order means the candidate is simpler. */
  readonly comparison: SortKeyComparison;
  readonly status: StatusName;
  readonly accepted: boolean;
  /** Answered by the DataTree without calling the property. */
  readonly cached: boolean;
}
export interface ShrinkTargetEvent {
  readonly type: "shrink-target";
  readonly pass: string;
  readonly choices: readonly ChoiceInfo[];
  readonly spans: readonly SpanInfo[];
  /** A machine's target: its steps. */
  readonly presentation?: Presentation;
}
/**
 * What a run did. `examples` are the test cases that searched for a failure (explicit examples, saved failures
 * replayed, generated and targeted cases) — "failed after N test cases" counts these — and `valid`, `invalid`
 * (rejected by assume() or a filter) and `overrun` split them; `duplicates` were drawn but not run (the same
 * choices, or a value a filter reached again); `events` counts event() labels over the examples. Shrinking is
 * counted apart: `shrinkCalls`, `shrinkCases` and `shrinks`.
 */
export interface RunStatistics {
  readonly examples: number;
  readonly valid: number;
  readonly invalid: number;
  readonly overrun: number;
  readonly duplicates: number;
  /** Calls of the property while shrinking; shrinkCases adds the candidates rejected before it ran (a filter, an overrun). */
  readonly shrinkCalls: number;
  readonly shrinkCases: number;
  readonly shrinks: number;
  readonly timeMs: number;
  readonly events: Readonly<Record<string, number>>;
}
export interface ResultEvent {
  readonly type: "result";
  readonly outcome: "passed" | "failed" | "exhausted" | "gave-up";
  readonly seed: number;
  readonly statistics: RunStatistics;
  /** For failures: the minimal arguments printed as TypeScript, and the error. */
  readonly repro?: string;
  readonly error?: { readonly name: string; readonly message: string; readonly stack?: string };
  readonly choices?: readonly ChoiceInfo[];
  /** Why shrinking stopped early, if it did (budget). */
  readonly shrinkStopped?: string;
  /** For failures: the minimal case as arguments or steps. */
  readonly presentation?: Presentation;
  /** For a failure found by exploring schedules (simTest): the failing seed's schedule and timeline. */
  readonly schedule?: ScheduleInfo;
  /** For a give-up by a health check: its name (filterTooMuch, tooSlow, dataTooLarge). */
  readonly healthCheck?: string;
  /** For failures: the minimal example did not fail again when replayed. */
  readonly flaky?: boolean;
  /** For a failure replayed from the example database: when it was saved there (ms since the epoch), if known. */
  readonly savedAt?: number;
  readonly message: string;
}

export type EngineEvent =
  | RunStartEvent
  | PhaseEvent
  | TargetsEvent
  | TestCaseEvent
  | TreeEvent
  | ShrinkPassEvent
  | ShrinkCandidateEvent
  | ShrinkTargetEvent
  | ResultEvent;
