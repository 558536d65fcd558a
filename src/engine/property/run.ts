/**
 * A property's run: resolve its settings (settings.ts), make an engine, drive the engine's generator
 * (driver.ts) executing the cases it yields (executor.ts) — synchronously while the body returns plain values,
 * switching to promises the first time it returns a thenable — and report the result (report.ts). Each case is
 * scoped to its own run (context.ts), so properties running at the same time never see each other's cases.
 */
import type { ChoiceValue } from "../choice/types.ts";
import type { Random } from "../util/random.ts";
import { runEnded, setCurrent, watchExit } from "../core/context.ts";
import { Engine, Settling } from "../core/engine.ts";
import type { EngineResult, EngineStep } from "../core/engine.ts";
import { TestCase } from "../core/testCase.ts";
import { flushOf } from "../databases/exampleDatabase.ts";
import type { Presentation } from "../events/events.ts";
import { DEFINITION } from "./definition.ts";
import type { Property, PropertyDefinition } from "./definition.ts";
import { drive } from "./driver.ts";
import { drawArgs, isData, makeExecutor } from "./executor.ts";
import { makesFunctions } from "../strategies/functions.ts";
import { withTestName } from "./key.ts";
import { report, reproOf } from "./report.ts";
import type { Settings } from "./settings.ts";
import type { ResolvedSettings } from "./settings.ts";
import { Status } from "../core/datatree.ts";
import { InvalidArgument } from "../util/errors.ts";
import type { Replay } from "./replay.ts";
import { replayFor } from "./replay.ts";
import { resolveIsolatedSettings, resolveSettings } from "./runnerLayer.ts";

/** Run a definition the engine made for itself, with exactly these settings (no runner layer). */
export function runIsolated(def: PropertyDefinition, settings: Settings): void | Promise<void> {
  return runDefinition(def, settings, true);
}

/**
 * The Property a user holds for a definition (property()'s, machine()'s): a test function that runs it. `this`
 * and the arguments carry the test's name (mocha's context, node:test's t, vitest's context) for the database
 * key; the rest parameter keeps run.length 0, so jest and mocha do not pass a `done` callback.
 */
export function propertyFromDefinition(def: PropertyDefinition): Property {
  const run = function runProperty(this: unknown, ...testArgs: unknown[]): void | Promise<void> {
    return withTestName(this, testArgs, () => runDefinition(def, undefined));
  };
  return Object.assign(run, { [DEFINITION]: def }) as Property;
}

/** Run a definition with `extra` settings over its own (check()'s, find()'s); `isolated`: without the runner's layer. */
export function runDefinition(
  declared: PropertyDefinition,
  extra: Settings | undefined,
  isolated = false,
): void | Promise<void> {
  const resolved = (isolated ? resolveIsolatedSettings : resolveSettings)(declared.key, declared.settings, extra);
  let settings = declared.settingsForRun?.(resolved, [declared.settings, extra]) ?? resolved;
  if (settings.replay !== undefined) settings = replaying(declared, settings);
  // The definition for this run keeps the declared one's input shape: a replay blob is made and checked by it.
  const forRun = declared.forRun?.(settings);
  const def = forRun === undefined ? declared : { ...forRun, inputShape: declared.inputShape ?? declared.strategies };
  const engine = new Engine(
    settings,
    def.passes,
    def.slices,
    def.present === undefined && settings.observer !== undefined ? argumentsOf(def) : undefined,
  );
  const execute = makeExecutor(
    def,
    settings.deadline,
    settings.timeout,
    settings.deadline !== null || settings.observer !== undefined,
  );
  // Once the report is made (it notes the failure beside its save): writes a database still has in flight
  // (RedisDatabase) are waited for, boundedly, before the test can end and its process exit.
  const flush = () => {
    if (settings.database !== null) flushOf(settings.database);
  };
  const reported = (r: EngineResult): void | Promise<never> => {
    let out: void | Promise<never>;
    try {
      declared.ran?.({ outcome: r.outcome, statistics: r.statistics, seed: settings.seed });
      if (settings.replayChoices !== undefined) checkReplayFits(def, settings.replay!, r);
      out = report(def, settings, r, engine);
    } catch (e) {
      flush();
      throw e;
    }
    if (out instanceof Promise) return out.finally(flush);
    flush();
    return out;
  };
  watchExit();
  let result: EngineResult | Promise<EngineResult>;
  try {
    engine.inline = execute;
    if (spansFromArguments(def)) {
      engine.respan = respanOf(def);
      engine.drawOnly = drawOnlyOf(def);
    }
    result = drive(engine.run(), stepOf(execute));
  } catch (e) {
    execute.release();
    runEnded();
    flush();
    throw e;
  }
  // drive returns the engine's result itself, or a promise of it (once a body went async).
  if (result instanceof Promise) {
    return result.then(
      (r) => {
        execute.release();
        runEnded();
        return reported(r);
      },
      (e: unknown) => {
        execute.release();
        runEnded();
        flush();
        throw e;
      },
    );
  }
  execute.release();
  runEnded();
  return reported(result);
}

