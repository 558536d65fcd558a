/**
 * Messages between the runner process, the extension host and the panel — typed constants with a guard each.
 *
 *   extension host ──RunRequest──▶ runner (child process, IPC with "advanced" serialisation)
 *   runner ──RunnerMessage──▶ extension host ──PanelMessage──▶ webview
 *   webview ──WebviewMessage──▶ extension host   (untrusted: every message goes through its guard)
 *
 * The engine's events are the payload the runner streams, in batches. Type-only imports keep this file free
 * of runtime dependencies on the engine, so the webview can import it.
 */
import type { EngineEvent, Presentation, RunObserver, ScheduleInfo } from "../engine/internals.ts";

export type {
  EngineEvent,
  RunStartEvent,
  PhaseEvent,
  TestCaseEvent,
  TreeEvent,
  ShrinkPassEvent,
  ShrinkCandidateEvent,
  ShrinkTargetEvent,
  ResultEvent,
  ChoiceInfo,
  SpanInfo,
  RunStatistics,
  Presentation,
  StepInfo,
  ScheduleInfo,
  Phase,
  StatusName,
  CaseOrigin,
  SortKeyComparison,
  ChoiceType,
  ChoiceValue,
} from "../engine/internals.ts";

// ------------------------------------------------------------------------------------ host → runner

/**
 * Settings the extension passes to the engine for one run. Each one given wins over the property's own setting
 * (the engine layers them on top); the property's other settings still apply.
 */
export interface RunSettings {
  readonly maxExamples?: number;
  /** Steps per state-machine sequence at most (machine() only). */
  readonly stepCount?: number;
  readonly seed?: number;
  readonly deadline?: number | null;
  /** Absolute folder of the example database, or null for none. */
  readonly database?: string | null;
  /** A redis:// URL of a database shared with other machines, joined to `database` (docs/databases.md). */
  readonly sharedDatabase?: string;
  /** Replay the saved minimal example only: no generation, no shrinking (Debug property). */
  readonly replayOnly?: boolean;
  /** Do not replay the database's saved failures (the panel's "Run fresh"); a failure found is still saved. */
  readonly fresh?: boolean;
}

export interface RunRequest {
  readonly type: "run";
  /** Absolute path of the test file. */
  readonly file: string;
  /** The test to run: enclosing describe names, then the test name. */
  readonly testPath: readonly string[];
  readonly workspaceRoot: string;
  readonly settings: RunSettings;
}

export interface StopRequest {
  readonly type: "stop";
}

export type HostToRunner = RunRequest | StopRequest;

// ------------------------------------------------------------------------------------ runner → host

export interface SourceLocation {
  readonly file: string;
  /** 1-based line and column. */
  readonly line: number;
  readonly column: number;
}

export interface CompileError {
  readonly message: string;
  readonly location: SourceLocation | undefined;
}

export interface FailureReport {
  readonly message: string;
  /**
   * The minimal example as TypeScript: a property's arguments, comma-separated, or a machine's statements
   * (`const state = new M(); …`). `presentation` says which, and gives a machine's steps one by one.
   */
  readonly repro: string;
  readonly presentation: Presentation;
  /** A failure found by exploring schedules (simTest): the seed, the shrunk schedule, the minimal run's timeline. */
  readonly schedule?: ScheduleInfo;
  readonly seed: number;
  readonly error: { readonly name: string; readonly message: string; readonly stack?: string };
  /** Where the original error was thrown, in the user's file, if found. */
  readonly location: SourceLocation | undefined;
  readonly flaky: boolean;
}

/** Engine events, batched; `dropped` counts test-case events summarised away under pressure. */
export interface EventsMessage {
  readonly type: "events";
  readonly events: readonly EngineEvent[];
  readonly dropped: number;
}

export interface CompileErrorMessage {
  readonly type: "compile-error";
  readonly errors: readonly CompileError[];
}

export interface LogMessage {
  readonly type: "log";
  readonly stream: "stdout" | "stderr";
  readonly text: string;
}

export type RunOutcome = "passed" | "failed" | "error" | "not-found" | "stopped";

export interface DoneMessage {
  readonly type: "done";
  readonly outcome: RunOutcome;
  /** For "failed": the shrunk failure. */
  readonly failure?: FailureReport;
  /** For "error" and "not-found": what went wrong, in a sentence. */
  readonly reason?: string;
  /** The names of the tests the file registered (helps when "not-found"). */
  readonly tests?: readonly (readonly string[])[];
}

export type RunnerMessage = EventsMessage | CompileErrorMessage | LogMessage | DoneMessage;

