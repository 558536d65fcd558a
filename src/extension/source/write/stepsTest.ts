/**
 * A regression test from a machine's minimal steps: the machine's mechanical translation (Hypothesis's) —
 * `const state = new LedgerMachine();`, then each step as a call on it, `const accounts_0 = state.open({ name: "a" });`
 * — ending with the failing invariant's call, so the test fails with that invariant's assertion. The statements
 * are rebuilt from each step's parts, never pasted: a method name that is not an identifier is quoted
 * (`state["my-rule"]()`, through the engine's printer), bundle variables must be identifiers defined by earlier
 * steps, and the arguments must be one object literal as the engine prints them. A step is awaited unless the
 * class (in this file, or one a relative import names, read through `readModule`) shows its method is
 * synchronous. The class is constructed by the name the machine call uses, so it must be declared where the new
 * test goes (not inside the enclosing test); otherwise, and for anything not printable, nothing is offered rather
 * than a test that cannot reproduce the failure.
 */
import { toLiteral } from "../../../engine/index.ts";
import type { Presentation, StepInfo } from "../../../shared/protocol.ts";
import type { MachineClass } from "../read/index.ts";
import { machineCall, machineClass, readSnippet } from "../read/index.ts";
import type { Generated, Line, RegressionInput } from "./generated.ts";
import { callOptions, UNPRINTABLE } from "./generated.ts";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** How the engine names a bundle's values (`accounts_0`): a name of that shape no earlier step defined is not in scope. */
const BUNDLE_VARIABLE = /^[A-Za-z_$][\w$]*_\d+$/;

export function stepsBody(input: RegressionInput, p: Extract<Presentation, { kind: "steps" }>): Generated | undefined {
  const m = machineCall(input.source, input.propertyOffset, callOptions(input.fileName, input.callee));
  if (m === undefined) return undefined;
  const root = m.names[0]!;
  const targets = p.steps.flatMap((s) => (s.target === undefined ? [] : [s.target]));
  // The test's own names would shadow the class; and it must be declared where the new test goes.
  if (root === "state" || targets.includes(root) || !m.t.visibleAt(root, input.insertAt)) return undefined;
  const cls = machineClass(m, input.readModule);
  const lines: Line[] = [{ text: `const state = new ${m.classRef}();`, verbatim: false }];
  const defined = new Set<string>();
  let async = false;
  for (const step of p.steps) {
    const statement = stepStatement(step, cls, defined);
    if (statement === undefined) return undefined;
    lines.push({ text: statement.text, verbatim: false });
    async ||= statement.awaited;
    if (step.target !== undefined) defined.add(step.target);
  }
  return { lines, async };
}

/** One step as a statement on `state`, or undefined when a part of it cannot be written safely. */
function stepStatement(
  step: StepInfo,
  cls: MachineClass | undefined,
  defined: ReadonlySet<string>,
): { text: string; awaited: boolean } | undefined {
  if (
    step.target !== undefined &&
    (!IDENTIFIER.test(step.target) || step.target === "state" || defined.has(step.target))
  )
    return undefined;
  const called = step.kind === "rule" || step.kind === "initialize";
  if (step.args !== "" && (!called || !isArgumentObject(step.args, defined))) return undefined;
  const member = IDENTIFIER.test(step.name) ? `.${step.name}` : `[${toLiteral(step.name)}]`;
  // Awaited unless the class shows a plain method: an async rule's value (or rejection) only exists once awaited.
  const awaited = cls?.shape.methods.get(step.name)?.async ?? true;
  const call = `${awaited ? "await " : ""}state${member}(${step.args});`;
  return { text: step.target === undefined ? call : `const ${step.target} = ${call}`, awaited };
}

/** The engine's printed argument object: one balanced `{ … }`, fully printed, using only bundle variables already defined. */
function isArgumentObject(args: string, defined: ReadonlySet<string>): boolean {
  if (UNPRINTABLE.test(args)) return false;
  const r = readSnippet(args);
  if (!r.is(0, "{") || !r.proper[0] || r.close[0] !== r.n - 1) return false;
  for (let k = 1; k < r.n - 1; k++) {
    const name = r.ident(k);
    if (
      name !== undefined &&
      !r.isMemberAccess(k) &&
      !r.is(k + 1, ":") &&
      BUNDLE_VARIABLE.test(name) &&
      !defined.has(name)
    )
      return false;
  }
  return true;
}
