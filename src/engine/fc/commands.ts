/**
 * Model-based tests, fast-check's way: fc.commands draws a list of commands (each from one of the command
 * arbitraries), and fc.modelRun / fc.asyncModelRun run them against a model and the real system, skipping those whose
 * check() says they do not apply. The list is choices like any other, so it shrinks by deleting commands and
 * simplifying the rest toward the first arbitrary's; a failure's report lists the commands that ran.
 */
import { InvalidArgument, note, st } from "./engine.ts";
import type { Strategy } from "./engine.ts";
import { Arbitrary, arbitraryOf } from "./arbitrary.ts";
import { typeName, constraintsOf, numberOr, SIZE_ONLY } from "./options.ts";

/** A command over a model and the real system (fast-check's ICommand). */
export interface ICommand<Model extends object, Real, RunResult, CheckAsync extends boolean = false> {
  /** Whether the command applies to the model as it is (it must not change it). */
  check(m: Readonly<Model>): CheckAsync extends false ? boolean : Promise<boolean>;
  /** Apply the command to both, checking that they agree (throw when they do not). */
  run(m: Model, r: Real): RunResult;
  /** How the command prints in a failure's report. */
  toString(): string;
}
export interface Command<Model extends object, Real> extends ICommand<Model, Real, void> {}
export interface AsyncCommand<Model extends object, Real, CheckAsync extends boolean = false> extends ICommand<
  Model,
  Real,
  Promise<void>,
  CheckAsync
> {}

/** Lists of commands drawn from `commandArbs`, up to `maxCommands` of them. */
export function commands<Model extends object, Real, C extends ICommand<Model, Real, unknown, boolean>>(
  commandArbs: Strategy<C>[],
  constraints?: { maxCommands?: number; size?: unknown; disableReplayLog?: boolean; replayPath?: string },
): Arbitrary<Iterable<C>> {
  const api = "fc.commands";
  if (!Array.isArray(commandArbs) || commandArbs.length === 0)
    throw new InvalidArgument(`${api}: give an array of command arbitraries, got ${typeName(commandArbs)}`);
  const each = commandArbs.map((a, i) => arbitraryOf<C>(api, a, `command arbitrary ${i}`));
  const o = constraintsOf(api, constraints, ["maxCommands"], ["disableReplayLog", "replayPath", ...SIZE_ONLY]);
  const maxSize = o.maxCommands === undefined ? undefined : numberOr(api, o, "maxCommands", 0);
  return new Arbitrary(
    st.lists(each.length === 1 ? each[0] : st.oneOf(...each), maxSize === undefined ? {} : { maxSize }).map(printable),
  );
}

/** fast-check's symbol for an object's printed form, which the engine's printer honours. */
export const toStringMethod: unique symbol = Symbol.for("fast-check/toStringMethod") as never;

/** Whether `value` has a printed form of its own under `toStringMethod`. */
export function hasToStringMethod<T>(value: T): value is T & { [toStringMethod]: () => string } {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { [toStringMethod]?: unknown })[toStringMethod] === "function"
  );
}

/**
 * A drawn list that prints as fast-check prints one, `[push(1),pop]`, each command by its own toString. The
 * arguments print as drawn, before the body runs, so commands whose check() said no are listed too (fast-check
 * leaves them out); shrinking deletes them when the failure does not need them.
 */
function printable<C>(cmds: C[]): C[] {
  Object.defineProperty(cmds, toStringMethod, { value: () => `[${cmds.map(String).join(",")}]` });
  return cmds;
}

type Setup<Model, Real> = () => { model: Model; real: Real };
type AsyncSetup<Model, Real> = () => Promise<{ model: Model; real: Real }> | { model: Model; real: Real };

/** Run the commands that apply, in order, on what `setup` makes; a command that throws fails the case. */
export function modelRun<Model extends object, Real>(
  setup: Setup<Model, Real>,
  cmds: Iterable<Command<Model, Real>>,
): void {
  const { model, real } = setupOf("fc.modelRun", setup);
  const ran: Command<Model, Real>[] = [];
  for (const c of cmds) {
    if (!c.check(model)) continue;
    ran.push(c);
    try {
      c.run(model, real);
    } catch (e) {
      noteRan(ran);
      throw e;
    }
  }
}

/** modelRun for commands whose check() or run() may be async (and a setup that may be). */
export async function asyncModelRun<Model extends object, Real, CheckAsync extends boolean>(
  setup: Setup<Model, Real> | AsyncSetup<Model, Real>,
  cmds: Iterable<AsyncCommand<Model, Real, CheckAsync>>,
): Promise<void> {
  const { model, real } = await setupOf<{ model: Model; real: Real } | Promise<{ model: Model; real: Real }>>(
    "fc.asyncModelRun",
    setup,
  );
  const ran: AsyncCommand<Model, Real, CheckAsync>[] = [];
  for (const c of cmds) {
    if (!(await c.check(model))) continue;
    ran.push(c);
    try {
      await c.run(model, real);
    } catch (e) {
      noteRan(ran);
      throw e;
    }
  }
}

function setupOf<S>(api: string, setup: () => S): S {
  if (typeof setup !== "function")
    throw new InvalidArgument(
      `${api}: the first argument must be a function returning { model, real }, got ${typeName(setup)}`,
    );
  return setup();
}

/** The commands that ran up to the failing one, for the report (fast-check prints them as the counterexample). */
function noteRan(ran: readonly unknown[]): void {
  note(`Commands run: ${ran.map(String).join(", ")}`);
}
