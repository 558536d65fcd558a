/**
 * A machine's failure as its steps (PropertyDefinition.present): the run's minimal choices replayed once on a
 * fresh instance, recording, which gives the steps, the executable repro (`const state = new Ledger();` and a
 * statement per call), the Explanation and the machine's toString() at the failing step; the failure's message
 * rewritten around them, with the explain phase's free arguments marked, and a hint about state kept outside
 * the instance when the steps did not fail again.
 */
import { setCurrent } from "../core/context.ts";
import type { Slice } from "../core/explain.ts";
import { TestCase } from "../core/testCase.ts";
import type { Presentation, StepInfo } from "../events/events.ts";
import { drive } from "../property/driver.ts";
import { PropertyFailure } from "../property/errors.ts";
import { explainedLines, literalOrPlaceholder } from "../property/failureMessage.ts";
import { clearRealTimeout, setRealTimeout } from "../util/realTimers.ts";
import { sequence, waitFor } from "./sequence.ts";
import type { Machine } from "./spec.ts";
import { explain, presentationOf, Run } from "./steps.ts";

const LEAK_HINT =
  "Flaky machine: the same steps gave different outcomes. State kept outside the instance (a module-level variable, a class field marked static, a shared cache) and not reset by teardown() — which runs after every sequence — is the usual cause.";

/** The steps with the explain phase's free arguments marked (`free`), when it found any. */
function markFree(steps: readonly StepInfo[], free: readonly Slice[]): StepInfo[] {
  return steps.map((st) => {
    const names = (st.argSpans ?? [])
      .filter((a) => free.some((f) => f.start === a.start && f.end === a.end))
      .map((a) => a.name);
    return names.length === 0 ? st : { ...st, free: names };
  });
}

/** A step as printed in the failure message: one argument per line, the free ones commented, when any is free. */
function explainedCode(st: StepInfo): string[] {
  const { free, argSpans } = st;
  // The statement ends with the call's argument object, `st.args`: the lines replace it between its braces.
  const at = st.code.lastIndexOf(st.args);
  if (free === undefined || argSpans === undefined || at < 0) return [st.code];
  const lines = explainedLines(argSpans.map((a) => ({ text: a.text, free: free.includes(a.name) })));
  return [`${st.code.slice(0, at)}{`, ...lines, `}${st.code.slice(at + st.args.length)}`];
}

/** Replay the failure's choices once, recording; rewrite the failure with the steps, the repro and the Explanation. */
export function present(
  m: Machine,
  failure: PropertyFailure,
  free: readonly Slice[] = [],
): PropertyFailure | Promise<PropertyFailure> {
  const fresh = new TestCase(failure.choices as never, null, Math.max(8192, failure.choices.length + 1));
  const run = new Run(m, fresh, true);
  const previous = setCurrent(fresh);
  let out: void | Promise<void>;
  try {
    out = drive(sequence(run), waitFor);
  } catch {
    return rewrite(m, failure, run, true, free);
  } finally {
    setCurrent(previous);
  }
  if (out === undefined) return rewrite(m, failure, run, false, free);
  // An async replay gets the run's `timeout` too: a sequence that hung during the run hangs here as well, and
  // must not keep the failure from being reported (with no timer pending, the process would just exit).
  return new Promise<PropertyFailure>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (threw: boolean) => {
      if (timer !== undefined) clearRealTimeout(timer);
      timer = undefined;
      resolve(rewrite(m, failure, run, threw, free));
    };
    if (m.timeout !== null) timer = setRealTimeout(() => done(true), m.timeout);
    out.then(
      () => done(false),
      () => done(true),
    );
  });
}

function rewrite(
  m: Machine,
  failure: PropertyFailure,
  run: Run,
  threw: boolean,
  free: readonly Slice[],
): PropertyFailure {
  // A sequence over the deadline (or the timeout) replays without throwing: its steps are still what to print.
  const overTime = !threw && ranOverTime(failure.cause);
  if (!threw && !failure.flaky && !overTime) return failure; // a reproducible failure throws; keep the engine's report
  const recorded = presentationOf(run, threw || overTime);
  const steps = recorded.kind === "steps" ? markFree(recorded.steps, free) : [];
  const presentation: Presentation = recorded.kind === "steps" ? { ...recorded, steps } : recorded;
  const lines = [`const state = new ${m.className}();`, ...steps.map((s) => s.code)];
  const repro = lines.join("\n");
  const printed = [`const state = new ${m.className}();`, ...steps.flatMap(explainedCode)];
  const explanation = overTime
    ? `Explanation: the sequence of ${run.steps?.length ?? 0} steps ran over time (${errorName(failure.cause)}): a machine's deadline and timeout judge a whole sequence, not each step — raise them (deadline: null turns the deadline off) when its steps are slow by design`
    : !threw
      ? "Explanation: these steps did not fail when replayed (see the flakiness report below)"
      : explain(run);
  const blocks = failure.message.split("\n\n");
  const at = blocks.findIndex((b) => /^(Minimal failing|Failing) arguments/.test(b));
  const head = blocks[0]!.replace(/^Property failed/, "Machine failed");
  // The engine's own words are about arguments; a machine's case is its steps.
  const tail = (at >= 0 ? blocks.slice(at + 1) : blocks.slice(1)).map((b) =>
    b.replace(/^Shown: the arguments of/m, "Shown: the steps of"),
  );
  const parts = [
    head,
    `Steps (TypeScript${failure.flaky ? "; flaky, so not shrunk" : ""}):\n${printed.map((l) => `  ${l}`).join("\n")}`,
    explanation,
  ];
  // Values a rule drew itself (an st.data() argument): in the order drawn, as a property's report lists them.
  const draws = run.tc.interactiveDraws;
  if (draws.length > 0)
    parts.push(
      `Drawn in the steps (st.data()):\n${draws.map((d, i) => `  draw ${i + 1}${d.label ? ` (${String(d.label)})` : ""}: ${literalOrPlaceholder(d.value)}`).join("\n")}`,
    );
  if (run.state !== undefined) parts.push(`State at the failing step:\n  ${run.state.split("\n").join("\n  ")}`);
  if (failure.flaky) parts.push(LEAK_HINT);
  const message = [...parts, ...tail].join("\n\n");
  const shown: Presentation = { ...presentation, ...(threw ? {} : { explanation }) };
  return new PropertyFailure(
    message,
    [],
    failure.cause,
    repro,
    failure.seed,
    failure.statistics,
    failure.choices,
    failure.flaky,
    steps,
    shown,
  );
}

/** The name of an error the engine raised for time: DeadlineExceeded or TimeoutError (never throws). */
function errorName(error: unknown): string {
  try {
    return error instanceof Error ? String(error.name) : "";
  } catch {
    return "";
  }
}

function ranOverTime(error: unknown): boolean {
  const name = errorName(error);
  return name === "DeadlineExceeded" || name === "TimeoutError";
}
