/**
 * Rule-based state machines (Hypothesis's RuleBasedStateMachine), built on the ordinary property driver.
 *
 * machine(Class, spec, settings?) is a property with one argument, a strategy that draws nothing and hands the
 * body its test case; the body then runs one sequence on a fresh instance, drawing every decision from that
 * test case, so the engine records, replays and shrinks sequences exactly as it does arguments:
 *
 *   [init args…] [swarm: disabled? per rule] [step: more=true, rule index, rule args…]* more=false
 *
 * - Each initialize rule draws its arguments inside an "initialize" span. Then the swarm flags (Groce et al.'s
 *   swarm testing, as Hypothesis does it): one "disabled?" boolean per rule, so some sequences use only a few
 *   rules and reach states a uniform mix never would (ten `dec` in a row, no `inc`). False is simplest, so
 *   flags shrink toward "all rules enabled". If a sequence disables every rule that applies, all apply.
 * - Each step is one "step" span holding its "another step?" flag, the rule's index among the rules
 *   applicable now (enabled, precondition true, every bundle argument non-empty) and its arguments. Deleting a
 *   step span deletes the step; a zero index is the earliest applicable rule; a bundle draw is an index into
 *   the bundle (toward its first value).
 * - The flag is a boolean with p = L / (L + 1), L = 80 % of stepCount, so sequences use most of stepCount (a
 *   50 % coin would stop after about two steps); at stepCount steps the sequence ends without drawing a flag.
 * - A sequence ends where no rule can run. If no rule could run from the initial state of any sequence, every
 *   sequence had zero steps and the run tested nothing: it throws InvalidArgument naming each rule and why
 *   instead of passing (PropertyDefinition.untested; a failure found meanwhile is still the outcome).
 * - Invariants run once the initialize rules are done (the initial state) and after every step; teardown()
 *   runs after every sequence, whatever happened, shrink candidates included.
 * - Rules, invariants and teardown may be async: the sequence is a generator that yields the promise of each
 *   call that returned a thenable, driven by the property driver's drive() (synchronous until the first such
 *   call, so a sequence whose calls are all synchronous runs straight through, never yielding).
 * - Every run records a trace (steps, their choice positions, bundle draws): the sequence-aware shrink passes
 *   in sequencePasses.ts read it to delete a step while re-pointing later references to its value, and to
 *   enable a disabled rule without changing which rules the steps call.
 * - With events on (the panel), each case also records its steps as statements (TestCase.presentation). On
 *   failure the run's PropertyFailure is rewritten (PropertyDefinition.present): its minimal choices are
 *   replayed once on a fresh instance, recording each step, which gives `steps`, the executable `repro`, the
 *   Explanation (invariant X / rule Y) and the machine's toString() at the failing step.
 */
import * as timers from "node:timers";
import { invalid } from "../util/errors.ts";
import type { Presentation, StepInfo } from "../events/events.ts";
import type { Slice } from "../core/explain.ts";
import { definitionKey } from "../property/key.ts";
import { propertyFromDefinition } from "../property/run.ts";
import { PropertyFailure } from "../property/errors.ts";
import type { Property, PropertyDefinition } from "../property/definition.ts";
import { explainedLines, literalOrPlaceholder } from "../property/failureMessage.ts";
import type { ResolvedSettings } from "../property/settings.ts";
import { Strategy } from "../strategies/strategy.ts";
import { setCurrent } from "../core/context.ts";
import { TestCase } from "../core/testCase.ts";
import { sequencePasses } from "./sequencePasses.ts";
import type { BundleDraw, StepTrace } from "./sequencePasses.ts";
import { awaitLast, explain, key, member, presentationOf, Run, stepArgumentSlices } from "./steps.ts";
import { isThenable } from "../util/thenable.ts";
import { CaseHandle } from "../strategies/caseHandle.ts";
import { Consumed } from "./bundle.ts";
import { readSpec } from "./spec.ts";
import type { AnyFn, FailedIn, Machine, MachineSettings, MachineSpec, Rule } from "./spec.ts";
import { drive } from "../property/driver.ts";

const API = "machine";

const SWARM = { p: 0.5 };

/** The rules (indices) that may run now, swarm flags aside: precondition true, every bundle argument non-empty. */
function openRules(run: Run, state: object): readonly number[] {
  const m = run.m;
  if (m.allOpen !== undefined) return m.allOpen; // no preconditions, no bundle arguments: nothing to ask
  const out: number[] = [];
  const rules = m.rules;
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    if (r.needs.some((b) => run.bundles[b]!.length === 0)) continue;
    if (r.precondition !== undefined) {
      run.failedIn = r.failed;
      run.inPrecondition = true;
      const ok = r.precondition(state) === true;
      run.failedIn = undefined;
      run.inPrecondition = false;
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
      const empty = [...new Set(r.needs.filter((b) => run.bundles[b]!.length === 0))].map((b) => `"${run.m.bundles[b]!.name}"`);
      return empty.length > 0 ? `rule "${r.name}" draws from bundle${empty.length > 1 ? "s" : ""} ${empty.join(", ")}, empty there` : `rule "${r.name}": its precondition is false there`;
    });
  }
}

