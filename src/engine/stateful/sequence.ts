/**
 * Running one sequence of a machine (machine.ts describes the design): a fresh instance, its initialize rules,
 * the swarm flags, then steps while a rule may run and the "another step?" flag says so, each drawn from the
 * case — the rules open now, one of them, its arguments (a strategy's value, or an entry of a bundle) — with
 * the invariants after each and teardown after all, whatever happened. It records the trace the sequence passes
 * read, and the steps as statements when presenting; and whether any rule could run from an initial state, so
 * that a run that tested nothing says so.
 */
import type { TestCase } from "../core/testCase.ts";
import type { StepInfo } from "../events/events.ts";
import { drive } from "../property/driver.ts";
import { literalOrPlaceholder } from "../property/failureMessage.ts";
import { isData } from "../property/executor.ts";
import { analyze } from "../print/sharing.ts";
import { Strategy } from "../strategies/strategy.ts";
import { invalid } from "../util/errors.ts";
import { isThenable } from "../util/thenable.ts";
import { Consumed } from "./bundle.ts";
import type { BundleDraw, StepTrace } from "./sequencePasses.ts";
import type { AnyFn, FailedIn, Machine, Rule } from "./spec.ts";
import { enoughEntries } from "./spec.ts";
import { awaitLast, key, member, presentationOf, Run } from "./steps.ts";

const API = "machine";
/** An st.data() argument as a step prints it: the object cannot be written down, its draws are listed apart. */
const DATA_ARGUMENT = "/* st.data(): its draws are listed below the steps */ undefined";

const SWARM = { p: 0.5 };

/** The rules (indices) that may run now, swarm flags aside: precondition true, every bundle argument non-empty. */
function openRules(run: Run, state: object): readonly number[] {
  const m = run.m;
  if (m.allOpen !== undefined) return m.allOpen; // no preconditions, no bundle arguments: nothing to ask
  const out: number[] = [];
  const rules = m.rules;
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    if (!enoughEntries(r.needs, (b) => run.bundles[b]!.length)) continue;
    if (r.precondition !== undefined) {
      run.failedIn = r.failed;
      run.inPrecondition = true;
      const answer: unknown = r.precondition(state);
      run.failedIn = undefined;
      run.inPrecondition = false;
      // Truthiness, as in an if: `(s) => s.items.length` is a precondition. A promise is truthy and says nothing.
      if (isThenable(answer))
        invalid(API, `rule "${r.name}": its precondition returned a promise; a precondition must answer synchronously`);
      const ok = Boolean(answer);
      if (!ok) continue;
    }
    out.push(i);
  }
  return out;
}

/**
 * Record whether any rule could run from a sequence's initial state; if none could, why each could not. Read
 * from openRules' answer, so no precondition is asked twice: a rule left out with its bundles non-empty was
 * left out by its precondition.
 */
function noteInitial(run: Run, open: readonly number[]): void {
  const seen = run.m.initial;
  if (open.length > 0) seen.open = true;
  else if (!seen.open && seen.closed === undefined) {
    seen.closed = run.m.rules.map((r) => {
      const empty = [...new Set(r.needs.filter((b) => run.bundles[b]!.length === 0))].map(
        (b) => `"${run.m.bundles[b]!.name}"`,
      );
      return empty.length > 0
        ? `rule "${r.name}" draws from bundle${empty.length > 1 ? "s" : ""} ${empty.join(", ")}, empty there`
        : `rule "${r.name}": its precondition is false there`;
    });
  }
}

/** The InvalidArgument's message when no sequence of the run could run a rule (PropertyDefinition.untested). */
export function untested(m: Machine): string | undefined {
  const why = m.initial.open ? undefined : m.initial.closed;
  if (why === undefined) return undefined;
  return `${API}: no rule of ${m.className} could run from the initial state of any sequence, so every sequence had zero steps and nothing was tested: ${why.join("; ")}. Give a rule that can run from the initial state (a precondition true there; a bundle an initialize rule fills).`;
}

