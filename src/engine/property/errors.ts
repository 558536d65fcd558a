/**
 * The errors a property's run ends with, as the user catches them: a failure (with its minimal example), a run
 * that could not test what it was asked to (Unsatisfiable, FailedHealthCheck), and find()'s empty search. Their
 * `name` fields and fields are a contract: test runners print them, and the editor's runner recognises a
 * PropertyFailure by its name and fields alone (src/runner/failureReport.ts), since the user's engine may be
 * another copy than its own.
 */
import type { ChoiceValue } from "../choice/types.ts";
import type { HealthCheck } from "../core/health.ts";
import type { Presentation, RunStatistics, StepInfo } from "../events/events.ts";

/** Thrown when a property fails: the minimal arguments, the original error, and how to replay. */
export class PropertyFailure extends Error {
  override name = "PropertyFailure";
  constructor(
    message: string,
    /** The minimal failing arguments. */
    readonly args: unknown[],
    /** The error the property threw on them. */
    override readonly cause: unknown,
    /** The arguments printed as TypeScript expressions. */
    readonly repro: string,
    readonly seed: number,
    readonly statistics: RunStatistics,
    /** The minimal choice sequence (what the database stores). */
    readonly choices: readonly ChoiceValue[],
    readonly flaky: boolean,
    /** A state machine's failing steps (machine() only; machine.ts). */
    readonly steps?: readonly StepInfo[],
    /** The minimal case as a person reads it: the arguments, or a machine's steps. */
    readonly presentation: Presentation = { kind: "arguments", text: repro },
  ) {
    super(message, { cause });
  }
}

/** find() tried its examples and none satisfied the predicate (Hypothesis's NoSuchExample). */
export class NoSuchExample extends Error {
  override name = "NoSuchExample";
}

/** The property's preconditions (assume, filter) could not be met; nothing was tested. */
export class Unsatisfiable extends Error {
  override name = "Unsatisfiable";
}

/**
 * A health check failed (health.ts): the first generated cases were mostly rejected, over the choice budget,
 * or slow to draw. `check` names it; settings.suppressHealthCheck lists the ones to skip. An Unsatisfiable:
 * like a give-up, it means the run could not test what it was asked to, so code catching that catches it too.
 */
export class FailedHealthCheck extends Unsatisfiable {
  override name = "FailedHealthCheck";
  constructor(
    readonly check: HealthCheck,
    message: string,
  ) {
    super(message);
  }
}
