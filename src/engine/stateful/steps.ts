/**
 * A sequence's record while it runs (Run: its bundles' values, its trace for the shrink passes, and — when
 * presenting — its steps as statements), and those steps as a person reads them: each call printed as the
 * TypeScript that replays it (`const accounts_0 = state.open({ name: "a" });`, `await` before a call that
 * returned a promise), the Explanation of a failed sequence, and the step arguments the explain phase varies.
 */
import type { Slice } from "../core/explain.ts";
import type { TestCase } from "../core/testCase.ts";
import type { Presentation, StepInfo } from "../events/events.ts";
import type { SequenceTrace } from "./sequencePasses.ts";
import type { FailedIn, Machine } from "./spec.ts";
import { IDENTIFIER } from "./bundle.ts";

/** A value in a bundle: its id in the sequence (the trace's), and its variable in the printed steps. */
export type Entry = { readonly id: number; readonly name: string; readonly value: unknown };

/** Where a sequence is while it runs: for the trace, the recording and the Explanation. */
export class Run {
  readonly bundles: Entry[][];
  readonly counters: number[];
  nextEntry = 0;
  readonly trace: SequenceTrace;
  /** The statements so far, when recording. */
  readonly steps: StepInfo[] | undefined;
  failedIn: FailedIn | undefined;
  /** Invariants (and "teardown") that returned a promise, when recording: the repro awaits their calls. */
  readonly awaited = new Set<string>();
  /** failedIn names a rule whose precondition was being asked, not the rule itself. */
  inPrecondition = false;
  state: string | undefined;
  constructor(
    readonly m: Machine,
    readonly tc: TestCase,
    recording: boolean,
  ) {
    this.bundles = m.bundles.map(() => []);
    this.counters = m.bundles.map(() => 0);
    this.trace = {
      steps: [],
      initEntries: m.bundles.map(() => []),
      swarmStart: -1,
      disabled: [],
      stepsStart: 0,
      end: 0,
    };
    this.steps = recording ? [] : undefined;
  }
}

/** An argument's key as printed in its object: as it is when an identifier, quoted otherwise. */
export function key(k: string): string {
  return IDENTIFIER.test(k) ? k : JSON.stringify(k);
}

/** `.name`, or `["a name"]` when it is not an identifier: the repro must parse whatever the methods are called. */
export function member(name: string): string {
  return IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** The step just recorded returned a promise: the repro awaits it (a bundle then holds the resolved value). */
export function awaitLast(steps: StepInfo[]): void {
  const last = steps[steps.length - 1];
  if (last === undefined) return;
  steps[steps.length - 1] = { ...last, code: last.code.replace(/^(const [\w$]+ = )?/, "$1await ") };
}

/** The steps recorded so far as the case's presentation; `closing`: the sequence has ended, with its invariant and teardown calls. */
export function presentationOf(run: Run, closing: boolean): Presentation {
  const m = run.m;
  const steps = [...run.steps!];
  const failed = run.failedIn;
  const call = (name: string) => `${run.awaited.has(name) ? "await " : ""}state${member(name)}();`;
  if (closing && failed?.kind === "invariant")
    steps.push({ kind: "invariant", name: failed.name, args: "", code: call(failed.name) });
  if (closing && typeof (m.Class.prototype as { teardown?: unknown }).teardown === "function")
    steps.push({ kind: "teardown", name: "teardown", args: "", code: call("teardown") });
  return {
    kind: "steps",
    className: m.className,
    steps,
    ...(failed !== undefined ? { failedIn: failed, explanation: explain(run) } : {}),
    ...(run.state !== undefined ? { state: run.state } : {}),
  };
}

/** The Explanation line of a failed sequence. */
export function explain(run: Run): string {
  const failed = run.failedIn;
  if (failed === undefined) return "Explanation: the machine's constructor or teardown threw";
  if (run.inPrecondition) return `Explanation: the precondition of rule ${failed.name} threw`;
  return `Explanation: assertion failed in ${failed.kind === "invariant" ? "invariant" : "rule"} ${failed.name}`;
}

/** A machine's slices for the explain phase: each step argument (read from the case's recorded steps). */
export function stepArgumentSlices(tc: TestCase): Slice[] {
  const p = tc.presentation;
  if (p === undefined || p.kind !== "steps") return [];
  return p.steps.flatMap((st) =>
    (st.argSpans ?? []).filter((a) => a.end > a.start).map((a) => ({ start: a.start, end: a.end })),
  );
}