/**
 * The settings of a run that replays a pasted case: its choices for the engine, and no database (a replay neither
 * reads saved failures nor saves one). find() takes no replay: one from the environment is for properties, and
 * it searches as usual; one in its settings is InvalidArgument.
 */
function replaying(def: PropertyDefinition, settings: ResolvedSettings): ResolvedSettings {
  const replay = settings.replay!;
  if (def.noReplay !== undefined) {
    if (replay.source === "SHRINKSCOPE_REPLAY") return { ...settings, replay: undefined };
    throw new InvalidArgument(`${def.noReplay}: replay runs one failing case of a property; ${def.noReplay} has none`);
  }
  return { ...settings, replayChoices: replayFor(def, replay), database: null, databasePath: null };
}

/**
 * A replayed case must be the case the blob was made of: InvalidArgument when its choices do not fit what the
 * property draws (the strategies changed since, or the blob is another property's of the same shape). A plain
 * property draws all its arguments before its body runs, so a case that did not fail must have drawn exactly the
 * blob's choices; a machine or st.data() draws in the body, and may draw fewer or more once the code changed.
 */
function checkReplayFits(def: PropertyDefinition, replay: Replay, r: EngineResult): void {
  if (r.outcome !== "replayed" && (r.outcome !== "failed" || !r.replayed)) return;
  const tc = r.case;
  const given = replay.choices.length;
  let why: string | undefined;
  if (tc.misaligned > 0)
    why = `${tc.misaligned} of its ${given} choices do not fit what this property draws at their place`;
  else if (tc.status === Status.Overrun) why = "drawing its arguments ran over the choice budget";
  else if (r.outcome === "replayed" && spansFromArguments(def) && tc.choiceCount !== given)
    why = `this property drew ${tc.choiceCount} choices where the replay holds ${given}`;
  if (why !== undefined)
    throw new InvalidArgument(
      `${replay.source}: the replay does not fit this property (${why}): its strategies changed since the failure was printed, or the replay is another property's`,
    );
}

/**
 * The driver's step for the engine's run: execute a yielded case, or wait for one the engine ran itself and whose
 * body went async (Settling); resume the engine with the case once it is done.
 */
function stepOf(execute: (tc: TestCase) => void | Promise<void>): (step: EngineStep) => TestCase | Promise<TestCase> {
  return (v) => {
    if (v instanceof Settling) return v.settled.then(() => v.tc);
    const pending = execute(v);
    return pending === undefined ? v : pending.then(() => v);
  };
}

/**
 * Engine.respan for a plain property: its arguments drawn again from a case's choices (the body is not called),
 * their spans given to the case — up to where drawing stopped, if it threw, as when the case was drawn.
 */
function respanOf(def: PropertyDefinition): (tc: TestCase) => void {
  return (tc) => {
    const { again } = drawnAgain(def, tc.choices, tc.maxChoices);
    again.closeOpenSpans();
    tc.adoptSpans(again);
  };
}

/** Engine.drawOnly for a plain property: its arguments drawn from a prefix and random draws, the body not called. */
function drawOnlyOf(
  def: PropertyDefinition,
): (choices: readonly ChoiceValue[], random: Random, maxChoices: number) => TestCase | undefined {
  return (choices, random, maxChoices) => {
    const tc = new TestCase(choices, random, maxChoices);
    const previous = setCurrent(tc);
    try {
      tc.args = drawArgs(def, tc);
      return tc;
    } catch {
      return undefined;
    } finally {
      setCurrent(previous);
    }
  };
}

/**
 * A property's arguments drawn again from `choices` in a case of their own, the body not called: the case, and
 * the arguments (undefined when drawing threw: a filter gave up, an overrun, a strategy's own error).
 */
function drawnAgain(
  def: PropertyDefinition,
  choices: readonly ChoiceValue[],
  maxChoices: number,
): { again: TestCase; args: unknown[] | undefined } {
  const again = new TestCase(choices, null, maxChoices);
  const previous = setCurrent(again);
  try {
    return { again, args: drawArgs(def, again) };
  } catch {
    return { again, args: undefined };
  } finally {
    setCurrent(previous);
  }
}

/** Whether every span of the property's cases comes from drawing its arguments (Engine.respan can redraw them). */
export function spansFromArguments(
  def: Pick<PropertyDefinition, "passes" | "slices" | "present" | "strategies">,
): boolean {
  // A machine draws its steps, st.data() its values, a function made by st.functions() its results, a schedule
  // being shrunk its decisions (schedules/, with passes of its own), all in the body.
  return (
    def.passes === undefined &&
    def.slices === undefined &&
    def.present === undefined &&
    !def.strategies.some(isData) &&
    !makesFunctions(def.strategies)
  );
}

/**
 * A shrink target's arguments as the report would print them, drawn again from its choices in a case of their
 * own (the body is not called, so what it did to its arguments does not show). Undefined when drawing fails.
 */
function argumentsOf(
  def: PropertyDefinition,
): (choices: readonly ChoiceValue[], maxChoices: number) => Presentation | undefined {
  return (choices, maxChoices) => {
    const { args } = drawnAgain(def, choices, maxChoices);
    if (args === undefined) return undefined;
    try {
      return { kind: "arguments", text: reproOf(def, args, undefined) };
    } catch {
      return undefined;
    }
  };
}