/** The InvalidArgument's message when no sequence of the run could run a rule (PropertyDefinition.untested). */
function untested(m: Machine): string | undefined {
  const why = m.initial.open ? undefined : m.initial.closed;
  if (why === undefined) return undefined;
  return `${API}: no rule of ${m.className} could run from the initial state of any sequence, so every sequence had zero steps and nothing was tested: ${why.join("; ")}. Give a rule that can run from the initial state (a precondition true there; a bundle an initialize rule fills).`;
}

/** Integer constraints 0..n-1 toward 0, shared per n (a step draws one or more: allocating each adds up). */
const INDEX_CONSTRAINTS: { min: number; max: number; shrinkTowards: number }[] = [];
function indexConstraints(n: number): { min: number; max: number; shrinkTowards: number } {
  if (n > 256) return { min: 0, max: n - 1, shrinkTowards: 0 };
  return (INDEX_CONSTRAINTS[n] ??= Object.freeze({ min: 0, max: n - 1, shrinkTowards: 0 }) as { min: number; max: number; shrinkTowards: number });
}

const NO_ARGUMENT = Symbol("no argument");
const NO_DRAWS: BundleDraw[] = [];

/**
 * Draw a rule's arguments (the argument object, or NO_ARGUMENT for a rule without `args`) and record the step
 * when presenting. `trace` gets the bundle draws of a step.
 */
function drawArguments(run: Run, rule: Rule, kind: "initialize" | "rule", trace: StepTrace | undefined): Record<string, unknown> | typeof NO_ARGUMENT {
  // The health window times draws (tooSlow): a machine's step arguments are its generated input, drawn here.
  const tc = run.tc;
  return tc.drawMs < 0 ? drawStepArguments(run, rule, kind, trace) : tc.timedDraw(() => drawStepArguments(run, rule, kind, trace));
}

