/**
 * Rule-based state machines (Hypothesis's RuleBasedStateMachine), built on the ordinary property driver.
 *
 * machine(Class, spec, settings?) is a property with one argument, a strategy that draws nothing and hands the
 * body its test case; the body then runs one sequence on a fresh instance, drawing every decision from that
 * test case, so the engine records, replays and shrinks sequences exactly as it does arguments:
 *
 *   [init args…] [step: more=true, rule index, rule args…]* more=false
 *
 * - Each initialize rule draws its arguments inside an "initialize" span; then each step is one "step" span
 *   holding its "another step?" flag, the rule's index among the rules applicable now (precondition true and
 *   every bundle argument non-empty) and its arguments. Deleting a step span deletes the step; a zero index is
 *   the earliest applicable rule; a bundle draw is an index into the bundle (toward its first value).
 * - The flag is a boolean with p = L / (L + 1), L = 80 % of stepCount, so sequences use most of stepCount (a
 *   50 % coin would stop after about two steps); at stepCount steps the sequence ends without drawing a flag.
 * - Invariants run once the initialize rules are done (the initial state) and after every step; teardown()
 *   runs in a finally after every sequence, whatever happened, shrink candidates included.
 * - On failure the run's PropertyFailure is rewritten (PropertyDefinition.present): its minimal choices are
 *   replayed once on a fresh instance, recording each step as a statement, which gives `steps`, the executable
 *   `repro`, the Explanation (invariant X / rule Y) and the machine's toString() at the failing step.
 *
 * Not here yet (issue #9): swarm flags, sequence-specific shrink passes (re-pointing bundle references,
 * relabelling), async rules, flaky-leak hints, the extension's Steps view and quick fix.
 */
import { invalid } from "./errors.ts";
import { definitionKey } from "./key.ts";
import { propertyFromDefinition, PropertyFailure } from "./property.ts";
import type { Property, PropertyDefinition } from "./property.ts";
import { literalOrPlaceholder } from "./report.ts";
import type { Settings } from "./settings.ts";
import { validateSettings } from "./settings.ts";
import { describe, Strategy } from "./strategies/core.ts";
import { setCurrent } from "./context.ts";
import { TestCase } from "./testcase.ts";

const API = "machine";

/** A named collection of values returned by rules that target it; usable as a rule argument. */
export class Bundle<T> {
  declare readonly __type?: T;
  constructor(readonly name: string) {}
}

/** A bundle argument that removes the value it draws. */
export class Consumed<T> {
  declare readonly __type?: T;
  constructor(readonly bundle: Bundle<T>) {}
}

/** A bundle: `target` of rules puts their return values in it; as an argument it draws one of them. */
export function bundle<T>(name: string): Bundle<T> {
  if (typeof name !== "string" || !/^[A-Za-z_$][\w$]*$/.test(name)) invalid("bundle", `name must be an identifier-like string, got ${describe(name)}`);
  return new Bundle<T>(name);
}

/** As a rule argument: draw a value from the bundle and remove it. */
export function consumes<T>(b: Bundle<T>): Consumed<T> {
  if (!(b instanceof Bundle)) invalid("consumes", `expects a bundle, got ${describe(b)}`);
  return new Consumed(b);
}

// ------------------------------------------------------------------------------------------------ types

type AnyFn = (...a: any[]) => any;
/** The method names of M (Object.prototype's excepted: every object literal has them, so they cannot be keys here). */
export type MethodNames<M> = Exclude<{ [K in keyof M]-?: M[K] extends AnyFn ? K : never }[keyof M] & string, keyof Object>;
type ArgOf<F> = F extends () => any ? (F extends (arg: infer A) => any ? (unknown extends A ? never : A) : never) : F extends (arg: infer A) => any ? A : never;
export type ArgSource<T> = Strategy<T> | Bundle<T> | Consumed<T>;
export type RuleArgs<F> = [ArgOf<F>] extends [never] ? never : { [K in keyof ArgOf<F>]-?: ArgSource<ArgOf<F>[K]> };
type Ret<F> = F extends (...a: any[]) => infer R ? R : never;

export interface RuleSpec<M, F> {
  args?: RuleArgs<F>;
  target?: Bundle<Ret<F>>;
  precondition?: (state: M) => boolean;
}
export interface InitializeSpec<F> {
  args?: RuleArgs<F>;
  target?: Bundle<Ret<F>>;
}
export interface MachineSpec<M> {
  rules: { [K in MethodNames<M>]?: RuleSpec<M, M[K]> };
  invariants?: readonly MethodNames<M>[];
  initialize?: { [K in MethodNames<M>]?: InitializeSpec<M[K]> };
}
export interface MachineSettings extends Settings {
  /** Steps per sequence at most (default 50). */
  stepCount?: number;
}

