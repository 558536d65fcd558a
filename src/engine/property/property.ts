/**
 * The public entry points: property(), check(), find(), and the functions a body calls (assume, note,
 * event, target). A property is a plain zero-argument test function, so every test runner can call it.
 *
 * The driver here executes the test cases the engine yields: synchronously while the body returns plain
 * values, switching to promises the first time it returns a thenable. Each case is scoped to its own run
 * (context.ts), so properties running at the same time never see each other's cases.
 */
import * as timers from "node:timers";
import { flushOf, noteOf } from "../databases/exampleDatabase.ts";
import { callInCase, getCurrent, markPending, markSettled, runEnded, setCurrent } from "../core/context.ts";
import type { RunScope } from "../core/context.ts";
import { Engine, Settling } from "../core/engine.ts";
import type { EngineResult, EngineStep } from "../core/engine.ts";
import { DeadlineExceeded, invalid, InvalidArgument, TimeoutError, UnsatisfiedAssumption } from "../util/errors.ts";
import type { EngineEvent, ExplainedArgument, Presentation, RunStatistics, ScheduleInfo, StepInfo } from "../events/events.ts";
import type { Slice } from "../core/explain.ts";
import { argumentSlices } from "../core/explain.ts";
import type { HealthCheck } from "../core/health.ts";
import { formatArgs } from "../print/printer.ts";
import { describeFailure, errorOrigin, errorSummary, literalOrPlaceholder, printArgs, reasonOf } from "./failureMessage.ts";
import type { ResolvedSettings, Settings } from "./settings.ts";
import type { DomainPass } from "../core/shrinker.ts";
import { resolveIsolatedSettings, resolveSettings, validateSettings } from "./settings.ts";
import { definitionKey, withTestName } from "./key.ts";
import { describe, requireStrategy, Strategy } from "../strategies/strategy.ts";
import { data as dataStrategy } from "../strategies/data.ts";
import { Status } from "../core/datatree.ts";
import { StopTest, TestCase } from "../core/testCase.ts";
import type { ChoiceValue } from "../choice/types.ts";
import { now as clock } from "../util/clock.ts";

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

type Body<A extends unknown[]> = (...args: A) => unknown;

interface PropertyDefinition {
  readonly strategies: readonly Strategy<unknown>[];
  readonly body: (...args: unknown[]) => unknown;
  readonly settings: Settings | undefined;
  readonly key: string;
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
  /** The definition to run with these resolved settings (machine() reads stepCount here). */
  readonly forRun?: (settings: ResolvedSettings) => PropertyDefinition;
}

const DEFINITION = Symbol.for("shrinkscope.property");

/** A property: call it (no arguments) to run it; runners' test callbacks can be it directly. */
export interface Property {
  (): void | Promise<void>;
  readonly [DEFINITION]: PropertyDefinition;
}

/**
 * Define a property: for all values the strategies generate, `body` must not throw (or reject).
 * @example test("sort is idempotent", property(st.lists(st.integers()), (xs) => { … }));
 */
export function property<A>(a: Strategy<A>, body: Body<[A]>, settings?: Settings): Property;
export function property<A, B>(a: Strategy<A>, b: Strategy<B>, body: Body<[A, B]>, settings?: Settings): Property;
export function property<A, B, C>(a: Strategy<A>, b: Strategy<B>, c: Strategy<C>, body: Body<[A, B, C]>, settings?: Settings): Property;
export function property<A, B, C, D>(a: Strategy<A>, b: Strategy<B>, c: Strategy<C>, d: Strategy<D>, body: Body<[A, B, C, D]>, settings?: Settings): Property;
export function property<A, B, C, D, E>(a: Strategy<A>, b: Strategy<B>, c: Strategy<C>, d: Strategy<D>, e: Strategy<E>, body: Body<[A, B, C, D, E]>, settings?: Settings): Property;
export function property(...args: unknown[]): Property;
export function property(...args: unknown[]): Property {
  const api = "property";
  let settings: Settings | undefined;
  const last = args[args.length - 1];
  if (args.length > 0 && typeof last === "object" && last !== null && !(last instanceof Strategy)) {
    validateSettings(api, last);
    settings = last;
    args = args.slice(0, -1);
  }
  const body = args[args.length - 1];
  if (typeof body !== "function") invalid(api, `the last argument (before optional settings) must be the property's body function, got ${describe(body)}`);
  // Calling a generator function only creates its iterator: the body would never run, and every case pass.
  const kind = Object.prototype.toString.call(body);
  if (kind === "[object GeneratorFunction]" || kind === "[object AsyncGeneratorFunction]") {
    invalid(api, `the body is a ${kind === "[object GeneratorFunction]" ? "generator" : "async generator"} function (function*): calling it runs none of its code, so nothing would be tested; use a plain or async function`);
  }
  const strategies = args.slice(0, -1);
  strategies.forEach((s, i) => requireStrategy(api, s, `argument ${i}`));
  const def: PropertyDefinition = {
    strategies: strategies as Strategy<unknown>[],
    body: body as (...a: unknown[]) => unknown,
    settings,
    key: definitionKey("property", strategies, body as Function),
  };
  // `this` and the arguments carry the test's name (mocha's context, node:test's t, vitest's context) for the
  // database key; the rest parameter keeps run.length 0, so jest and mocha do not pass a `done` callback.
  const run = function runProperty(this: unknown, ...testArgs: unknown[]): void | Promise<void> {
    return withTestName(this, testArgs, () => runDefinition(def, undefined));
  };
  return Object.assign(run, { [DEFINITION]: def }) as Property;
}

