/**
 * fc.assert and fc.check: a property run with fast-check's parameters (parameters.ts). fc.assert throws the engine's
 * PropertyFailure (its message the engine's report: the minimal counterexample, the error, how to replay); fc.check
 * returns fast-check's RunDetails instead. A property whose predicate is async gets a promise from either.
 */
import { check as engineCheck, InvalidArgument, PropertyFailure } from "./engine.ts";
import { typeName } from "./options.ts";
import { FcProperty } from "./property.ts";
import type { Parameters } from "./parameters.ts";
import { parametersOf, settingsOf } from "./parameters.ts";
import type { Settings } from "../property/settings.ts";
import { compare, differential } from "./differential.ts";

/** What fc.check tells of a run, in fast-check's shape. */
export interface RunDetails<Ts> {
  failed: boolean;
  interrupted: boolean;
  numRuns: number;
  numSkips: number;
  numShrinks: number;
  seed: number;
  counterexample: Ts | null;
  errorInstance: unknown | null;
  counterexamplePath: string | null;
  failures: Ts[];
  executionSummary: unknown[];
  verbose: number;
  runConfiguration: Parameters<Ts>;
}

function propertyOf(api: string, p: unknown): FcProperty<unknown[]> {
  if (p instanceof FcProperty) return p as FcProperty<unknown[]>;
  throw new InvalidArgument(`${api}: expects a property made by fc.property or fc.asyncProperty, got ${typeName(p)}`);
}

/** Run the property; throws (or rejects with) a PropertyFailure when it fails. */
export function assert<Ts extends unknown[]>(property: FcProperty<Ts>, params?: Parameters<Ts>): void | Promise<void> {
  const api = "fc.assert";
  const p = propertyOf(api, property);
  const parameters = parametersOf(api, params);
  const ended = runOnce(p, parameters, settingsOf(api, parameters));
  const rethrow = (e: Ended) => {
    if (e.failed) throw e.error;
  };
  if (ended instanceof Promise) return ended.then(rethrow);
  rethrow(ended);
  if (p.async) return Promise.resolve();
}

/** Run the property and tell how it went (fast-check's RunDetails), failing or not; misuse still throws. */
export function check<Ts extends unknown[]>(
  property: FcProperty<Ts>,
  params?: Parameters<Ts>,
): RunDetails<Ts> | Promise<RunDetails<Ts>> {
  const api = "fc.check";
  const p = propertyOf(api, property) as FcProperty<Ts>;
  const parameters = parametersOf(api, params) as Parameters<Ts>;
  const details = (e: Ended): RunDetails<Ts> => detailsOf(p, parameters, e.failed ? e.error : undefined);
  const ended = runOnce(p, parameters, settingsOf(api, parameters));
  if (ended instanceof Promise) return ended.then(details);
  return p.async ? Promise.resolve(details(ended)) : details(ended);
}

/** How a run ended: passed, or the error it was thrown (or rejected) with. */
type Ended = { failed: false } | { failed: true; error: unknown };

/**
 * One run of the property on the engine, ended as a value (a promise when the predicate went async). Under
 * SHRINKSCOPE_FC_DIFF=1, fast-check then runs it too and a disagreement is reported (differential.ts); misuse is
 * not compared.
 */
function runOnce(p: FcProperty<unknown[]>, parameters: Parameters, settings: Settings): Ended | Promise<Ended> {
  const compared = (e: Ended): Ended | Promise<Ended> => {
    if (!differential() || (e.failed && e.error instanceof InvalidArgument)) return e;
    const done = compare(p.comparable, parameters.numRuns, e.failed);
    return done instanceof Promise ? done.then(() => e) : e;
  };
  let out: void | Promise<void>;
  try {
    p.last = undefined;
    out = engineCheck(p.run, settings);
  } catch (error) {
    return compared({ failed: true, error });
  }
  if (out instanceof Promise)
    return out.then(
      () => compared({ failed: false }),
      (error: unknown) => compared({ failed: true, error }),
    );
  return compared({ failed: false });
}

function detailsOf<Ts extends unknown[]>(
  p: FcProperty<Ts>,
  parameters: Parameters<Ts>,
  error: unknown,
): RunDetails<Ts> {
  // Misuse (a bad strategy, a bad call in the predicate) is not a property failing: thrown, as fast-check throws it.
  if (error instanceof InvalidArgument) throw error;
  const verbose = parameters.verbose === true ? 1 : typeof parameters.verbose === "number" ? parameters.verbose : 0;
  const base = {
    interrupted: false,
    counterexamplePath: null,
    failures: [],
    executionSummary: [],
    verbose,
    runConfiguration: parameters,
  };
  if (error instanceof PropertyFailure) {
    const s = error.statistics;
    return {
      ...base,
      failed: true,
      numRuns: s.valid + 1,
      numSkips: s.invalid,
      numShrinks: s.shrinks,
      seed: error.seed,
      counterexample: error.args as Ts,
      errorInstance: error.cause,
    };
  }
  // Passed; or could not test the property (Unsatisfiable: every case was discarded; a health check): failed, with
  // no counterexample, as fast-check's run with too many skipped cases.
  const s = p.last?.statistics;
  return {
    ...base,
    failed: error !== undefined,
    numRuns: s?.valid ?? 0,
    numSkips: s?.invalid ?? 0,
    numShrinks: 0,
    seed: p.last?.seed ?? 0,
    counterexample: null,
    errorInstance: error ?? null,
  };
}
