/**
 * What the user's test file sees instead of its test runner: the APIs of node:test, vitest, jest
 * (@jest/globals, bun:test) and mocha, reduced to registering tests and hooks by name into a Registry.
 * The bundle's virtual framework modules call the function stored under SHIM_KEY (see bundle.ts); files
 * that use jest or mocha globals without importing them find the same functions on globalThis.
 *
 * This is the fallback path: "Run property" uses the project's own runner when it has one
 * (src/extension/runnerDetect.ts), and this bundled one when none is configured or installed.
 *
 * Modifiers (.skip, .only, .todo, .concurrent, .skipIf, .runIf) register the test like any other: the user
 * chose to run this one test, so a skip marker does not stop it. `.each` expands rows into named tests.
 */
import * as nodeAssert from "node:assert";
import { format } from "node:util";
import { SHIM_KEY } from "./bundle.ts";
// Jest's own standalone expect (all its matchers, expect.extend, asymmetric matchers, its messages): a file
// that passes under jest or vitest must not fail here because a stand-in lacks a matcher.
import { expect } from "expect";
import type { ContextFactory, Flavor, HookKind, Registry, UserFn } from "./registry.ts";

type Register = (...args: unknown[]) => void;

/** Accept the argument shapes of every framework: (name, fn), (name, options, fn), (name, fn, timeout), (fn). */
function parseArgs(args: readonly unknown[]): { name: string; fn: UserFn | undefined } {
  const fn = args.find((a): a is UserFn => typeof a === "function");
  const name =
    typeof args[0] === "string"
      ? args[0]
      : args[0] === undefined || typeof args[0] === "function"
        ? (fn?.name ?? "<anonymous>")
        : String(args[0]);
  return { name, fn };
}