/** Run a property now, with extra settings; throws (or rejects with) PropertyFailure when it fails. */
export function check(prop: Property, settings?: Settings): void | Promise<void> {
  const def = (prop as Partial<Property> | undefined)?.[DEFINITION];
  if (def === undefined) invalid("check", `expects a property made by property(...), got ${describe(prop)}`);
  validateSettings("check", settings);
  return runDefinition(def, settings);
}

class Found {
  constructor(readonly value: unknown) {}
}

/**
 * The simplest value the strategy generates that satisfies the predicate (sync predicates only).
 * Throws if no example is found within maxExamples.
 * @example find(st.lists(st.integers()), (xs) => xs.length > 3) // [0, 0, 0, 0]
 */
export function find<T>(strategy: Strategy<T>, predicate: (value: T) => boolean, settings?: Settings): T {
  requireStrategy("find", strategy, "strategy");
  if (typeof predicate !== "function") invalid("find", `predicate must be a function, got ${describe(predicate)}`);
  validateSettings("find", settings);
  const body = (v: unknown) => {
    const r = predicate(v as T);
    if (r !== null && typeof r === "object" && typeof (r as { then?: unknown }).then === "function") invalid("find", "the predicate returned a promise; find() needs a synchronous predicate");
    if (r) throw new Found(v);
  };
  const def: PropertyDefinition = { strategies: [strategy], body, settings, key: definitionKey("find", [strategy], predicate) };
  try {
    runDefinition(def, { deadline: null, ...settings });
  } catch (e) {
    if (e instanceof PropertyFailure && e.cause instanceof Found) return e.args[0] as T;
    throw e;
  }
  throw new NoSuchExample(`find: no value satisfying the predicate was found in ${settings?.maxExamples ?? 100} examples`);
}

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
  if (typeof value !== "number" || Number.isNaN(value)) invalid("target", `value must be a number, got ${describe(value)}`);
  // Labels key the observations: 5 and "5" would silently be one target, an object every target at once.
  if (typeof label !== "string") invalid("target", `label must be a string, got ${describe(label)}`);
  // One score per label and case: two would leave "the" score of the case to a rule the user cannot see.
  if (tc.hasTargets && tc.targets.some((o) => o.label === label)) invalid("target", `called twice with the label ${JSON.stringify(label)} in one test case; give each observation its own label (a machine's whole sequence is one test case, and so is every seed a simTest workload runs: score a machine once, in teardown(), and a simTest outside the workload)`);
  tc.targets.push({ label, value });
  return value;
}

// ------------------------------------------------------------------------------------------------ driver

function drawArgs(def: PropertyDefinition, tc: TestCase): unknown[] {
  const n = def.strategies.length;
  const args = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    tc.startSpan("argument");
    args[i] = def.strategies[i].draw(tc);
    tc.endSpan();
  }
  return args;
}

/** A case that returned normally: valid, unless it took longer than the deadline. */
function concludePassed(tc: TestCase, deadline: number | null): void {
  tc.closeOpenSpans();
  if (deadline !== null && tc.durationMs > deadline && tc.explicitArgs === undefined) {
    tc.status = Status.Interesting;
    tc.error = new DeadlineExceeded(`test case took ${tc.durationMs.toFixed(1)} ms, over the ${deadline} ms deadline (set deadline: null to disable)`);
    tc.origin = "DeadlineExceeded";
  }
}

