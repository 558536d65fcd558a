/**
 * A machine's spec: the types a user writes it with (rules, initialize rules, invariants, each rule's
 * arguments, target and precondition, typed against the class's own methods), and the machine it is read into
 * (readSpec), checked at construction so that misuse throws InvalidArgument naming machine before any
 * sequence runs. A rule keeps the indices of the bundles it needs, so a sequence can tell at once which rules
 * may run now.
 */
import type { StepInfo } from "../events/events.ts";
import type { Settings } from "../property/settings.ts";
import { validateSettings } from "../property/settings.ts";
import { describe, Strategy } from "../strategies/strategy.ts";
import { invalid } from "../util/errors.ts";
import { Bundle, Consumed, IDENTIFIER } from "./bundle.ts";

const API = "machine";

export type AnyFn = (...a: any[]) => any;
/** The method names of M (Object.prototype's excepted: every object literal has them, so they cannot be keys here). */
export type MethodNames<M> = Exclude<
  { [K in keyof M]-?: M[K] extends AnyFn ? K : never }[keyof M] & string,
  keyof Object
>;
type ArgOf<F> = F extends () => any
  ? F extends (arg: infer A) => any
    ? unknown extends A
      ? never
      : A
    : never
  : F extends (arg: infer A) => any
    ? A
    : never;
export type ArgSource<T> = Strategy<T> | Bundle<T> | Consumed<T>;
export type RuleArgs<F> = [ArgOf<F>] extends [never] ? never : { [K in keyof ArgOf<F>]-?: ArgSource<ArgOf<F>[K]> };
/** What a rule's call gives its target bundle: the resolved value of an async rule. */
type Ret<F> = F extends (...a: any[]) => infer R ? Awaited<R> : never;

