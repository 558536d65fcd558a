/**
 * Reporting a run's outcome to the user: the engine's result (data) becomes a return, a thrown Unsatisfiable
 * or FailedHealthCheck, or a thrown PropertyFailure whose message (failureMessage.ts) prints the minimal
 * arguments drawn again from its choices, pristine whatever the body did to them; and the run's result
 * event, which the editor's panel reads. A kind of property may rewrite the failure (PropertyDefinition.present:
 * a machine prints its steps). Nothing here may lose the failure because the user's values or errors misbehave
 * when printed.
 */
import type { Engine, EngineResult } from "../core/engine.ts";
import { setCurrent } from "../core/context.ts";
import type { Slice } from "../core/explain.ts";
import { argumentSlices } from "../core/explain.ts";
import { TestCase } from "../core/testCase.ts";
import { noteOf } from "../databases/exampleDatabase.ts";
import type { EngineEvent, ExplainedArgument, Presentation } from "../events/events.ts";
import { InvalidArgument } from "../util/errors.ts";
import type { PropertyDefinition } from "./definition.ts";
import { FailedHealthCheck, PropertyFailure, Unsatisfiable } from "./errors.ts";
import { explicitRepro, generationFailures, isData, printedDraws } from "./executor.ts";
import { describeFailure, errorSummary, printArgs, reasonOf } from "./failureMessage.ts";
import { scheduleOf } from "./failureSchedule.ts";
import { replayBlob, replayLine } from "./replay.ts";
import type { ResolvedSettings } from "./settings.ts";
import { Status } from "../core/datatree.ts";
import { inputsOf } from "../strategies/inputs.ts";
import type { Strategy } from "../strategies/strategy.ts";

const DATA_PLACEHOLDER = "/* st.data(): the values drawn are listed below */ undefined";

/**
 * The repro line: the arguments as TypeScript, with st.data() objects as a placeholder, and, when drawing
 * argument `generating` threw, a placeholder in its place (the arguments after it were never drawn).
 */
export function reproOf(def: PropertyDefinition, args: readonly unknown[], generating: number | undefined): string {
  const dataAt = (i: number) => isData(def.strategies[i]!);
  if (generating === undefined && !args.some((_, i) => dataAt(i))) return printArgs(args);
  const parts: string[] = [];
  for (let i = 0; i < args.length; i++) parts.push(dataAt(i) ? DATA_PLACEHOLDER : printArgs([args[i]]));
  if (generating !== undefined)
    parts.push(`/* argument ${generating}: its strategy threw while generating it (see the error below) */ undefined`);
  return parts.join(", ");
}

/**
 * The arguments one by one, each marked free or not, when the explain phase found some free (else undefined:
 * the report keeps its one-line form). An argument is free when its whole span is one of the free slices.
 */
function explainedArgs(
  def: PropertyDefinition,
  args: readonly unknown[],
  tc: TestCase,
  free: readonly Slice[] | undefined,
): ExplainedArgument[] | undefined {
  if (free === undefined || free.length === 0 || tc.explicitArgs !== undefined) return undefined;
  const slices = argumentSlices(tc);
  if (slices.length !== args.length) return undefined;
  const out = args.map((a, i) => ({
    text: isData(def.strategies[i]!) ? DATA_PLACEHOLDER : printArgs([a]),
    free: free.some((f) => f.start === slices[i]!.start && f.end === slices[i]!.end),
  }));
  return out.some((a) => a.free) ? out : undefined;
}

