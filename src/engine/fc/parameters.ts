/**
 * fast-check's run parameters, as the engine's settings: numRuns, seed, examples, endOnFailure, timeout and verbose
 * are mapped; the rest are accepted and warned about once per name (what they do is done another way here, or not
 * at all). configureGlobal sets parameters every run starts from, as fast-check's does. A run never has a per-case
 * deadline (fast-check has none); the example database is on as for any property.
 */
import type { Settings } from "../property/settings.ts";
import { InvalidArgument } from "./engine.ts";
import { typeName, warnOnce } from "./options.ts";

/** A hook run before or after each call of a predicate (fast-check's global and per-property hooks). */
export type PropertyHook = () => void;
export type AsyncPropertyHook = () => void | Promise<void>;

export interface Parameters<T = unknown> {
  seed?: number;
  numRuns?: number;
  examples?: T[];
  endOnFailure?: boolean;
  timeout?: number;
  verbose?: boolean | number;
  beforeEach?: PropertyHook;
  afterEach?: PropertyHook;
  asyncBeforeEach?: AsyncPropertyHook;
  asyncAfterEach?: AsyncPropertyHook;
  /**
   * Not fast-check's: the case a failure's message printed as `Replay: { replay: "…" }`, run alone (the engine's
   * `replay` setting). Given where the message says, in fc.assert's parameters, it replays that case.
   */
  replay?: string;
  /** Accepted, with no effect (a warning once per name). */
  [ignored: string]: unknown;
}

/** Why each parameter with no effect has none: said once, the first time a run is given it. */
const IGNORED: Record<string, string> = {
  path: "a failure replays from the example database, or from the Replay: { replay: … } its message prints",
  randomType: "the engine draws from its own generator",
  unbiased: "generation's bias toward small and special values is part of every draw",
  maxSkipsPerRun: "a run gives up on its own measure of rejected cases (Unsatisfiable)",
  skipAllAfterTimeLimit: "use timeout, or the engine's maxShrinkTimeMs",
  interruptAfterTimeLimit: "use timeout, or the engine's maxShrinkTimeMs",
  markInterruptAsFailure: "a run is not interrupted",
  skipEqualValues: "the engine never calls a property twice on the same input",
  ignoreEqualValues: "the engine never calls a property twice on the same input",
  reporter: "a failure is thrown as a PropertyFailure with its report",
  asyncReporter: "a failure is thrown as a PropertyFailure with its report",
  includeErrorInReport: "the report always includes the error",
  errorWithCause: "the PropertyFailure's cause is the error",
  logger: "the report is the thrown error's message",
  baseSize: "sizes follow the engine's own",
  defaultSizeToMaxWhenMaxSpecified: "sizes follow the engine's own",
  noDefaultPlugins: "fast-check's plugins do not run here",
  noGlobalPlugins: "fast-check's plugins do not run here",
  plugins: "fast-check's plugins do not run here",
};

const MAPPED = ["seed", "numRuns", "examples", "endOnFailure", "timeout", "verbose", "replay"];
const HOOKS = ["beforeEach", "afterEach", "asyncBeforeEach", "asyncAfterEach"];
/** The phases of a run that ends on its first failure: no shrinking, and so nothing to explain. */
const UNSHRUNK = ["explicit", "reuse", "generate", "target"] as const;

let global: Parameters = {};

/** Parameters every run starts from (each run's own override them). */
export function configureGlobal(parameters: Parameters): void {
  if (parameters === null || typeof parameters !== "object")
    throw new InvalidArgument(`fc.configureGlobal: parameters must be an object, got ${typeName(parameters)}`);
  global = { ...parameters };
}
export function readConfigureGlobal(): Parameters {
  return { ...global };
}
export function resetConfigureGlobal(): void {
  global = {};
}

/** The global parameters merged with a run's own. */
export function parametersOf(api: string, given: unknown): Parameters {
  if (given === undefined) return global;
  if (given === null || typeof given !== "object" || Array.isArray(given))
    throw new InvalidArgument(`${api}: parameters must be an object, got ${typeName(given)}`);
  return { ...global, ...(given as Parameters) };
}

/** The engine's settings for a run with parameters `p`. */
export function settingsOf(api: string, p: Parameters): Settings {
  const s: Settings = { deadline: null };
  for (const [k, v] of Object.entries(p)) {
    if (v === undefined || HOOKS.includes(k)) continue;
    if (k in IGNORED) warnOnce(`parameter ${k}`, `the "${k}" parameter is accepted and has no effect: ${IGNORED[k]}`);
    else if (!MAPPED.includes(k)) warnOnce(`parameter ${k}`, `"${k}" is not a fast-check parameter; it has no effect`);
  }
  if (p.numRuns !== undefined) {
    if (!Number.isInteger(p.numRuns) || p.numRuns < 1)
      throw new InvalidArgument(`${api}: numRuns must be a positive integer, got ${typeName(p.numRuns)}`);
    s.maxExamples = p.numRuns;
  }
  if (p.seed !== undefined) {
    if (!Number.isSafeInteger(p.seed))
      throw new InvalidArgument(`${api}: seed must be an integer, got ${typeName(p.seed)}`);
    s.seed = p.seed;
  }
  if (p.examples !== undefined) {
    if (!Array.isArray(p.examples))
      throw new InvalidArgument(`${api}: examples must be an array of argument tuples, got ${typeName(p.examples)}`);
    s.examples = p.examples as unknown[][];
  }
  if (p.endOnFailure === true) s.phases = [...UNSHRUNK];
  if (p.timeout !== undefined) s.timeout = p.timeout;
  if (p.replay !== undefined) s.replay = p.replay;
  if (p.verbose === true || p.verbose === 1) s.verbosity = "verbose";
  else if (typeof p.verbose === "number" && p.verbose >= 2) s.verbosity = "debug";
  return s;
}