/** Integer constraints 0..n-1 toward 0, shared per n (a step draws one or more: allocating each adds up). */
const INDEX_CONSTRAINTS: { min: number; max: number; shrinkTowards: number }[] = [];
function indexConstraints(n: number): { min: number; max: number; shrinkTowards: number } {
  if (n > 256) return { min: 0, max: n - 1, shrinkTowards: 0 };
  return (INDEX_CONSTRAINTS[n] ??= Object.freeze({ min: 0, max: n - 1, shrinkTowards: 0 }) as {
    min: number;
    max: number;
    shrinkTowards: number;
  });
}

const NO_ARGUMENT = Symbol("no argument");
const NO_DRAWS: BundleDraw[] = [];

/**
 * Draw a rule's arguments (the argument object, or NO_ARGUMENT for a rule without `args`) and record the step
 * when presenting. `trace` gets the bundle draws of a step.
 */
function drawArguments(
  run: Run,
  rule: Rule,
  kind: "initialize" | "rule",
  trace: StepTrace | undefined,
): Record<string, unknown> | typeof NO_ARGUMENT {
  // The health window times draws (tooSlow): a machine's step arguments are its generated input, drawn here.
  const tc = run.tc;
  return tc.drawMs < 0
    ? drawStepArguments(run, rule, kind, trace)
    : tc.timedDraw(() => drawStepArguments(run, rule, kind, trace));
}

function drawStepArguments(
  run: Run,
  rule: Rule,
  kind: "initialize" | "rule",
  trace: StepTrace | undefined,
): Record<string, unknown> | typeof NO_ARGUMENT {
  const { m, tc } = run;
  let argObj: Record<string, unknown> | typeof NO_ARGUMENT = NO_ARGUMENT;
  const printed: string[] | undefined = run.steps === undefined ? undefined : [];
  const argSpans: { name: string; text: string; start: number; end: number }[] | undefined =
    printed === undefined || rule.args === undefined ? undefined : [];
  const start = tc.choiceCount;
  if (rule.args !== undefined) {
    argObj = {};
    for (const [k, src] of rule.args) {
      const from = tc.choiceCount;
      if (src instanceof Strategy) {
        const v = src.draw(tc);
        argObj[k] = v;
        printed?.push(`${key(k)}: ${isData(src) ? DATA_ARGUMENT : literalOrPlaceholder(v)}`);
      } else {
        const b = src instanceof Consumed ? src.bundle : src;
        const bi = m.bundles.indexOf(b);
        const entries = run.bundles[bi]!;
        if (entries.length === 0)
          invalid(
            API,
            `initialize rule "${rule.name}" draws from bundle "${b.name}", which is empty when it runs (only earlier initialize rules can fill it)`,
          );
        const node = tc.choiceCount;
        const i = tc.draw("integer", indexConstraints(entries.length));
        const e = entries[i]!;
        if (trace !== undefined) {
          if (trace.draws === NO_DRAWS) trace.draws = [];
          trace.draws.push({ node, bundle: bi, entry: e.id, consumed: src instanceof Consumed });
        }
        if (src instanceof Consumed) entries.splice(i, 1);
        argObj[k] = e.value;
        printed?.push(`${key(k)}: ${e.name}`);
      }
      if (argSpans !== undefined)
        argSpans.push({ name: k, text: printed![printed!.length - 1]!, start: from, end: tc.choiceCount });
    }
  }
  if (trace !== undefined) trace.end = tc.choiceCount;
  if (run.steps !== undefined && printed !== undefined) {
    const ti = rule.targetIndex;
    const name = ti < 0 ? undefined : `${rule.target!.name}_${run.counters[ti]}`;
    // Drawn arguments that share an object (src === dst, drawn from one list of objects) print as one literal that
    // keeps the sharing, the bundle arguments spread beside it: two literals would make a repro that passes.
    const shared = argObj !== NO_ARGUMENT && rule.args !== undefined ? sharedDrawn(rule, argObj) : undefined;
    if (shared !== undefined) argSpans?.splice(0);
    const args =
      argObj === NO_ARGUMENT
        ? ""
        : shared !== undefined
          ? sharedArgs(
              shared,
              printed.filter((_, i) => !(rule.args![i]![1] instanceof Strategy)),
            )
          : printed.length === 0
            ? "{}"
            : `{ ${printed.join(", ")} }`;
    const call = `state${member(rule.name)}(${args});`;
    const step: StepInfo = {
      kind,
      name: rule.name,
      args,
      ...(name !== undefined ? { target: name } : {}),
      code: name !== undefined ? `const ${name} = ${call}` : call,
      start: trace?.start ?? start,
      end: tc.choiceCount,
      ...(argSpans !== undefined && argSpans.length > 0 ? { argSpans } : {}),
    };
    run.steps.push(step);
  }
  return argObj;
}