/**
 * A case that threw (or rejected with) `error`, whatever the value — `undefined` included: a control-flow
 * stop, a rejected assumption, or a failure of the property. Returns the error when it is misuse
 * (InvalidArgument: a broken strategy found while drawing, a bad call in the body), which ends the run.
 */
function concludeThrown(tc: TestCase, error: unknown): InvalidArgument | undefined {
  tc.closeOpenSpans();
  try {
    if (error instanceof StopTest) {
      tc.status = error.status;
      return undefined;
    }
    if (error instanceof UnsatisfiedAssumption) {
      tc.status = Status.Invalid;
      return undefined;
    }
    if (error instanceof InvalidArgument) return error;
  } catch {
    // instanceof cannot inspect it (a revoked Proxy): it is the user's, a failure
  }
  tc.status = Status.Interesting;
  tc.error = error;
  tc.origin = errorOrigin(error);
  return undefined;
}

/**
 * A copy of an explicit example's plain data (arrays and plain objects, at any depth, cycles kept), so a body
 * that mutates its arguments cannot change the user's `examples` (and the example the next run tries). Other
 * values (class instances, Maps, functions) are passed as they are: copying them could change what they are.
 * Accessor properties are copied as accessors, never called.
 */
function copyPlain(value: unknown, seen: Map<object, unknown>): unknown {
  if (value === null || typeof value !== "object") return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  let proto: unknown;
  try {
    proto = Object.getPrototypeOf(value);
  } catch {
    return value; // a revoked Proxy: passed as it is
  }
  const isArray = Array.isArray(value) && proto === Array.prototype;
  if (!isArray && proto !== Object.prototype && proto !== null) return value;
  try {
    const copy: object = isArray ? [] : Object.create(proto as object | null);
    seen.set(value, copy);
    const descriptors = Object.getOwnPropertyDescriptors(value);
    for (const key of Reflect.ownKeys(descriptors)) {
      const d = descriptors[key as keyof typeof descriptors];
      if ("value" in d) d.value = copyPlain(d.value, seen);
      Object.defineProperty(copy, key, d);
    }
    if (!Object.isExtensible(value)) Object.preventExtensions(copy);
    return copy;
  } catch {
    return value; // a Proxy whose traps throw: the body gets it as it is, and decides
  }
}

type Draw = { label: string | undefined; value: unknown };
/** Draw records printed when they were drawn. */
const printedDraws = new WeakMap<Draw, string>();
function pushPrinted(this: Draw[], ...items: Draw[]): number {
  for (const d of items) printedDraws.set(d, literalOrPlaceholder(d.value));
  return Array.prototype.push.apply(this, items);
}

/** The failure of a body that returned (or resolved to) false. */
function returnedFalse(): Error {
  return new Error("the property returned false (a body fails by throwing; a false return is taken as a failed predicate)");
}

/** Cases whose error was thrown while drawing their arguments (by the user's code inside a strategy). */
const generationFailures = new WeakSet<TestCase>();
/** Explicit examples' arguments, printed before their body ran. */
const explicitRepro = new WeakMap<TestCase, string>();

/**
 * Executes cases; times each body call only when something reads the time (a deadline or an event tap; the
 * timeout has its own timer). Returns a promise only for a case whose body returned a thenable. The
 * current-case context is restored on every path, and misuse (InvalidArgument) is rethrown, ending the run.
 */