/** Turn the engine's result into the user's outcome: return on success, throw on failure (or reject, when presenting it went async). */
export function report(
  def: PropertyDefinition,
  settings: ResolvedSettings,
  result: EngineResult,
  engine: Engine,
): void | Promise<never> {
  const seed = settings.seed;
  const observer = engine.settings.observer;
  const emit = observer === undefined ? undefined : (e: EngineEvent) => observer.event(e);
  if (result.outcome === "gave-up") {
    const check = result.healthCheck;
    if (check === undefined) {
      emit?.({ type: "result", outcome: "gave-up", seed, statistics: result.statistics, message: result.reason });
      throw new Unsatisfiable(`${result.reason} (seed ${seed})`);
    }
    emit?.({
      type: "result",
      outcome: "gave-up",
      seed,
      statistics: result.statistics,
      message: result.reason,
      healthCheck: check,
    });
    throw new FailedHealthCheck(check, `${result.reason}\nSeed: ${seed}.`);
  }
  if (result.outcome === "replayed") {
    const { args, generating } = pristineArgs(def, result.case, engine.settings.maxChoices);
    const repro = reproOf(def, args, generating);
    const blob = settings.replay!.text;
    if (result.case.status === Status.Invalid) {
      const message = `The replayed case was rejected by assume() or a filter, so it tests nothing now (arguments: ${repro}; ${replayLine(blob)})`;
      emit?.({ type: "result", outcome: "gave-up", seed, statistics: result.statistics, message });
      throw new Unsatisfiable(message);
    }
    const message = `passed: the replayed case passes now (${repro})`;
    if (settings.verbosity !== "quiet") console.log(`Shrinkscope: the replayed case passes now: ${repro}`);
    emit?.({ type: "result", outcome: "passed", seed, statistics: result.statistics, message });
    return;
  }
  if (result.outcome !== "failed") {
    // Only a run that passed is asked: a failure found meanwhile is reported as the failure, whatever else.
    const untested = def.untested?.();
    if (untested !== undefined) {
      emit?.({ type: "result", outcome: "gave-up", seed, statistics: result.statistics, message: untested });
      throw new InvalidArgument(`${untested} (seed ${seed})`);
    }
    const message =
      result.outcome === "exhausted"
        ? `passed: all ${result.statistics.valid} possible inputs tried (the input space is exhausted)`
        : `passed ${result.statistics.valid} examples`;
    emit?.({ type: "result", outcome: result.outcome, seed, statistics: result.statistics, message });
    return;
  }
  const tc = result.case;
  // Print pristine arguments: the body may have mutated the ones it was given, so draw them again.
  const { args, generating } = pristineArgs(def, tc, engine.settings.maxChoices);
  // Nothing below may throw because of what the user's values do when printed: the failure must come back.
  const repro = explicitRepro.get(tc) ?? reproOf(def, args, generating);
  const explained = generating === undefined ? explainedArgs(def, args, tc, result.free) : undefined;
  const inputs = generating === undefined ? printedInputs(def, tc, args, engine.settings.maxChoices) : undefined;
  const error = tc.error;
  // The blob of the case shown (none for an explicit example: it is in the code already).
  const replay = tc.explicitArgs !== undefined ? undefined : (settings.replay?.text ?? replayBlob(def, tc.choices));
  let message: string;
  try {
    message = describeFailure({
      result,
      args,
      repro,
      explained,
      seed,
      error,
      notes: inputs === undefined ? tc.notes : [...tc.notes, ...inputNotes(inputs, args)],
      draws: tc.interactiveDraws.map((d) => ({ ...d, printed: printedDraws.get(d) })),
      saved: engine.settings.database !== null && !result.explicit,
      generating,
      replay: replay === undefined ? undefined : replayLine(replay),
    });
  } catch (e) {
    message = `Property failed (the report could not be written: ${reasonOf(e)}).\n\nMinimal failing arguments (TypeScript):\n  ${repro}\n\nSeed: ${seed}. Replay with { seed: ${seed} } or SHRINKSCOPE_SEED=${seed}.${replay === undefined ? "" : `\n${replayLine(replay)}`}`;
  }
  const presentation: Presentation = {
    kind: "arguments",
    text: repro,
    ...(explained === undefined ? {} : { args: explained }),
    ...(inputs === undefined ? {} : { inputs }),
  };
  const failure = new PropertyFailure(
    message,
    args,
    error,
    repro,
    seed,
    result.statistics,
    tc.choices,
    result.flaky,
    undefined,
    presentation,
  );
  const presented = def.present?.(failure, result.free ?? []) ?? failure;
  if (presented instanceof Promise) {
    return presented.then((f) => {
      noteFailure(engine, result, f);
      return fail(f, result, error, emit);
    });
  }
  noteFailure(engine, result, presented);
  fail(presented, result, error, emit);
}

/**
 * A case's arguments drawn again from its choices, pristine whatever the body did to them (an explicit example's
 * are its own); when drawing threw (a generation failure), those drawn before, and which one threw.
 */