/** Call a rule with its drawn arguments, as `failed` (what the Explanation names if it throws); its raw result. */
function call(
  run: Run,
  state: Record<string, AnyFn>,
  rule: Rule,
  args: Record<string, unknown> | typeof NO_ARGUMENT,
  failed: FailedIn,
): unknown {
  run.failedIn = failed;
  return args === NO_ARGUMENT ? state[rule.name]!.call(state) : state[rule.name]!.call(state, args);
}

/** A call's rejection, delivered to the sequence as a value (the driver never throws into a generator). */
class Rejected {
  constructor(readonly error: unknown) {}
}

/** A call's promise, settled: its value, or its rejection as a Rejected. */
async function outcome(p: PromiseLike<unknown>): Promise<unknown> {
  try {
    return await p;
  } catch (e) {
    return new Rejected(e);
  }
}

/**
 * Wait, inside the sequence, for a call that returned a thenable: its value, or its rejection thrown here, where
 * the sequence's own catch and teardown see it. Delegated to (yield*) only for such calls.
 */
function* settled(p: PromiseLike<unknown>): Generator<Promise<unknown>, unknown, unknown> {
  const out = yield outcome(p);
  if (out instanceof Rejected) throw out.error;
  return out;
}

/** The driver's step for a sequence: what it yields is already the promise to wait for. */
export const waitFor = (p: Promise<unknown>): Promise<unknown> => p;

/** Put a rule's result into its target bundle. */
function keepResult(run: Run, rule: Rule, out: unknown, trace: StepTrace | undefined): void {
  const ti = rule.targetIndex;
  if (ti < 0) return;
  const id = run.nextEntry++;
  run.bundles[ti]!.push({ id, name: `${rule.target!.name}_${run.counters[ti]}`, value: out });
  run.counters[ti]!++;
  if (trace !== undefined) trace.produced = id;
  else run.trace.initEntries[ti]!.push(id);
}

/**
 * One sequence on a fresh instance; every decision drawn from the run's test case. A call that returns a
 * thenable is waited for (settled); the others continue at once, with no generator round trip or delegated
 * generator each, since a sequence makes hundreds of calls. Reading a result's `then` runs user code (a getter),
 * so it happens here, where a throw is the call's failure.
 */