/** One step of a failing sequence, as presented. */
export interface MachineStep {
  readonly kind: "initialize" | "rule" | "invariant" | "teardown";
  readonly name: string;
  /** The argument object printed as TypeScript (bundle values by variable name); "" when none. */
  readonly args: string;
  /** The bundle variable the result went into. */
  readonly target?: string;
  /** The statement in the repro. */
  readonly code: string;
}

// ------------------------------------------------------------------------------------------------ runtime

interface Rule {
  readonly name: string;
  readonly args: readonly [string, Strategy<unknown> | Bundle<unknown> | Consumed<unknown>][] | undefined;
  readonly target: Bundle<unknown> | undefined;
  readonly precondition: ((state: unknown) => boolean) | undefined;
}

interface Machine {
  readonly Class: new () => object;
  readonly rules: readonly Rule[];
  readonly initialize: readonly Rule[];
  readonly invariants: readonly string[];
  readonly stepCount: number;
  readonly more: { p: number };
}

/** The argument strategy: draws nothing, gives the body its test case. */
class CaseHandle extends Strategy<TestCase> {
  constructor(readonly Class: Function) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): TestCase {
    return tc;
  }
}

class Recording {
  steps: MachineStep[] = [];
  failedIn: { kind: "invariant" | "rule" | "initialize"; name: string } | undefined;
  state: string | undefined;
}

type Entry = { name: string; value: unknown };

function key(k: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k);
}

function ruleApplicable(rule: Rule, state: object, bundles: Map<Bundle<unknown>, Entry[]>): boolean {
  if (rule.args !== undefined) {
    for (const [, src] of rule.args) {
      const b = src instanceof Bundle ? src : src instanceof Consumed ? src.bundle : undefined;
      if (b !== undefined && (bundles.get(b)?.length ?? 0) === 0) return false;
    }
  }
  return rule.precondition === undefined || rule.precondition(state) === true;
}

function runRule(tc: TestCase, m: Machine, rule: Rule, state: object, bundles: Map<Bundle<unknown>, Entry[]>, counters: Map<Bundle<unknown>, number>, rec: Recording | undefined, kind: "initialize" | "rule"): void {
  let argObj: Record<string, unknown> | undefined;
  const printed: string[] = [];
  if (rule.args !== undefined) {
    argObj = {};
    for (const [k, src] of rule.args) {
      if (src instanceof Strategy) {
        const v = src.draw(tc);
        argObj[k] = v;
        if (rec !== undefined) printed.push(`${key(k)}: ${literalOrPlaceholder(v)}`);
      } else {
        const b = src instanceof Consumed ? src.bundle : src;
        const entries = bundles.get(b) ?? [];
        const i = tc.draw("integer", { min: 0, max: entries.length - 1, shrinkTowards: 0 });
        const e = entries[i]!;
        if (src instanceof Consumed) entries.splice(i, 1);
        argObj[k] = e.value;
        if (rec !== undefined) printed.push(`${key(k)}: ${e.name}`);
      }
    }
  }
  let target: string | undefined;
  if (rec !== undefined) {
    const args = argObj === undefined ? "" : printed.length === 0 ? "{}" : `{ ${printed.join(", ")} }`;
    if (rule.target !== undefined) {
      const n = counters.get(rule.target) ?? 0;
      target = `${rule.target.name}_${n}`;
    }
    const call = `state.${rule.name}(${args});`;
    rec.steps.push({ kind, name: rule.name, args, ...(target !== undefined ? { target } : {}), code: target !== undefined ? `const ${target} = ${call}` : call });
    rec.failedIn = { kind, name: rule.name };
  }
  const method = (state as Record<string, AnyFn>)[rule.name]!;
  const out = argObj === undefined ? method.call(state) : method.call(state, argObj);
  if (rule.target !== undefined) {
    const n = counters.get(rule.target) ?? 0;
    counters.set(rule.target, n + 1);
    let entries = bundles.get(rule.target);
    if (entries === undefined) bundles.set(rule.target, (entries = []));
    entries.push({ name: `${rule.target.name}_${n}`, value: out });
  }
  if (rec !== undefined) rec.failedIn = undefined;
}