function makeExecutor(def: PropertyDefinition, deadline: number | null, timeout: number | null, timed: boolean): (tc: TestCase) => void | Promise<void> {
  const now = timed ? clock : () => 0;
  // An async function's cases are scoped from the first; any other run's once a case returned a thenable.
  // st.data() draws are printed as they are drawn on replays (shrinking, the final replay of the minimal
  // case: random === null), so the report shows what was drawn, not what the body did to it afterwards.
  // Only for a property with an st.data() argument, and never while generating: no cost elsewhere.
  const printDraws = def.strategies.some((s) => s instanceof DataStrategy);
  const scope: RunScope = { scoped: Object.prototype.toString.call(def.body) === "[object AsyncFunction]", lastCallScoped: false };
  return (tc) => {
    const previous = setCurrent(tc);
    // The clock starts once the arguments are drawn: the deadline judges the body, not the engine's generation.
    let t0 = 0;
    let drawn = false;
    let out: unknown;
    let then: unknown;
    try {
      if (printDraws && tc.random === null) tc.interactiveDraws.push = pushPrinted;
      const explicit = tc.explicitArgs;
      // Timed while the health window watches (also when drawing ends the case: a filter, an overrun).
      if (explicit === undefined) tc.args = tc.drawMs < 0 ? drawArgs(def, tc) : tc.timedDraw(() => drawArgs(def, tc));
      else {
        // The body may mutate what it is given: the report prints the example as it was passed in.
        explicitRepro.set(tc, printArgs(explicit));
        tc.args = explicit.map((v) => copyPlain(v, new Map()));
      }
      drawn = true;
      if (tc.cursor !== null && tc.cursor.atConclusion()) {
        tc.duplicate = true; // the DataTree has run exactly this case: do not call the body again
        return;
      }
      t0 = now();
      tc.called = true;
      out = callInCase(tc, def.body, tc.args, scope);
      // Reading `then` can run user code (a getter, a Proxy trap): here, so that if it throws the case fails.
      if (out !== null && (typeof out === "object" || typeof out === "function")) then = (out as { then?: unknown }).then;
    } catch (e) {
      tc.durationMs = drawn ? now() - t0 : 0;
      const misuse = concludeThrown(tc, e);
      if (misuse !== undefined) throw misuse;
      // A user's .map/.filter/.flatMap function threw while the arguments were drawn: the report says so.
      if (!drawn && tc.status === Status.Interesting) generationFailures.add(tc);
      return;
    } finally {
      setCurrent(previous);
    }
    tc.durationMs = now() - t0;
    if (typeof then !== "function") {
      // A predicate-style body (fast-check habit) that returns false must fail, not pass silently.
      if (out === false) concludeThrown(tc, returnedFalse());
      else {
        if (deadline !== null && tc.durationMs > deadline && tc.explicitArgs === undefined) tc.durationMs = confirmedDuration(def, tc, scope, now, tc.durationMs);
        concludePassed(tc, deadline);
      }
      return;
    }
    scope.scoped = true;
    return settle(tc, out as PromiseLike<unknown>, scope.lastCallScoped, t0, now, deadline, timeout);
  };
}

/**
 * A synchronous case over the deadline is run once more on the same choices, and its time is the faster of
 * the two: a pause that was not the body's (a garbage collection, the JIT, the engine's own work, another
 * process) does not come twice, while a body that is slow is slow again. Hypothesis confirms a deadline the
 * same way (and subtracts the garbage collector's time, which Node does not tell synchronously). A second
 * call that throws or settles asynchronously changes nothing here: the engine's replays judge such a body.
 */
function confirmedDuration(def: PropertyDefinition, tc: TestCase, scope: RunScope, now: () => number, first: number): number {
  const again = new TestCase(tc.choices, null, tc.maxChoices);
  const previous = setCurrent(again);
  try {
    again.args = drawArgs(def, again);
    const t0 = now();
    const out = callInCase(again, def.body, again.args, scope);
    const took = now() - t0;
    return out !== null && (typeof out === "object" || typeof out === "function") ? first : Math.min(first, took);
  } catch {
    return first;
  } finally {
    setCurrent(previous);
  }
}

/**
 * The real timer functions, taken when the engine loads: fake timers a test installs later (jest, vitest,
 * sinon replace the globals and node:timers' exports) must neither freeze the timeout nor fire it when the
 * test advances its fake clock.
 */
const setRealTimeout = timers.setTimeout;
const clearRealTimeout = timers.clearTimeout;

/**
 * Wait for a case's thenable, at most `timeout` ms. Its continuations find the case (context.ts) until it
 * settles or times out; whatever happens after that (a late settlement, a late note()) cannot touch it. The
 * timer is cleared as soon as the case ends, so none outlives the run.
 */
