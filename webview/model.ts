/**
 * The panel's view model: a pure fold of the host's messages into what the panel shows. Unit-tested in Node;
 * main.ts only renders it. (The d3 drawings of choice sequences and the DataTree build on this later.)
 */
import type { ChoiceInfo, FailureReport, PanelMessage, RunOutcome } from "../src/protocol.ts";

export interface PanelState {
  readonly title: string;
  readonly file: string;
  readonly phase: string;
  readonly status: "idle" | "running" | RunOutcome;
  readonly testCases: number;
  readonly valid: number;
  readonly invalid: number;
  readonly interesting: number;
  readonly dropped: number;
  readonly treeNodes: number;
  readonly shrinkCalls: number;
  readonly shrinks: number;
  readonly currentPass: string;
  /** The current best failing case (the shrink target), as choices. */
  readonly best: readonly ChoiceInfo[] | undefined;
  readonly failure: FailureReport | undefined;
  readonly reason: string | undefined;
  readonly seed: number | undefined;
}

export const initialState: PanelState = {
  title: "",
  file: "",
  phase: "",
  status: "idle",
  testCases: 0,
  valid: 0,
  invalid: 0,
  interesting: 0,
  dropped: 0,
  treeNodes: 0,
  shrinkCalls: 0,
  shrinks: 0,
  currentPass: "",
  best: undefined,
  failure: undefined,
  reason: undefined,
  seed: undefined,
};

export function reduce(state: PanelState, m: PanelMessage): PanelState {
  switch (m.type) {
    case "run-started":
      return { ...initialState, title: m.title, file: m.file, status: "running" };
    case "run-finished":
      return { ...state, status: m.outcome, failure: m.failure, reason: m.reason, phase: "done" };
    case "events": {
      const s = { ...state, dropped: state.dropped + m.dropped, testCases: state.testCases + m.dropped };
      for (const e of m.events) {
        switch (e.type) {
          case "run-start":
            s.seed = e.seed;
            break;
          case "phase":
            s.phase = e.phase;
            break;
          case "test-case":
            s.testCases++;
            if (e.status === "valid") s.valid++;
            else if (e.status === "invalid" || e.status === "overrun") s.invalid++;
            else {
              s.interesting++;
              if (s.best === undefined || e.origin !== "shrink") s.best = e.choices;
            }
            if (e.origin === "shrink") s.shrinkCalls++;
            break;
          case "tree":
            s.treeNodes = e.totalNodes;
            break;
          case "shrink-pass":
            if (e.state === "start") s.currentPass = e.pass;
            break;
          case "shrink-target":
            s.best = e.choices;
            s.shrinks++;
            break;
          case "result":
            s.shrinkCalls = e.statistics.shrinkCalls;
            break;
        }
      }
      return s;
    }
  }
}

/** A short display of one choice value. */
export function showValue(c: ChoiceInfo): string {
  const v = c.value;
  if (v instanceof Uint8Array) return `bytes[${v.length}]`;
  if (typeof v === "string") return JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v);
  if (typeof v === "number" && Object.is(v, -0)) return "-0";
  return String(v);
}