function pristineArgs(
  def: PropertyDefinition,
  tc: TestCase,
  maxChoices: number,
): { args: unknown[]; generating: number | undefined } {
  if (tc.explicitArgs !== undefined) return { args: tc.args, generating: undefined };
  const drawnArgs: unknown[] = [];
  try {
    drawAgain(def.strategies, tc, maxChoices, drawnArgs);
    return { args: drawnArgs, generating: undefined };
  } catch {
    // keep the arguments the body saw; for a failure while generating, those drawn before the one that threw
    if (generationFailures.has(tc)) return { args: drawnArgs, generating: drawnArgs.length };
    return { args: tc.args, generating: undefined };
  }
}

/** The case's choices drawn again by `strategies`, one argument at a time, each pushed to `out` once drawn. */
function drawAgain(strategies: readonly Strategy<unknown>[], tc: TestCase, maxChoices: number, out: unknown[]): void {
  const fresh = new TestCase(tc.choices, null, maxChoices);
  fresh.redrawOf = tc;
  const previous = setCurrent(fresh);
  try {
    // One by one: when drawing itself failed, the arguments before the one that threw are still shown.
    for (const strategy of strategies) {
      fresh.startSpan("argument");
      out.push(strategy.draw(fresh));
      fresh.endSpan();
    }
  } finally {
    setCurrent(previous);
  }
}

/**
 * For each argument whose value is an input parsed (fromZod), that input printed; null for the others; undefined
 * when there is none. It is given even where it prints as the value does: it says which arguments a schema
 * parsed, which the editor's Convert parses again — and only those (not an explicit example, not invalid mode's
 * values, which no parse made).
 */
function printedInputs(
  def: PropertyDefinition,
  tc: TestCase,
  args: readonly unknown[],
  maxChoices: number,
): (string | null)[] | undefined {
  const given = def.strategies.map(inputsOf);
  if (tc.explicitArgs !== undefined || given.every((g) => g === undefined)) return undefined;
  const inputs: unknown[] = [];
  try {
    drawAgain(
      given.map((g, i) => g ?? def.strategies[i]!),
      tc,
      maxChoices,
      inputs,
    );
  } catch {
    return undefined;
  }
  return given.map((g, i) => (g === undefined ? null : printArgs([inputs[i]])));
}

/** The report's note for each input that prints otherwise than its argument (a transform, a default). */
function inputNotes(inputs: readonly (string | null)[], args: readonly unknown[]): string[] {
  return inputs.flatMap((input, i) =>
    input === null || input === printArgs([args[i]])
      ? []
      : [`${inputs.length === 1 ? "the argument" : `argument ${i + 1}`} is the schema's output for the input ${input}`],
  );
}

/**
 * Beside the saved failure, how it reads (its printed example and error), for a database that keeps that:
 * RedisDatabase, whose notes an editor on another machine shows as "failed elsewhere". Never throws
 * (GuardedDatabase), and nothing for an explicit example, which is not saved.
 */
function noteFailure(engine: Engine, result: EngineResult & { outcome: "failed" }, failure: PropertyFailure): void {
  const db = engine.settings.database;
  if (db === null || result.explicit) return;
  noteOf(db, engine.settings.databaseKey, result.case.choices, {
    repro: failure.repro,
    error: reasonOf(failure.cause),
  });
}

/** Report the failure to the event tap, and throw it. */
function fail(
  failure: PropertyFailure,
  result: EngineResult & { outcome: "failed" },
  error: unknown,
  emit: ((e: EngineEvent) => void) | undefined,
): never {
  const seed = failure.seed;
  const schedule = scheduleOf(error);
  emit?.({
    type: "result",
    outcome: "failed",
    seed,
    statistics: failure.statistics,
    repro: failure.repro,
    error: errorSummary(error),
    ...(result.shrinkStopped ? { shrinkStopped: result.shrinkStopped } : {}),
    presentation: failure.presentation,
    ...(failure.flaky ? { flaky: true } : {}),
    ...(result.savedAt !== undefined ? { savedAt: result.savedAt } : {}),
    ...(schedule !== undefined ? { schedule } : {}),
    message: failure.message,
  });
  throw failure;
}
