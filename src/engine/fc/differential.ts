/**
 * The differential mode of a trial migration (SHRINKSCOPE_FC_DIFF=1): each fc.assert or fc.check also runs the
 * original property on fast-check — the project's own copy — and a disagreement in outcome (one library passes, the
 * other fails) is reported on stderr, naming the property's file and line, with fast-check's counterexample.
 *
 * Each arbitrary remembers how fast-check makes the same one (its recipe: the fc.* call with its arguments, the
 * arbitraries among them made fast-check's in turn; `.map`, `.filter` and `.chain` too). A property whose arbitraries
 * include one without a recipe (an `st.*` strategy, `fc.letrec`, `fc.memo`) is not compared, and the report says so
 * once. While fast-check runs the predicate, fc.pre and fc.scheduledModelRun are fast-check's.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { warnOnce } from "./options.ts";

/** fast-check's module, as much of it as the recipes call. */
type FastCheck = Record<string, (...args: unknown[]) => unknown>;

/** How fast-check makes the arbitrary equal to one of ours. */
export type Recipe = (real: FastCheck) => unknown;

const recipes = new WeakMap<object, Recipe>();

/** The variable that turns the mode on. */
export const DIFF_VARIABLE = "SHRINKSCOPE_FC_DIFF";

export function differential(): boolean {
  return typeof process !== "undefined" && process.env[DIFF_VARIABLE] === "1";
}

/** Remember `recipe` for `arbitrary` (when the mode is on: otherwise nothing is kept). */
export function remember<A extends object>(arbitrary: A, recipe: Recipe): A {
  if (differential()) recipes.set(arbitrary, recipe);
  return arbitrary;
}

/** `make`, whose result fast-check makes by calling its own `name` with the same arguments (arbitraries made its). */
export function recorded<F extends (...args: never[]) => object>(name: string, make: F): F {
  return ((...args: never[]) =>
    remember(make(...args), (real) => {
      const f = real[name];
      if (typeof f !== "function") throw new NoRecipe(`fast-check has no ${name}`);
      return f(...args.map((a) => toReal(a, real)));
    })) as F;
}

class NoRecipe extends Error {}

/** `v` with each arbitrary of ours in it (in arrays and plain objects, at any depth) made fast-check's. */
export function toReal(v: unknown, real: FastCheck): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map((x) => toReal(x, real));
  const recipe = recipes.get(v);
  if (recipe !== undefined) return recipe(real);
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) {
    if (isStrategy(v))
      throw new NoRecipe(`an argument is not an fc.* arbitrary (${v.constructor?.name ?? "a strategy"})`);
    return v;
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toReal(x, real)]));
}

function isStrategy(v: object): boolean {
  return typeof (v as { draw?: unknown }).draw === "function" && "label" in v;
}

/** Set while fast-check runs a predicate: fc.pre and fc.scheduledModelRun are fast-check's then. */
export let fastCheckRunning: FastCheck | null = null;

/** The project's fast-check, or null (said once) when it has none. */
function fastCheck(): FastCheck | null {
  try {
    const req = createRequire(path.join(process.cwd(), "package.json"));
    const m = req("fast-check") as FastCheck & { default?: FastCheck };
    return m.default ?? m;
  } catch {
    warnOnce(
      "diff: no fast-check",
      `${DIFF_VARIABLE}=1, but fast-check cannot be loaded from ${process.cwd()}: install it to compare`,
    );
    return null;
  }
}

/** Where a property was declared: the first frame of its declaration outside this adapter, when the mode is on. */
export function declaredAt(): string | undefined {
  if (!differential()) return undefined;
  const frames = (new Error().stack ?? "").split("\n").slice(1);
  const outside = frames.find(
    (l) => /\bat\b/.test(l) && !/[\\/](src[\\/]engine|dist[\\/](fc|engine|vitest|jest))[\\/.]/.test(l),
  );
  const frame = outside?.trim().replace(/^at\s+/, "");
  return frame?.match(/\((.*)\)$/)?.[1] ?? frame;
}

/**
 * Run the property on fast-check too and report a disagreement with `ours` (did Shrinkscope's run fail?). A promise
 * when the predicate is async.
 */
export function compare(
  what: { arbitraries: readonly object[]; predicate: Function; async: boolean; at: string | undefined },
  numRuns: number | undefined,
  ours: boolean,
): void | Promise<void> {
  const real = fastCheck();
  if (real === null) return;
  let property: unknown;
  try {
    const arbs = what.arbitraries.map((a) => toReal(a, real));
    property = (what.async ? real.asyncProperty : real.property)(...arbs, what.predicate);
  } catch (e) {
    if (!(e instanceof NoRecipe)) throw e;
    warnOnce(
      `diff: ${what.at}`,
      `${DIFF_VARIABLE}: the property at ${what.at ?? "an unknown place"} is not compared: ${e.message}`,
    );
    return;
  }
  const report = (details: { failed: boolean; counterexample: unknown; errorInstance?: unknown }) => {
    if (details.failed === ours) return;
    const theirs = details.failed
      ? `it failed on ${safe(() => real.stringify(details.counterexample))}${details.errorInstance instanceof Error ? ` (${details.errorInstance.message.split("\n")[0]})` : ""}`
      : "it passed";
    console.error(
      `shrinkscope/fc ${DIFF_VARIABLE}: the property at ${what.at ?? "an unknown place"} ${ours ? "failed" : "passed"} on Shrinkscope; on fast-check ${theirs}`,
    );
  };
  fastCheckRunning = real;
  let out: unknown;
  try {
    out = real.check(property, numRuns === undefined ? {} : { numRuns });
  } catch (e) {
    fastCheckRunning = null;
    throw e;
  }
  if (!(out instanceof Promise)) {
    fastCheckRunning = null;
    report(out as Parameters<typeof report>[0]);
    return;
  }
  return out.then(
    (d) => {
      fastCheckRunning = null;
      report(d as Parameters<typeof report>[0]);
    },
    (e: unknown) => {
      fastCheckRunning = null;
      throw e;
    },
  );
}

function safe(f: () => unknown): string {
  try {
    return String(f());
  } catch {
    return "(a value that cannot be printed)";
  }
}