function settle(tc: TestCase, out: PromiseLike<unknown>, scoped: boolean, t0: number, now: () => number, deadline: number | null, timeout: number | null): Promise<void> {
  markPending(tc, scoped);
  return new Promise<void>((resolve, reject) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (threw: boolean, error: unknown) => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearRealTimeout(timer);
      markSettled(tc);
      tc.durationMs = now() - t0;
      if (!threw) {
        if (error === false) concludeThrown(tc, returnedFalse());
        else concludePassed(tc, deadline);
      } else {
        const misuse = concludeThrown(tc, error);
        if (misuse !== undefined) return reject(misuse);
      }
      resolve();
    };
    if (timeout !== null) {
      // Keeps the process alive while the case is pending (so a hang is reported, not exited on); cleared in finish.
      timer = setRealTimeout(() => {
        finish(true, new TimeoutError(`the property's promise did not settle within ${timeout} ms (the timeout setting; raise it, or set timeout: null to wait forever)`));
      }, timeout);
    }
    try {
      // Promise.resolve adopts any thenable (reading `then` again: a getter that throws now rejects).
      Promise.resolve(out).then(
        (value: unknown) => finish(false, value === false ? false : undefined),
        (e: unknown) => finish(true, e),
      );
    } catch (e) {
      finish(true, e); // a promise whose `constructor` getter throws
    }
  });
}

/**
 * Drive the engine's generator, executing each yielded case (or waiting for one the engine ran itself and whose
 * body went async: Settling); sync until a body returns a promise.
 */
function drive<R>(gen: Generator<EngineStep, R, TestCase>, execute: (tc: TestCase) => void | Promise<void>): R | Promise<R> {
  let step = gen.next();
  while (!step.done) {
    const v = step.value;
    if (v instanceof Settling) return v.settled.then(() => driveAsync(gen, execute, v.tc));
    const pending = execute(v);
    if (pending !== undefined) return pending.then(() => driveAsync(gen, execute, v));
    step = gen.next(v);
  }
  return step.value;
}

async function driveAsync<R>(gen: Generator<EngineStep, R, TestCase>, execute: (tc: TestCase) => void | Promise<void>, done: TestCase): Promise<R> {
  let step = gen.next(done);
  while (!step.done) {
    const v = step.value;
    let tc: TestCase;
    if (v instanceof Settling) {
      await v.settled;
      tc = v.tc;
    } else {
      tc = v;
      await execute(tc);
    }
    step = gen.next(tc);
  }
  return step.value;
}


/** Marks a body made by simTest (explore.ts): runs in virtual time, so no wall-clock deadline. */
export const SIM_BODY = Symbol.for("shrinkscope.simBody");

/** Run a definition the engine made for itself, with exactly these settings (no runner layer). */
export function runIsolated(def: PropertyDefinition, settings: Settings): void | Promise<void> {
  return runDefinition(def, settings, true);
}

/** Build a property from a prepared definition (machine() in machine.ts); the result runs like property()'s. */
export function propertyFromDefinition(def: PropertyDefinition): Property {
  const run = function runProperty(this: unknown, ...testArgs: unknown[]): void | Promise<void> {
    return withTestName(this, testArgs, () => runDefinition(def, undefined));
  };
  return Object.assign(run, { [DEFINITION]: def }) as Property;
}
export type { PropertyDefinition };