function checkInvariants(m: Machine, state: object, rec: Recording | undefined): void {
  for (const name of m.invariants) {
    if (rec !== undefined) rec.failedIn = { kind: "invariant", name };
    (state as Record<string, AnyFn>)[name]!.call(state);
    if (rec !== undefined) rec.failedIn = undefined;
  }
}

/** One sequence on a fresh instance; every decision drawn from `tc`. */
function runSequence(tc: TestCase, m: Machine, rec: Recording | undefined): void {
  const state = new m.Class();
  const bundles = new Map<Bundle<unknown>, Entry[]>();
  const counters = new Map<Bundle<unknown>, number>();
  try {
    for (const rule of m.initialize) {
      tc.startSpan("initialize");
      runRule(tc, m, rule, state, bundles, counters, rec, "initialize");
      tc.endSpan();
    }
    checkInvariants(m, state, rec);
    for (let step = 0; step < m.stepCount; step++) {
      const applicable = m.rules.filter((r) => ruleApplicable(r, state, bundles));
      if (applicable.length === 0) break;
      tc.startSpan("step");
      if (!tc.draw("boolean", m.more)) {
        tc.endSpan();
        break;
      }
      const rule = applicable[tc.draw("integer", { min: 0, max: applicable.length - 1, shrinkTowards: 0 })]!;
      runRule(tc, m, rule, state, bundles, counters, rec, "rule");
      tc.endSpan();
      checkInvariants(m, state, rec);
    }
  } catch (e) {
    if (rec !== undefined) rec.state = describeState(state);
    throw e;
  } finally {
    const teardown = (state as { teardown?: unknown }).teardown;
    if (typeof teardown === "function") teardown.call(state);
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

function present(m: Machine, failure: PropertyFailure): PropertyFailure {
  const rec = new Recording();
  const fresh = new TestCase(failure.choices as never, null, Math.max(8192, failure.choices.length + 1));
  const previous = setCurrent(fresh);
  let threw = false;
  try {
    runSequence(fresh, m, rec);
  } catch {
    threw = true;
  } finally {
    setCurrent(previous);
  }
  if (!threw) return failure; // flaky: the engine's report says so; keep it as it is
  const lines = [`const state = new ${m.Class.name || "Machine"}();`, ...rec.steps.map((s) => s.code)];
  const steps: MachineStep[] = [...rec.steps];
  const failed = rec.failedIn;
  if (failed?.kind === "invariant") {
    const code = `state.${failed.name}();`;
    lines.push(code);
    steps.push({ kind: "invariant", name: failed.name, args: "", code });
  }
  if (typeof (m.Class.prototype as { teardown?: unknown }).teardown === "function") {
    lines.push("state.teardown();");
    steps.push({ kind: "teardown", name: "teardown", args: "", code: "state.teardown();" });
  }
  const repro = lines.join("\n");
  const explanation = failed === undefined ? "Explanation: the machine's constructor or teardown threw" : `Explanation: assertion failed in ${failed.kind === "invariant" ? "invariant" : "rule"} ${failed.name}`;
  const blocks = failure.message.split("\n\n");
  const at = blocks.findIndex((b) => /^(Minimal failing|Failing) arguments/.test(b));
  const head = blocks[0]!.replace(/^Property failed/, "Machine failed");
  const tail = at >= 0 ? blocks.slice(at + 1) : blocks.slice(1);
  const parts = [head, `Steps (TypeScript${failure.flaky ? "; flaky, so not shrunk" : ""}):\n${lines.map((l) => `  ${l}`).join("\n")}`, explanation];
  if (rec.state !== undefined) parts.push(`State at the failing step:\n  ${rec.state.split("\n").join("\n  ")}`);
  if (failure.flaky) parts.push("Flaky machine: the same steps gave different outcomes. State kept outside the instance (a module-level variable, a shared cache) and not reset by teardown() — which runs after every sequence — is the usual cause.");
  const message = [...parts, ...tail].join("\n\n");
  return new PropertyFailure(message, [], failure.cause, repro, failure.seed, failure.statistics, failure.choices, failure.flaky, steps);
}

// ------------------------------------------------------------------------------------------------ machine()

function readRules(Class: Function, what: string, specs: unknown, withPrecondition: boolean): Rule[] {
  if (specs === undefined && what === "initialize") return [];
  if (typeof specs !== "object" || specs === null || Array.isArray(specs)) invalid(API, `spec.${what} must be an object of method name → rule, got ${describe(specs)}`);
  const rules: Rule[] = [];
  for (const name of Object.keys(specs)) {
    if (typeof (Class.prototype as Record<string, unknown>)[name] !== "function") invalid(API, `spec.${what}: "${name}" is not a method of ${Class.name || "the class"}`);
    const r = (specs as Record<string, unknown>)[name];
    if (typeof r !== "object" || r === null) invalid(API, `spec.${what}.${name} must be an object ({ args?, target?${withPrecondition ? ", precondition?" : ""} }), got ${describe(r)}`);
    const known = withPrecondition ? ["args", "target", "precondition"] : ["args", "target"];
    for (const k of Object.keys(r)) if (!known.includes(k)) invalid(API, `spec.${what}.${name}: unknown key "${k}" (known: ${known.join(", ")})`);
    const { args, target, precondition } = r as { args?: unknown; target?: unknown; precondition?: unknown };
    let argList: [string, Strategy<unknown> | Bundle<unknown> | Consumed<unknown>][] | undefined;
    if (args !== undefined) {
      if (typeof args !== "object" || args === null || Array.isArray(args) || args instanceof Strategy) invalid(API, `spec.${what}.${name}.args must be an object of strategies or bundles, got ${describe(args)}`);
      argList = [];
      for (const [k, v] of Object.entries(args)) {
        if (!(v instanceof Strategy || v instanceof Bundle || v instanceof Consumed)) invalid(API, `spec.${what}.${name}.args.${k} must be a strategy or a bundle, got ${describe(v)}`);
        argList.push([k, v]);
      }
    }
    if (target !== undefined && !(target instanceof Bundle)) invalid(API, `spec.${what}.${name}.target must be a bundle, got ${describe(target)}`);
    if (precondition !== undefined && typeof precondition !== "function") invalid(API, `spec.${what}.${name}.precondition must be a function, got ${describe(precondition)}`);
    rules.push({ name, args: argList, target: target as Bundle<unknown> | undefined, precondition: precondition as Rule["precondition"] });
  }
  return rules;
}

/**
 * A state-machine test: runs sequences of rules on fresh instances of `Class`, checking the invariants on the
 * initial state and after every step; a failure shrinks to a minimal sequence printed as executable code.
 * @example test("ledger", machine(LedgerMachine, { rules: { open: { args: { name: st.sampledFrom(["a"]) }, target: accounts } }, invariants: ["totalsMatch"] }));
 */
export function machine<M extends object>(Class: new () => M, spec: MachineSpec<M>, settings?: MachineSettings): Property {
  if (typeof Class !== "function" || Class.prototype === undefined) invalid(API, `the first argument must be a class, got ${describe(Class)}`);
  if (typeof spec !== "object" || spec === null) invalid(API, `spec must be an object ({ rules, invariants?, initialize? }), got ${describe(spec)}`);
  for (const k of Object.keys(spec)) if (!["rules", "invariants", "initialize"].includes(k)) invalid(API, `spec: unknown key "${k}" (known: rules, invariants, initialize)`);
  validateSettings(API, settings);
  const rules = readRules(Class, "rules", spec.rules, true);
  if (rules.length === 0) invalid(API, "spec.rules is empty: a machine needs at least one rule");
  const initialize = readRules(Class, "initialize", spec.initialize, false);
  const invariants = spec.invariants ?? [];
  if (!Array.isArray(invariants)) invalid(API, `spec.invariants must be an array of method names, got ${describe(invariants)}`);
  for (const name of invariants as unknown[]) {
    if (typeof name !== "string" || typeof (Class.prototype as Record<string, unknown>)[name] !== "function") invalid(API, `spec.invariants: ${typeof name === "string" ? `"${name}"` : describe(name)} is not a method of ${Class.name || "the class"}`);
  }
  const stepCount = settings?.stepCount ?? 50;
  const L = Math.max(1, Math.round(stepCount * 0.8));
  const m: Machine = { Class: Class as new () => object, rules, initialize, invariants: invariants as string[], stepCount, more: { p: L / (L + 1) } };
  const handle = new CaseHandle(Class);
  const def: PropertyDefinition = {
    strategies: [handle as Strategy<unknown>],
    body: (tc: unknown) => runSequence(tc as TestCase, m, undefined),
    settings,
    key: definitionKey("property", [handle], Class),
    present: (failure) => present(m, failure),
  };
  return propertyFromDefinition(def);
}