function drawStepArguments(run: Run, rule: Rule, kind: "initialize" | "rule", trace: StepTrace | undefined): Record<string, unknown> | typeof NO_ARGUMENT {
  const { m, tc } = run;
  let argObj: Record<string, unknown> | typeof NO_ARGUMENT = NO_ARGUMENT;
  const printed: string[] | undefined = run.steps === undefined ? undefined : [];
  const argSpans: { name: string; text: string; start: number; end: number }[] | undefined = printed === undefined || rule.args === undefined ? undefined : [];
  const start = tc.choiceCount;
  if (rule.args !== undefined) {
    argObj = {};
    for (const [k, src] of rule.args) {
      const from = tc.choiceCount;
      if (src instanceof Strategy) {
        const v = src.draw(tc);
        argObj[k] = v;
        printed?.push(`${key(k)}: ${literalOrPlaceholder(v)}`);
      } else {
        const b = src instanceof Consumed ? src.bundle : src;
        const bi = m.bundles.indexOf(b);
        const entries = run.bundles[bi]!;
        if (entries.length === 0) invalid(API, `initialize rule "${rule.name}" draws from bundle "${b.name}", which is empty when it runs (only earlier initialize rules can fill it)`);
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
      if (argSpans !== undefined) argSpans.push({ name: k, text: printed![printed!.length - 1]!, start: from, end: tc.choiceCount });
    }
  }
  if (trace !== undefined) trace.end = tc.choiceCount;
  if (run.steps !== undefined && printed !== undefined) {
    const ti = rule.targetIndex;
    const name = ti < 0 ? undefined : `${rule.target!.name}_${run.counters[ti]}`;
    const args = argObj === NO_ARGUMENT ? "" : printed.length === 0 ? "{}" : `{ ${printed.join(", ")} }`;
    const call = `state${member(rule.name)}(${args});`;
    const step: StepInfo = { kind, name: rule.name, args, ...(name !== undefined ? { target: name } : {}), code: name !== undefined ? `const ${name} = ${call}` : call, start: trace?.start ?? start, end: tc.choiceCount, ...(argSpans !== undefined && argSpans.length > 0 ? { argSpans } : {}) };
    run.steps.push(step);
  }
  return argObj;
}

/** Call a rule with its drawn arguments, as `failed` (what the Explanation names if it throws); its raw result. */
function call(run: Run, state: Record<string, AnyFn>, rule: Rule, args: Record<string, unknown> | typeof NO_ARGUMENT, failed: FailedIn): unknown {
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
const waitFor = (p: Promise<unknown>): Promise<unknown> => p;

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
function* sequence(run: Run): Generator<Promise<unknown>, void, unknown> {
  const { m, tc } = run;
  const state = new m.Class() as Record<string, AnyFn>;
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
function runCase(m: Machine, tc: TestCase): void | Promise<void> {
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

const LEAK_HINT =
  "Flaky machine: the same steps gave different outcomes. State kept outside the instance (a module-level variable, a class field marked static, a shared cache) and not reset by teardown() — which runs after every sequence — is the usual cause.";

/** The steps with the explain phase's free arguments marked (`free`), when it found any. */
function markFree(steps: readonly StepInfo[], free: readonly Slice[]): StepInfo[] {
  return steps.map((st) => {
    const names = (st.argSpans ?? []).filter((a) => free.some((f) => f.start === a.start && f.end === a.end)).map((a) => a.name);
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
function present(m: Machine, failure: PropertyFailure, free: readonly Slice[] = []): PropertyFailure | Promise<PropertyFailure> {
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

/** The real timer functions (fake timers installed later must not freeze the replay's timeout). */
const setRealTimeout = timers.setTimeout;
const clearRealTimeout = timers.clearTimeout;

function rewrite(m: Machine, failure: PropertyFailure, run: Run, threw: boolean, free: readonly Slice[]): PropertyFailure {
  if (!threw && !failure.flaky) return failure; // cannot happen for a reproducible failure; keep the engine's report
  const recorded = presentationOf(run, threw);
  const steps = recorded.kind === "steps" ? markFree(recorded.steps, free) : [];
  const presentation: Presentation = recorded.kind === "steps" ? { ...recorded, steps } : recorded;
  const lines = [`const state = new ${m.className}();`, ...steps.map((s) => s.code)];
  const repro = lines.join("\n");
  const printed = [`const state = new ${m.className}();`, ...steps.flatMap(explainedCode)];
  const explanation = !threw ? "Explanation: these steps did not fail when replayed (see the flakiness report below)" : explain(run);
  const blocks = failure.message.split("\n\n");
  const at = blocks.findIndex((b) => /^(Minimal failing|Failing) arguments/.test(b));
  const head = blocks[0]!.replace(/^Property failed/, "Machine failed");
  // The engine's own words are about arguments; a machine's case is its steps.
  const tail = (at >= 0 ? blocks.slice(at + 1) : blocks.slice(1)).map((b) => b.replace(/^Shown: the arguments of/m, "Shown: the steps of"));
  const parts = [head, `Steps (TypeScript${failure.flaky ? "; flaky, so not shrunk" : ""}):\n${printed.map((l) => `  ${l}`).join("\n")}`, explanation];
  if (run.state !== undefined) parts.push(`State at the failing step:\n  ${run.state.split("\n").join("\n  ")}`);
  if (failure.flaky) parts.push(LEAK_HINT);
  const message = [...parts, ...tail].join("\n\n");
  const shown: Presentation = { ...presentation, ...(threw ? {} : { explanation }) };
  return new PropertyFailure(message, [], failure.cause, repro, failure.seed, failure.statistics, failure.choices, failure.flaky, steps, shown);
}

/**
 * A state-machine test: runs sequences of rules on fresh instances of `Class`, checking the invariants on the
 * initial state and after every step; a failure shrinks to a minimal sequence printed as executable code.
 * @example test("ledger", machine(LedgerMachine, { rules: { open: { args: { name: st.sampledFrom(["a"]) }, target: accounts } }, invariants: ["totalsMatch"] }));
 */
export function machine<M extends object>(Class: new () => M, spec: MachineSpec<M>, settings?: MachineSettings): Property {
  const shape = readSpec(Class, spec, settings);
  const handle = new CaseHandle(Class);
  const key = definitionKey("property", [handle], Class);
  const def: PropertyDefinition = {
    strategies: [handle as Strategy<unknown>],
    body: () => {
      throw new Error("unreachable: machine() runs through forRun");
    },
    settings,
    key,
    // stepCount and timeout come from the resolved settings (the property's, check()'s, the extension's), per run.
    // One Machine per run: it keeps the run's record of initial states (untested).
    forRun: (resolved: ResolvedSettings) => {
      const { stepCount, timeout } = resolved;
      const L = Math.max(1, Math.round(stepCount * 0.8));
      const m: Machine = { ...shape, stepCount, more: { p: L / (L + 1) }, timeout, initial: { open: false, closed: undefined } };
      return {
        strategies: [handle as Strategy<unknown>],
        body: (tc: unknown) => runCase(m, tc as TestCase),
        settings,
        key,
        present: (failure, free) => present(m, failure, free),
        untested: () => untested(m),
        passes: sequencePasses(m),
        slices: stepArgumentSlices,
      };
    },
  };
  return propertyFromDefinition(def);
}
