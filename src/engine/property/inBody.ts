/**
 * What a property's body calls while its test case runs: assume() rejects the case, note() and event() record
 * on it, target() scores it. Each finds the case it belongs to through context.ts (getCurrent), so properties
 * running at the same time never record on each other's cases, and a call outside any case is misuse naming
 * the function.
 */
import { getCurrent } from "../core/context.ts";
import { formatArgs } from "../print/printer.ts";
import { describe } from "../strategies/strategy.ts";
import { invalid, UnsatisfiedAssumption } from "../util/errors.ts";
import { reasonOf } from "./failureMessage.ts";

/** Discard this test case (it does not count as an example) unless `condition` holds. */
export function assume(condition: unknown): asserts condition {
  getCurrent("assume");
  if (!condition) throw new UnsatisfiedAssumption("assumption failed");
}

/** Attach a message to the failing example's report (a value that is not a string is printed as TypeScript). */
export function note(message: unknown): void {
  const tc = getCurrent("note");
  let text: string;
  if (typeof message === "string") text = message;
  else {
    try {
      text = formatArgs([message]);
    } catch (e) {
      // A note is there to help read the failure: one that cannot be printed must not become the failure.
      text = `/* could not print note: ${reasonOf(e)} */`;
    }
  }
  tc.notes.push(text);
}

/** Count a label over the run (the statistics show how often each label occurred). */
export function event(label: string): void {
  const tc = getCurrent("event");
  let text: string;
  if (typeof label === "string") text = label;
  else {
    try {
      text = String(label);
    } catch (e) {
      invalid("event", `label must be a string, got a value that cannot be converted to one (${reasonOf(e)})`);
    }
  }
  if (!tc.events.includes(text)) tc.events.push(text);
}

/**
 * Record an observation to maximise (bigger is more interesting), once per label in a test case. Halfway
 * through generation the target phase climbs toward higher scores from the best case of each label
 * (targetPhase.ts) — what finds a bug that lives near a maximum random generation rarely reaches.
 */
export function target(value: number, label = ""): number {
  const tc = getCurrent("target");
  if (typeof value !== "number" || Number.isNaN(value))
    invalid("target", `value must be a number, got ${describe(value)}`);
  // Labels key the observations: 5 and "5" would silently be one target, an object every target at once.
  if (typeof label !== "string") invalid("target", `label must be a string, got ${describe(label)}`);
  // One score per label and case: two would leave "the" score of the case to a rule the user cannot see.
  if (tc.hasTargets && tc.targets.some((o) => o.label === label))
    invalid(
      "target",
      `called twice with the label ${JSON.stringify(label)} in one test case; give each observation its own label (a machine's whole sequence is one test case, and so is every seed a simTest workload runs: score a machine once, in teardown(), and a simTest outside the workload)`,
    );
  tc.targets.push({ label, value });
  return value;
}