function runDefinition(declared: PropertyDefinition, extra: Settings | undefined, isolated = false): void | Promise<void> {
  let settings = (isolated ? resolveIsolatedSettings : resolveSettings)(declared.key, declared.settings, extra);
  // A simulated body (simTest) runs many whole workloads per example, in virtual time: the wall clock says
  // nothing about it, so the deadline would only fire falsely (the timeout still guards against a hang).
  if (isSimBody(declared.body)) {
    // And its timeout, unless set, is the one without a deadline (60 s): 10 × the default deadline is 2 s, which
    // a big workload's exploration and schedule shrinking can pass without hanging at all.
    const timeoutSet = declared.settings?.timeout !== undefined || extra?.timeout !== undefined;
    settings = { ...settings, deadline: null, ...(timeoutSet ? {} : { timeout: 60_000 }) };
  }
  const def = declared.forRun?.(settings) ?? declared;
  const engine = new Engine(settings, def.passes, def.slices, def.present === undefined && settings.observer !== undefined ? argumentsOf(def) : undefined);
  const execute = makeExecutor(def, settings.deadline, settings.timeout, settings.deadline !== null || settings.observer !== undefined);
  // Once the report is made (it notes the failure beside its save): writes a database still has in flight
  // (RedisDatabase) are waited for, boundedly, before the test can end and its process exit.
  const flush = () => {
    if (settings.database !== null) flushOf(settings.database);
  };
  const reported = (r: EngineResult): void | Promise<never> => {
    let out: void | Promise<never>;
    try {
      out = report(def, settings.seed, r, engine);
    } catch (e) {
      flush();
      throw e;
    }
    if (out instanceof Promise) return out.finally(flush);
    flush();
    return out;
  };
  let result: EngineResult | Promise<EngineResult>;
  try {
    engine.inline = execute;
    if (spansFromArguments(def)) engine.respan = respanOf(def);
    result = drive(engine.run(), execute);
  } catch (e) {
    runEnded();
    flush();
    throw e;
  }
  // drive returns the engine's result itself, or a promise of it (its own, once a body went async).
  if (result instanceof Promise) {
    return result.then(
      (r) => {
        runEnded();
        return reported(r);
      },
      (e: unknown) => {
        runEnded();
        flush();
        throw e;
      },
    );
  }
  runEnded();
  return reported(result);
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

/**
 * A property's arguments drawn again from `choices` in a case of their own, the body not called: the case, and
 * the arguments (undefined when drawing threw: a filter gave up, an overrun, a strategy's own error).
 */
function drawnAgain(def: PropertyDefinition, choices: readonly ChoiceValue[], maxChoices: number): { again: TestCase; args: unknown[] | undefined } {
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
function spansFromArguments(def: PropertyDefinition): boolean {
  // A machine draws its steps, st.data() its values, a simulated schedule its decisions, all in the body.
  return def.passes === undefined && def.slices === undefined && def.present === undefined && !def.strategies.some((s) => s instanceof DataStrategy) && !isSimBody(def.body);
}

function isSimBody(body: PropertyDefinition["body"]): boolean {
  return (body as { [SIM_BODY]?: boolean })[SIM_BODY] === true;
}

/**
 * A shrink target's arguments as the report would print them, drawn again from its choices in a case of their
 * own (the body is not called, so what it did to its arguments does not show). Undefined when drawing fails.
 */
function argumentsOf(def: PropertyDefinition): (choices: readonly ChoiceValue[], maxChoices: number) => Presentation | undefined {
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

/** st.data()'s strategy class, to recognise its argument (its object of draw functions is not a value to print). */
const DataStrategy = dataStrategy().constructor;
const DATA_PLACEHOLDER = "/* st.data(): the values drawn are listed below */ undefined";

/**
 * The repro line: the arguments as TypeScript, with st.data() objects as a placeholder, and, when drawing
 * argument `generating` threw, a placeholder in its place (the arguments after it were never drawn).
 */
function reproOf(def: PropertyDefinition, args: readonly unknown[], generating: number | undefined): string {
  const isData = (i: number) => def.strategies[i] instanceof DataStrategy;
  if (generating === undefined && !args.some((_, i) => isData(i))) return printArgs(args);
  const parts: string[] = [];
  for (let i = 0; i < args.length; i++) parts.push(isData(i) ? DATA_PLACEHOLDER : printArgs([args[i]]));
  if (generating !== undefined) parts.push(`/* argument ${generating}: its strategy threw while generating it (see the error below) */ undefined`);
  return parts.join(", ");
}

/**
 * The arguments one by one, each marked free or not, when the explain phase found some free (else undefined:
 * the report keeps its one-line form). An argument is free when its whole span is one of the free slices.
 */
function explainedArgs(def: PropertyDefinition, args: readonly unknown[], tc: TestCase, free: readonly Slice[] | undefined): ExplainedArgument[] | undefined {
  if (free === undefined || free.length === 0 || tc.explicitArgs !== undefined) return undefined;
  const slices = argumentSlices(tc);
  if (slices.length !== args.length) return undefined;
  const out = args.map((a, i) => ({
    text: def.strategies[i] instanceof DataStrategy ? DATA_PLACEHOLDER : printArgs([a]),
    free: free.some((f) => f.start === slices[i]!.start && f.end === slices[i]!.end),
  }));
  return out.some((a) => a.free) ? out : undefined;
}

/** Turn the engine's result into the user's outcome: return on success, throw on failure (or reject, when presenting it went async). */
function report(def: PropertyDefinition, seed: number, result: EngineResult, engine: Engine): void | Promise<never> {
  const observer = engine.settings.observer;
  const emit = observer === undefined ? undefined : (e: EngineEvent) => observer.event(e);
  if (result.outcome === "gave-up") {
    const check = result.healthCheck;
    if (check === undefined) {
      emit?.({ type: "result", outcome: "gave-up", seed, statistics: result.statistics, message: result.reason });
      throw new Unsatisfiable(`${result.reason} (seed ${seed})`);
    }
    emit?.({ type: "result", outcome: "gave-up", seed, statistics: result.statistics, message: result.reason, healthCheck: check });
    throw new FailedHealthCheck(check, `${result.reason}\nSeed: ${seed}.`);
  }
  if (result.outcome !== "failed") {
    // Only a run that passed is asked: a failure found meanwhile is reported as the failure, whatever else.
    const untested = def.untested?.();
    if (untested !== undefined) {
      emit?.({ type: "result", outcome: "gave-up", seed, statistics: result.statistics, message: untested });
      throw new InvalidArgument(`${untested} (seed ${seed})`);
    }
    const message = result.outcome === "exhausted" ? `passed: all ${result.statistics.valid} possible inputs tried (the input space is exhausted)` : `passed ${result.statistics.valid} examples`;
    emit?.({ type: "result", outcome: result.outcome, seed, statistics: result.statistics, message });
    return;
  }
  const tc = result.case;
  // Print pristine arguments: the body may have mutated the ones it was given, so draw them again.
  let args = tc.args;
  let generating: number | undefined;
  if (tc.explicitArgs === undefined) {
    const fresh = new TestCase(tc.choices, null, engine.settings.maxChoices);
    const previous = setCurrent(fresh);
    const drawnArgs: unknown[] = [];
    try {
      // One by one: when drawing itself failed, the arguments before the one that threw are still shown.
      for (const strategy of def.strategies) {
        fresh.startSpan("argument");
        drawnArgs.push(strategy.draw(fresh));
        fresh.endSpan();
      }
      args = drawnArgs;
    } catch {
      // keep the arguments the body saw; for a failure while generating, those drawn before the one that threw
      if (generationFailures.has(tc)) {
        args = drawnArgs;
        generating = drawnArgs.length;
      }
    } finally {
      setCurrent(previous);
    }
  }
  // Nothing below may throw because of what the user's values do when printed: the failure must come back.
  const repro = explicitRepro.get(tc) ?? reproOf(def, args, generating);
  const explained = generating === undefined ? explainedArgs(def, args, tc, result.free) : undefined;
  const error = tc.error;
  let message: string;
  try {
    message = describeFailure({ result, args, repro, explained, seed, error, notes: tc.notes, draws: tc.interactiveDraws.map((d) => ({ ...d, printed: printedDraws.get(d) })), saved: engine.settings.database !== null && !result.explicit, generating });
  } catch (e) {
    message = `Property failed (the report could not be written: ${reasonOf(e)}).\n\nMinimal failing arguments (TypeScript):\n  ${repro}\n\nSeed: ${seed}. Replay with { seed: ${seed} } or SHRINKSCOPE_SEED=${seed}.`;
  }
  const presentation: Presentation = explained === undefined ? { kind: "arguments", text: repro } : { kind: "arguments", text: repro, args: explained };
  const failure = new PropertyFailure(message, args, error, repro, seed, result.statistics, tc.choices, result.flaky, undefined, presentation);
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
 * Beside the saved failure, how it reads (its printed example and error), for a database that keeps that:
 * RedisDatabase, whose notes an editor on another machine shows as "failed elsewhere". Never throws
 * (GuardedDatabase), and nothing for an explicit example, which is not saved.
 */
function noteFailure(engine: Engine, result: EngineResult & { outcome: "failed" }, failure: PropertyFailure): void {
  const db = engine.settings.database;
  if (db === null || result.explicit) return;
  noteOf(db, engine.settings.databaseKey, result.case.choices, { repro: failure.repro, error: reasonOf(failure.cause) });
}

/** A simTest failure's schedule (explore.ts's ScheduleFailure, recognised by shape: explore.ts imports this module). */
function scheduleOf(error: unknown): { schedule?: ScheduleInfo } {
  try {
    const e = error as { name?: unknown; info?: ScheduleInfo } | null;
    if (typeof e === "object" && e !== null && e.name === "ScheduleFailure" && typeof e.info === "object") return { schedule: e.info };
  } catch {
    // a hostile error object: no schedule, the failure still comes back
  }
  return {};
}

/** Report the failure to the event tap, and throw it. */
function fail(failure: PropertyFailure, result: EngineResult & { outcome: "failed" }, error: unknown, emit: ((e: EngineEvent) => void) | undefined): never {
  const seed = failure.seed;
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
    ...scheduleOf(error),
    message: failure.message,
  });
  throw failure;
}