export function* sequence(run: Run): Generator<Promise<unknown>, void, unknown> {
  const { m, tc } = run;
  const state = new m.Class() as Record<string, AnyFn>;
  // A constructor may return another object; one that is not an instance of the class has none of its rules.
  if (!(state instanceof m.Class))
    invalid(
      API,
      `new ${m.className}() returned ${isThenable(state) ? "a promise" : "an object that is not a " + m.className}: a machine's state is built synchronously by its constructor (do async set-up in an initialize rule)`,
    );
  try {
    for (const rule of m.initialize) {
      tc.startSpan("initialize");
      let out = call(run, state, rule, drawArguments(run, rule, "initialize", undefined), rule.failedInit);
      if (isThenable(out)) {
        if (run.steps !== undefined) awaitLast(run.steps);
        out = yield* settled(out);
      }
      run.failedIn = undefined;
      keepResult(run, rule, out, undefined);
      tc.endSpan();
    }
    // Swarm flags: after the initialize rules, so deleting every step leaves them in place.
    const disabled = run.trace.disabled;
    let anyDisabled = false;
    if (m.rules.length > 1) {
      run.trace.swarmStart = tc.choiceCount;
      tc.startSpan("swarm");
      for (let i = 0; i < m.rules.length; i++) {
        const d = tc.draw("boolean", SWARM);
        disabled.push(d);
        anyDisabled ||= d;
      }
      tc.endSpan();
    }
    run.trace.stepsStart = tc.choiceCount;
    const invariants = m.invariantChecks;
    for (let step = 0; ; step++) {
      // The invariants: on the initial state, then after every step.
      for (let i = 0; i < invariants.length; i++) {
        const inv = invariants[i]!;
        run.failedIn = inv;
        const raw = state[inv.name]!.call(state);
        if (isThenable(raw)) {
          if (run.steps !== undefined) run.awaited.add(inv.name);
          yield* settled(raw);
        }
      }
      run.failedIn = undefined;
      if (step >= m.stepCount) break;
      const open = openRules(run, state);
      // Some rule is always open when allOpen: nothing to record.
      if (step === 0 && m.allOpen === undefined) noteInitial(run, open);
      if (open.length === 0) break;
      let applicable = anyDisabled ? open.filter((r) => !disabled[r]) : open;
      if (applicable.length === 0) applicable = open;
      const start = tc.choiceCount;
      tc.startSpan("step");
      if (!tc.draw("boolean", m.more)) {
        tc.endSpan();
        break;
      }
      const ruleNode = tc.choiceCount;
      const ri = applicable[tc.draw("integer", indexConstraints(applicable.length))]!;
      const rule = m.rules[ri]!;
      const trace: StepTrace = { start, ruleNode, end: start, rule: ri, open, draws: NO_DRAWS, produced: -1 };
      run.trace.steps.push(trace);
      let out = call(run, state, rule, drawArguments(run, rule, "rule", trace), rule.failed);
      if (isThenable(out)) {
        if (run.steps !== undefined) awaitLast(run.steps);
        out = yield* settled(out);
      }
      run.failedIn = undefined;
      keepResult(run, rule, out, trace);
      tc.endSpan();
    }
    run.trace.end = tc.choiceCount;
  } catch (e) {
    run.state = describeState(state);
    throw e;
  } finally {
    const teardown = state.teardown;
    if (typeof teardown === "function") {
      const raw = teardown.call(state);
      if (isThenable(raw)) {
        if (run.steps !== undefined) run.awaited.add("teardown");
        yield* settled(raw);
      }
    }
  }
}

/** The machine's own toString(), when its class defines one. */
function describeState(state: object): string | undefined {
  try {
    const ts = (state as { toString?: unknown }).toString;
    if (typeof ts !== "function" || ts === Object.prototype.toString) return undefined;
    return String(ts.call(state));
  } catch {
    return undefined;
  }
}

/** The body of the machine's property: one sequence, its trace kept on the case (and its steps when presenting). */
export function runCase(m: Machine, tc: TestCase): void | Promise<void> {
  const run = new Run(m, tc, tc.presenting);
  tc.trace = run.trace;
  if (run.steps === undefined) return drive(sequence(run), waitFor);
  const done = () => {
    tc.presentation = presentationOf(run, false);
  };
  let out: void | Promise<void>;
  try {
    out = drive(sequence(run), waitFor);
  } catch (e) {
    done();
    throw e;
  }
  if (out === undefined) return done();
  return out.then(done, (e: unknown) => {
    done();
    throw e;
  });
}

/** A step's argument: the shared literal alone, or spread beside the bundle arguments. */
function sharedArgs(shared: string, bundles: readonly string[]): string {
  return bundles.length === 0 ? shared : `{ ${[`...${shared}`, ...bundles].join(", ")} }`;
}

/**
 * The strategy-drawn arguments of a step printed as one object literal, when two of them reach a common object;
 * undefined otherwise (each argument prints on its own).
 */
function sharedDrawn(rule: Rule, argObj: Record<string, unknown>): string | undefined {
  const drawn: Record<string, unknown> = {};
  const values: unknown[] = [];
  for (const [k, src] of rule.args!) {
    if (!(src instanceof Strategy)) continue;
    drawn[k] = argObj[k];
    values.push(argObj[k]);
  }
  if (values.length < 2) return undefined;
  try {
    if (!analyze(values).crossesRoots) return undefined;
  } catch {
    return undefined;
  }
  return literalOrPlaceholder(drawn);
}