export interface RuleSpec<M, F> {
  args?: RuleArgs<F>;
  target?: Bundle<Ret<F>>;
  /** Whether the rule may run now: truthy, as in an `if` (`(s) => s.items.length` is a precondition). */
  precondition?: (state: M) => unknown;
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

/** One step of a failing sequence, as presented (the protocol's StepInfo). */
export type MachineStep = StepInfo;

type Source = Strategy<unknown> | Bundle<unknown> | Consumed<unknown>;

export interface Rule {
  readonly name: string;
  readonly args: readonly [string, Source][] | undefined;
  readonly target: Bundle<unknown> | undefined;
  readonly precondition: ((state: unknown) => unknown) | undefined;
  /** Indices (into Machine.bundles) of the bundles its arguments draw from, and of its target (-1: none). */
  /** The bundles it draws from, one index per entry it needs at least (see enoughEntries). */
  readonly needs: readonly number[];
  readonly targetIndex: number;
  /** What `failedIn` says while it runs (shared: a sequence makes many calls). */
  readonly failed: FailedIn;
  readonly failedInit: FailedIn;
}

export type FailedIn = { readonly kind: "invariant" | "rule" | "initialize"; readonly name: string };

/** A machine as its spec describes it (readSpec). */
export interface MachineShape {
  readonly Class: new () => object;
  readonly className: string;
  readonly rules: readonly Rule[];
  readonly initialize: readonly Rule[];
  readonly invariants: readonly string[];
  readonly invariantChecks: readonly FailedIn[];
  readonly bundles: readonly Bundle<unknown>[];
  /** Every rule index, when no rule has a precondition or a bundle argument (then all are always open). */
  readonly allOpen: readonly number[] | undefined;
}

/** A machine as one run holds it: its shape, and what the run's settings make of it. */
export interface Machine extends MachineShape {
  readonly stepCount: number;
  readonly more: { p: number };
  /** The run's per-case timeout (ms) for async sequences, or null. */
  readonly timeout: number | null;
  /** This run's record of the initial states (one Machine per run, so concurrent runs keep their own). */
  readonly initial: InitialStates;
}

/**
 * Whether some sequence of the run could run a rule from its initial state, and if none could yet, why not
 * (per rule, from the first such sequence): a run whose every sequence had zero steps tested nothing.
 */
export interface InitialStates {
  open: boolean;
  closed: string[] | undefined;
}

/** The machine machine()'s arguments describe, checked (its settings too): misuse throws InvalidArgument naming machine. */
export function readSpec(Class: unknown, spec: unknown, settings: unknown): MachineShape {
  if (typeof Class !== "function" || Class.prototype === undefined)
    invalid(API, `the first argument must be a class, got ${describe(Class)}`);
  if (typeof spec !== "object" || spec === null)
    invalid(API, `spec must be an object ({ rules, invariants?, initialize? }), got ${describe(spec)}`);
  for (const k of Object.keys(spec))
    if (!["rules", "invariants", "initialize"].includes(k))
      invalid(API, `spec: unknown key "${k}" (known: rules, invariants, initialize)`);
  validateSettings(API, settings);
  const {
    rules: ruleSpecs,
    invariants: invariantSpecs,
    initialize: initializeSpecs,
  } = spec as { rules?: unknown; invariants?: unknown; initialize?: unknown };
  const bundles: Bundle<unknown>[] = [];
  const initialize = readRules(Class, "initialize", initializeSpecs, false, bundles);
  const rules = readRules(Class, "rules", ruleSpecs, true, bundles);
  if (rules.length === 0) invalid(API, "spec.rules is empty: a machine needs at least one rule");
  const invariants = invariantSpecs ?? [];
  if (!Array.isArray(invariants))
    invalid(API, `spec.invariants must be an array of method names, got ${describe(invariants)}`);
  for (const name of invariants as unknown[]) {
    if (
      typeof name !== "string" ||
      name === "constructor" ||
      typeof (Class.prototype as Record<string, unknown>)[name] !== "function"
    )
      invalid(
        API,
        `spec.invariants: ${typeof name === "string" ? `"${name}"` : describe(name)} is not a method of ${Class.name || "the class"}`,
      );
  }
  const invariantChecks = (invariants as string[]).map((name) => Object.freeze({ kind: "invariant" as const, name }));
  const allOpen = rules.every((r) => r.precondition === undefined && r.needs.length === 0)
    ? Object.freeze(rules.map((_, i) => i))
    : undefined;
  return {
    Class: Class as new () => object,
    className: IDENTIFIER.test(Class.name) ? Class.name : "Machine",
    rules,
    initialize,
    invariants: invariants as string[],
    invariantChecks,
    bundles,
    allOpen,
  };
}

function readRules(
  Class: Function,
  what: string,
  specs: unknown,
  withPrecondition: boolean,
  bundles: Bundle<unknown>[],
): Rule[] {
  if (specs === undefined && what === "initialize") return [];
  if (typeof specs !== "object" || specs === null || Array.isArray(specs))
    invalid(API, `spec.${what} must be an object of method name → rule, got ${describe(specs)}`);
  const index = (b: Bundle<unknown>): number => {
    const i = bundles.indexOf(b);
    if (i >= 0) return i;
    if (bundles.some((x) => x.name === b.name))
      invalid(
        API,
        `two different bundles are named "${b.name}": the repro would give their values the same variable names`,
      );
    bundles.push(b);
    return bundles.length - 1;
  };
  const rules: Rule[] = [];
  for (const name of Object.keys(specs)) {
    // (The constructor is a function on every prototype: as a rule it would build a new object, not change this one.)
    if (name === "constructor" || typeof (Class.prototype as Record<string, unknown>)[name] !== "function")
      invalid(API, `spec.${what}: "${name}" is not a method of ${Class.name || "the class"}`);
    const r = (specs as Record<string, unknown>)[name];
    if (typeof r !== "object" || r === null)
      invalid(
        API,
        `spec.${what}.${name} must be an object ({ args?, target?${withPrecondition ? ", precondition?" : ""} }), got ${describe(r)}`,
      );
    const known = withPrecondition ? ["args", "target", "precondition"] : ["args", "target"];
    for (const k of Object.keys(r))
      if (!known.includes(k)) invalid(API, `spec.${what}.${name}: unknown key "${k}" (known: ${known.join(", ")})`);
    const { args, target, precondition } = r as { args?: unknown; target?: unknown; precondition?: unknown };
    let argList: [string, Source][] | undefined;
    const needs: number[] = [];
    const reads = new Set<Bundle<unknown>>();
    if (args !== undefined) {
      if (typeof args !== "object" || args === null || Array.isArray(args) || args instanceof Strategy)
        invalid(API, `spec.${what}.${name}.args must be an object of strategies or bundles, got ${describe(args)}`);
      argList = [];
      for (const [k, v] of Object.entries(args)) {
        if (!(v instanceof Strategy || v instanceof Bundle || v instanceof Consumed))
          invalid(API, `spec.${what}.${name}.args.${k} must be a strategy or a bundle, got ${describe(v)}`);
        // One entry per consumed argument (each takes its own), one for the plain reads of a bundle together.
        if (v instanceof Consumed) needs.push(index(v.bundle));
        else if (v instanceof Bundle && !reads.has(v)) {
          reads.add(v);
          needs.push(index(v));
        }
        argList.push([k, v]);
      }
    }
    if (target !== undefined && !(target instanceof Bundle))
      invalid(API, `spec.${what}.${name}.target must be a bundle, got ${describe(target)}`);
    const targetIndex = target instanceof Bundle ? index(target) : -1;
    if (precondition !== undefined && typeof precondition !== "function")
      invalid(API, `spec.${what}.${name}.precondition must be a function, got ${describe(precondition)}`);
    const failed = Object.freeze({ kind: "rule" as const, name });
    const failedInit = Object.freeze({ kind: "initialize" as const, name });
    rules.push({
      name,
      args: argList,
      target: target as Bundle<unknown> | undefined,
      precondition: precondition as Rule["precondition"],
      needs,
      targetIndex,
      failed,
      failedInit,
    });
  }
  return rules;
}

/**
 * Whether the bundles hold what a rule needs: as many entries of each bundle as `needs` names it (a rule that
 * consumes two values of one bundle waits until it holds two).
 */
export function enoughEntries(needs: readonly number[], sizeOf: (bundle: number) => number): boolean {
  for (let i = 0; i < needs.length; i++) {
    const b = needs[i]!;
    let wanted = 0;
    for (const n of needs) if (n === b) wanted++;
    if (sizeOf(b) < wanted) return false;
  }
  return true;
}