// ------------------------------------------------------------------------------------ webview ↔ host

/** Host → webview. */
export type PanelMessage =
  | {
      readonly type: "run-started";
      readonly title: string;
      readonly file: string;
      readonly testPath: readonly string[];
      /** Which path runs it: the user's test runner ("vitest", "jest", "mocha", "node:test") or "bundled runner". */
      readonly via?: string;
    }
  | { readonly type: "events"; readonly events: readonly EngineEvent[]; readonly dropped: number }
  | {
      readonly type: "run-finished";
      readonly outcome: RunOutcome;
      readonly failure?: FailureReport;
      readonly reason?: string;
    };

/**
 * A PanelMessage as the host posts it: a batch's events as UTF-8 bytes (src/shared/eventWire.ts) — VS Code carries an
 * ArrayBuffer to the webview as bytes, without cloning an object graph (or a long string) at every hop, and the
 * panel hands them to its fold worker without a copy. The fold decodes them into a PanelMessage.
 */
export type PostedPanelMessage =
  | Exclude<PanelMessage, { readonly type: "events" }>
  | { readonly type: "events"; readonly wire: Uint8Array; readonly dropped: number };

/** Webview → host. Untrusted: validated by isWebviewMessage before use. */
export type WebviewMessage =
  | { readonly type: "ready" }
  | { readonly type: "copy-repro" }
  | { readonly type: "convert-to-test" }
  | { readonly type: "debug" }
  | { readonly type: "run-fresh" }
  | { readonly type: "open-location"; readonly file: string; readonly line: number; readonly column: number };

const WEBVIEW_TYPES = new Set(["ready", "copy-repro", "convert-to-test", "debug", "run-fresh", "open-location"]);

export function isWebviewMessage(x: unknown): x is WebviewMessage {
  if (typeof x !== "object" || x === null) return false;
  const m = x as Record<string, unknown>;
  if (typeof m.type !== "string" || !WEBVIEW_TYPES.has(m.type)) return false;
  if (m.type === "open-location") {
    return (
      typeof m.file === "string" &&
      m.file.length < 4096 &&
      Number.isInteger(m.line) &&
      (m.line as number) >= 1 &&
      Number.isInteger(m.column) &&
      (m.column as number) >= 1
    );
  }
  return Object.keys(m).length === 1;
}

export function isRunnerMessage(x: unknown): x is RunnerMessage {
  if (typeof x !== "object" || x === null) return false;
  const t = (x as { type?: unknown }).type;
  return t === "events" || t === "compile-error" || t === "log" || t === "done";
}

export function isHostToRunner(x: unknown): x is HostToRunner {
  if (typeof x !== "object" || x === null) return false;
  const m = x as Record<string, unknown>;
  if (m.type === "stop") return true;
  return (
    m.type === "run" &&
    typeof m.file === "string" &&
    Array.isArray(m.testPath) &&
    m.testPath.every((s) => typeof s === "string") &&
    typeof m.workspaceRoot === "string" &&
    typeof m.settings === "object" &&
    m.settings !== null
  );
}

/**
 * How the runner hands settings to a property it did not construct: the engine reads this global key and
 * merges it over the property's own settings (see settings.ts). Set only inside the runner process.
 */
export const RUNNER_HOOK = "shrinkscope.runner";

export interface RunnerHook {
  /**
   * The editor's settings and its tap: as an observer (engine/observer.ts), which engines that know one use —
   * it projects only the test cases the runner keeps — and as onEvent, for an engine installed in the
   * workspace that predates observers.
   */
  readonly settings: RunSettings & { readonly onEvent?: (e: EngineEvent) => void; readonly observer?: RunObserver };
}

/**
 * Inside the user's own test runner, the engine finds the extension's tap through these environment variables
 * (src/runner/tap.ts reads them; src/extension/externalRun.ts sets them). The engine reads only `module`.
 */
export const TAP_ENV = {
  /** The folder the messages go to. */
  dir: "SHRINKSCOPE_TAP",
  /** The tap module (dist/tap.cjs): the engine loads it. */
  module: "SHRINKSCOPE_TAP_MODULE",
  /** The editor's RunSettings, as JSON. */
  settings: "SHRINKSCOPE_TAP_SETTINGS",
  /** The test file and the workspace folder, for the failure's location. */
  file: "SHRINKSCOPE_TAP_FILE",
  root: "SHRINKSCOPE_TAP_ROOT",
} as const;

/** In a warm runner's tap folder: the run now being made (JSON: run id, settings, file, root). */
export const CURRENT_RUN_FILE = "current.json";