/** jest/vitest `.each` titles: printf placeholders, `$key` for object rows, `%#` for the row index. */
function eachTitle(title: string, row: unknown, index: number): string {
  if (row !== null && typeof row === "object" && !Array.isArray(row)) {
    return title
      .replace(/\$([A-Za-z_][\w.]*)/g, (_, k: string) => format("%o", (row as Record<string, unknown>)[k]))
      .replace(/%#/g, String(index));
  }
  const values = Array.isArray(row) ? row : [row];
  let i = 0;
  const replaced = title.replace(/%[sdifjoOp#%]/g, (m) =>
    m === "%%" ? "%" : m === "%#" ? String(index) : i < values.length ? format(m === "%p" ? "%o" : m, values[i++]) : m,
  );
  return replaced;
}

function withModifiers(register: Register, each: boolean): Register & Record<string, unknown> {
  const fn = ((...a: unknown[]) => register(...a)) as Register & Record<string, unknown>;
  for (const m of ["skip", "only", "todo", "concurrent", "sequential", "shuffle"]) fn[m] = fn;
  fn.skipIf = () => fn;
  fn.runIf = () => fn;
  if (each) {
    fn.each =
      (table: readonly unknown[]) =>
      (title: string, body: UserFn, ...rest: unknown[]) =>
        table.forEach((row, i) =>
          register(
            eachTitle(title, row, i),
            function (this: unknown) {
              return body.apply(this, Array.isArray(row) ? row : [row]);
            },
            ...rest,
          ),
        );
  }
  return fn;
}

export function frameworkApi(registry: Registry, flavor: Flavor): Record<string, unknown> {
  const describe = withModifiers((...a) => {
    const { name, fn } = parseArgs(a);
    registry.describe(name, fn, flavor);
  }, true);
  const test = withModifiers((...a) => {
    const { name, fn } = parseArgs(a);
    registry.test(name, fn, flavor, new Error("declared here"));
  }, true);
  const hook =
    (kind: HookKind) =>
    (...a: unknown[]) => {
      const fn = a.find((x): x is UserFn => typeof x === "function");
      if (fn !== undefined) registry.hook(kind, fn, flavor);
    };
  const noop = () => {};
  const config = {
    setTimeout: noop,
    setConfig: noop,
    resetConfig: noop,
    clearAllMocks: noop,
    resetAllMocks: noop,
    restoreAllMocks: noop,
    retryTimes: noop,
  };
  const hooks = {
    beforeAll: hook("beforeAll"),
    afterAll: hook("afterAll"),
    beforeEach: hook("beforeEach"),
    afterEach: hook("afterEach"),
  };
  switch (flavor) {
    case "node-test": {
      // node:test's module is the test function itself, with the rest as properties (default and named imports).
      return Object.assign(test, {
        test,
        it: test,
        describe,
        suite: describe,
        before: hooks.beforeAll,
        after: hooks.afterAll,
        beforeEach: hooks.beforeEach,
        afterEach: hooks.afterEach,
      });
    }
    case "vitest":
      return {
        describe,
        suite: describe,
        it: test,
        test,
        expect,
        ...hooks,
        vi: config,
        vitest: config,
        onTestFailed: noop,
        onTestFinished: noop,
      };
    case "jest":
      return {
        describe,
        fdescribe: describe,
        xdescribe: describe,
        it: test,
        test,
        fit: test,
        xit: test,
        xtest: test,
        expect,
        ...hooks,
        jest: config,
      };
    case "mocha":
      return {
        describe,
        context: describe,
        suite: describe,
        xdescribe: describe,
        xcontext: describe,
        it: test,
        specify: test,
        test,
        xit: test,
        xspecify: test,
        before: hooks.beforeAll,
        after: hooks.afterAll,
        beforeEach: hooks.beforeEach,
        afterEach: hooks.afterEach,
        suiteSetup: hooks.beforeAll,
        suiteTeardown: hooks.afterAll,
        setup: hooks.beforeEach,
        teardown: hooks.afterEach,
      };
  }
}

/**
 * What each flavor's callbacks receive. Only the commonly used members are real (name, signal, nested
 * t.test, after/onTestFinished cleanups, mocha's chainable this.timeout); the rest are no-ops.
 */
export const contextFactory: ContextFactory = (flavor, name, fullName, onCleanup) => {
  const signal = new AbortController().signal;
  // The test's name as each runner reports it (see src/engine/property/key.ts, which reads it for database keys):
  // jest's currentTestName joins with spaces, vitest's (and its task's suites) with " > "; node:test and
  // mocha keep none in the expect state.
  expect.setState({
    currentTestName: flavor === "jest" ? fullName.join(" ") : flavor === "vitest" ? fullName.join(" > ") : undefined,
  });
  if (flavor === "node-test") {
    const subtests: Promise<void>[] = [];
    const make = (n: string, path: readonly string[]): Record<string, unknown> => {
      const t: Record<string, unknown> = {
        name: n,
        fullName: path.join(" > "),
        signal,
        assert: nodeAssert,
        diagnostic() {},
        skip() {},
        todo() {},
        plan() {},
        runOnly() {},
        after: (fn: UserFn) => onCleanup(fn),
        afterEach() {},
        before() {},
        beforeEach() {},
        test: (...a: unknown[]) => {
          const { name: sub, fn } = parseArgs(a);
          const child = make(sub, [...path, sub]);
          const p = Promise.resolve()
            .then(() => fn?.call(undefined, child))
            .then(() => undefined);
          subtests.push(p);
          return p;
        },
      };
      return t;
    };
    const t = make(name, fullName);
    const settle = async () => {
      for (let i = 0; i < subtests.length; i++) await subtests[i];
    };
    return { self: undefined, args: [t], settle };
  }
  if (flavor === "vitest") {
    // The task's suites, innermost first, as vitest links them (without the file, which has no name here).
    let suite: Record<string, unknown> | undefined;
    for (const n of fullName.slice(0, -1)) suite = { name: n, suite };
    return {
      self: undefined,
      args: [
        {
          task: { name, suite },
          signal,
          expect,
          skip() {},
          onTestFailed() {},
          onTestFinished: (fn: UserFn) => onCleanup(fn),
        },
      ],
    };
  }
  // jest and mocha: no argument besides `done` (added by the registry); mocha reads settings through `this`.
  const self: Record<string, unknown> = { test: { title: name, fullTitle: () => fullName.join(" ") } };
  for (const m of ["timeout", "slow", "retries"]) self[m] = () => self;
  self.skip = () => {};
  return { self, args: [] };
};

/** Make the framework APIs reachable: by the bundle's virtual modules, and as jest/mocha-style globals. */
export function installShim(registry: Registry): void {
  const g = globalThis as Record<string | symbol, unknown>;
  const cache = new Map<string, Record<string, unknown>>();
  g[Symbol.for(SHIM_KEY)] = (flavor: Flavor) => {
    let api = cache.get(flavor);
    if (api === undefined) cache.set(flavor, (api = frameworkApi(registry, flavor)));
    return api;
  };
  // Globals: jest's and mocha's names together (they agree on `done`; mocha's `this` is harmless to jest).
  // Where the names are shared (describe, it, test) jest's win: they also set jest's expect state, which a
  // property checked inside a jest test reads for its database key.
  const globals = { ...frameworkApi(registry, "mocha"), ...frameworkApi(registry, "jest") };
  for (const [k, v] of Object.entries(globals)) if (!(k in g)) g[k] = v;
}
