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
import type { Property, PropertyDefinition } from "../property/definition.ts";
import { DefinitionKey } from "../property/key.ts";
import { checkExamples } from "../property/property.ts";
import { propertyFromDefinition } from "../property/run.ts";
import type { ResolvedSettings } from "../property/settings.ts";
import { CaseHandle } from "../strategies/caseHandle.ts";
import type { Strategy } from "../strategies/strategy.ts";
import type { TestCase } from "../core/testCase.ts";
import { present } from "./presentFailure.ts";
import { runCase, untested } from "./sequence.ts";
import { sequencePasses } from "./sequencePasses.ts";
import type { Machine, MachineSettings, MachineSpec } from "./spec.ts";
import { readSpec } from "./spec.ts";
import { stepArgumentSlices } from "./steps.ts";

/** Why a machine takes no explicit examples. */
const NO_EXAMPLES =
  "a machine (its cases are sequences of steps, not argument lists; write a sequence as an ordinary test)";

/**
 * A state-machine test: runs sequences of rules on fresh instances of `Class`, checking the invariants on the
 * initial state and after every step; a failure shrinks to a minimal sequence printed as executable code.
 * @example test("ledger", machine(LedgerMachine, { rules: { open: { args: { name: st.sampledFrom(["a"]) }, target: accounts } }, invariants: ["totalsMatch"] }));
 */
export function machine<M extends object>(
  Class: new () => M,
  spec: MachineSpec<M>,
  settings?: MachineSettings,
): Property {
  const shape = readSpec(Class, spec, settings);
  checkExamples("machine", settings?.examples, 0, NO_EXAMPLES);
  const handle = new CaseHandle(Class);
  // The spec is part of the key: two machines of one class built by one helper are two properties.
  const key = new DefinitionKey("property", [handle, spec], Class, machine);
  const def: PropertyDefinition = {
    strategies: [handle as Strategy<unknown>],
    body: () => {
      throw new Error("unreachable: machine() runs through forRun");
    },
    settings,
    key,
    inputShape: [Class.name, spec],
    noExamples: NO_EXAMPLES,
    // stepCount and timeout come from the resolved settings (the property's, check()'s, the extension's), per run.
    // One Machine per run: it keeps the run's record of initial states (untested).
    forRun: (resolved: ResolvedSettings) => {
      const { stepCount, timeout } = resolved;
      const L = Math.max(1, Math.round(stepCount * 0.8));
      const m: Machine = {
        ...shape,
        stepCount,
        more: { p: L / (L + 1) },
        timeout,
        initial: { open: false, closed: undefined },
      };
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
