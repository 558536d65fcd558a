/**
 * Messages between the runner process, the extension host and the panel. Type-only and shared: the engine's
 * events are the payload the runner streams; the extension and webview layers add their messages here.
 */
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
  Phase,
  StatusName,
  CaseOrigin,
} from "./engine/events.ts";
export type { SortKeyComparison, ChoiceType, ChoiceValue } from "./engine/choices.ts";
