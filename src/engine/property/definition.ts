/**
 * What a property is to the engine: a PropertyDefinition — its strategies, its body, its settings and
 * database key, and the hooks by which a kind of property (a state machine, stateful/machine.ts) changes how
 * it is shrunk, explained, presented and judged — and the Property a user holds, the test function that
 * carries its definition. property(), machine() and the engine's own inner runs (schedules/) all make one;
 * run.ts runs it.
 */
import type { Slice } from "../core/explain.ts";
import type { DomainPass } from "../core/shrinker.ts";
import type { TestCase } from "../core/testCase.ts";
import type { RunStatistics } from "../events/events.ts";
import type { PropertyFailure } from "./errors.ts";
import type { Executable } from "./executor.ts";
import type { KeyRef } from "./key.ts";
import type { ResolvedSettings, Settings } from "./settings.ts";

export interface PropertyDefinition extends Executable {
  /** The settings the property was made with (check() adds its own to each run). */
  readonly settings: Settings | undefined;
  /** Its database key from its construction, made when first read (key.ts; a run may refine it with the test's name). */
  readonly key: KeyRef;
  /**
   * What tells its inputs apart from another property's, for a replay blob's fingerprint (replay.ts); default: its
   * strategies. A machine's is its class and spec.
   */
  readonly inputShape?: unknown;
  /** Why this kind of property takes no explicit examples (a machine: its cases are steps, not arguments). */
  readonly noExamples?: string;
  /** Why this kind of run takes no replay (find(): it returns a value, nobody pastes a failure into it). */
  readonly noReplay?: string;
  /**
   * Rewrites the run's PropertyFailure before it is reported and thrown (machine() presents its steps this
   * way, replaying them: a promise when the replay went async).
   */
  readonly present?: (failure: PropertyFailure, free: readonly Slice[]) => PropertyFailure | Promise<PropertyFailure>;
  /** The slices the explain phase varies (a machine's step arguments); default: the arguments. */
  readonly slices?: (tc: TestCase) => readonly Slice[];
  /** Shrink passes for this kind of property's own structure (a machine's steps). */
  readonly passes?: readonly DomainPass[];
  /**
   * Why a run in which nothing failed tested nothing all the same (a machine none of whose rules could run), read
   * once the run passed: the message of the InvalidArgument thrown instead of passing; undefined: it passes.
   */
  readonly untested?: () => string | undefined;
  /**
   * The settings a run uses, from those resolved and the layers they were resolved from (the property's own,
   * check()'s); before forRun. A body brings it (BODY_HOOKS): simTest's runs in virtual time, with no deadline.
   */
  readonly settingsForRun?: (resolved: ResolvedSettings, given: readonly (Settings | undefined)[]) => ResolvedSettings;
  /** The definition to run with these resolved settings (machine() reads stepCount here). */
  readonly forRun?: (settings: ResolvedSettings) => PropertyDefinition;
  /** Told how each run ended, before it is reported (BodyHooks.ran). */
  readonly ran?: (end: RunEnd) => void;
}

/**
 * The hooks a body may bring to the definition property() makes of it:
 * - `keySource`: the function whose source text stands for the body in its database key (simTest's workload: its
 *   own wrapper is the same for every simTest; an adapter's predicate);
 * - `caller`: the function the user called to make the property, when not property() itself (an adapter's own
 *   `property`, shrinkscope/fc's): its caller's file keys the property, not the adapter's;
 * - `ran`: told how each run ended, passed or not (shrinkscope/fc's check() reports a passing run's counts).
 */
export type BodyHooks = Pick<PropertyDefinition, "settingsForRun" | "ran"> & {
  readonly keySource?: Function;
  readonly caller?: Function;
};

/** How a run ended, as PropertyDefinition.ran is told: before it is reported (a failure thrown). */
export interface RunEnd {
  readonly outcome: "passed" | "exhausted" | "replayed" | "gave-up" | "failed";
  readonly statistics: RunStatistics;
  readonly seed: number;
}

/**
 * Where a body keeps its hooks (schedules/simTest sets them): a body made by one function and handed to
 * property() can say what kind of body it is no other way. A registered symbol, as the body may come from
 * another copy of the engine.
 */
export const BODY_HOOKS = Symbol.for("shrinkscope.bodyHooks");

/** The hooks `body` brings, if any (a body whose properties cannot be read brings none). */
export function hooksOf(body: Function): BodyHooks | undefined {
  try {
    const hooks = (body as { [BODY_HOOKS]?: unknown })[BODY_HOOKS];
    return typeof hooks === "object" && hooks !== null ? (hooks as BodyHooks) : undefined;
  } catch {
    return undefined;
  }
}

/** Where a Property keeps its definition (a registered symbol: check() recognises a property made by another copy of the engine). */
export const DEFINITION = Symbol.for("shrinkscope.property");

/** A property: call it (no arguments) to run it; runners' test callbacks can be it directly. */
export interface Property {
  (): void | Promise<void>;
  readonly [DEFINITION]: PropertyDefinition;
}
