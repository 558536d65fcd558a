/**
 * The tests a file registers, as a tree of suites (describe blocks) with their hooks, and how to run one
 * test with exactly the hooks that apply to it — the part of a test runner the runner needs, and no more.
 *
 * Registration happens while the bundle loads (describe bodies run immediately, as in jest/vitest/mocha).
 * Running one test: beforeAll of each enclosing suite (outermost first), beforeEach likewise, the test,
 * then afterEach and afterAll innermost first — the after hooks run even when something before failed.
 */

// The user's callbacks: any arity, any `this`, any result.
export type UserFn = (this: any, ...args: any[]) => unknown;

/** How a callback is called: node:test passes a context `t`, vitest a context object, jest/mocha `done`. */
export type Flavor = "node-test" | "vitest" | "jest" | "mocha";

export type HookKind = "beforeAll" | "afterAll" | "beforeEach" | "afterEach";

interface Hook {
  readonly fn: UserFn;
  readonly flavor: Flavor;
}

export interface Suite {
  readonly name: string;
  readonly parent: Suite | undefined;
  readonly children: (Suite | TestEntry)[];
  readonly hooks: Record<HookKind, Hook[]>;
}

export interface TestEntry {
  readonly name: string;
  readonly fn: UserFn | undefined;
  readonly suite: Suite;
  readonly flavor: Flavor;
  /** Captured at registration: where the test is declared (a fallback location for failures). */
  readonly declaredAt: Error;
}

/** Where a run failed: in the test itself, or in a hook (named). */
export interface RunFailure {
  readonly error: unknown;
  readonly where: "test" | HookKind;
}

function newSuite(name: string, parent: Suite | undefined): Suite {
  return { name, parent, children: [], hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] } };
}

/**
 * Builds what a callback receives (see shim.ts): its `this`, its arguments, and `settle`, awaited after it
 * returns (node:test's subtests started with t.test must finish, and fail their parent).
 */
export type ContextFactory = (
  flavor: Flavor,
  name: string,
  fullName: readonly string[],
  onCleanup: (fn: UserFn) => void,
) => { self: unknown; args: unknown[]; settle?: () => Promise<void> };

export class Registry {
  readonly root = newSuite("", undefined);
  private current = this.root;

  constructor(private readonly context: ContextFactory) {}

  describe(name: string, body: UserFn | undefined, flavor: Flavor): void {
    const suite = newSuite(name, this.current);
    this.current.children.push(suite);
    if (body === undefined) return;
    const previous = this.current;
    this.current = suite;
    try {
      const { self, args } = this.context(flavor, name, this.pathOf(suite), () => {});
      body.apply(self, args.slice(0, 1));
    } finally {
      this.current = previous;
    }
  }

  test(name: string, fn: UserFn | undefined, flavor: Flavor, declaredAt: Error): void {
    this.current.children.push({ name, fn, suite: this.current, flavor, declaredAt });
  }

  hook(kind: HookKind, fn: UserFn, flavor: Flavor): void {
    this.current.hooks[kind].push({ fn, flavor });
  }

  /** Every registered test, as [describe names…, test name]. */
  paths(): string[][] {
    const out: string[][] = [];
    const walk = (suite: Suite, prefix: string[]) => {
      for (const child of suite.children) {
        if ("children" in child) walk(child, [...prefix, child.name]);
        else out.push([...prefix, child.name]);
      }
    };
    walk(this.root, []);
    return out;
  }

  find(testPath: readonly string[]): TestEntry | undefined {
    let suites: Suite[] = [this.root];
    for (let i = 0; i < testPath.length - 1; i++) {
      suites = suites.flatMap((s) => s.children.filter((c): c is Suite => "children" in c && c.name === testPath[i]));
    }
    const name = testPath[testPath.length - 1];
    for (const s of suites) {
      const t = s.children.find((c): c is TestEntry => !("children" in c) && c.name === name);
      if (t !== undefined) return t;
    }
    return undefined;
  }

  /** Run one test with its hooks; resolves to the first failure, or undefined when everything passed. */
  async run(entry: TestEntry): Promise<RunFailure | undefined> {
    const chain: Suite[] = [];
    for (let s: Suite | undefined = entry.suite; s !== undefined; s = s.parent) chain.unshift(s);
    const fullName = [...this.pathOf(entry.suite), entry.name];
    let failure: RunFailure | undefined;
    const attempt = async (where: RunFailure["where"], fn: UserFn, flavor: Flavor, cleanups: UserFn[]) => {
      try {
        const { self, args, settle } = this.context(flavor, entry.name, fullName, (c) => cleanups.push(c));
        const result = await invoke(fn, self, args, flavor);
        await settle?.();
        // vitest: a function returned by beforeAll/beforeEach is its teardown.
        if (typeof result === "function" && (where === "beforeAll" || where === "beforeEach"))
          cleanups.push(result as UserFn);
      } catch (error) {
        failure ??= { error, where };
      }
    };
    const afterAll: UserFn[][] = [];
    const afterEach: UserFn[][] = [];
    let entered = 0;
    for (const suite of chain) {
      const cleanups: UserFn[] = [];
      afterAll.push(cleanups);
      entered++;
      for (const h of suite.hooks.beforeAll)
        if (failure === undefined) await attempt("beforeAll", h.fn, h.flavor, cleanups);
      if (failure !== undefined) break;
    }
    if (failure === undefined) {
      for (const suite of chain) {
        const cleanups: UserFn[] = [];
        afterEach.push(cleanups);
        for (const h of suite.hooks.beforeEach)
          if (failure === undefined) await attempt("beforeEach", h.fn, h.flavor, cleanups);
      }
    }
    if (failure === undefined) {
      if (entry.fn === undefined)
        failure = { error: new Error(`"${entry.name}" has no test function (a todo or pending test)`), where: "test" };
      else {
        const cleanups: UserFn[] = [];
        await attempt("test", entry.fn, entry.flavor, cleanups);
        for (const c of cleanups.reverse()) await attempt("afterEach", c, entry.flavor, []);
      }
    }
    for (let i = afterEach.length - 1; i >= 0; i--) {
      for (const c of afterEach[i].reverse()) await attempt("afterEach", c, "vitest", []);
      for (const h of chain[i].hooks.afterEach) await attempt("afterEach", h.fn, h.flavor, []);
    }
    for (let i = entered - 1; i >= 0; i--) {
      for (const c of afterAll[i].reverse()) await attempt("afterAll", c, "vitest", []);
      for (const h of chain[i].hooks.afterAll) await attempt("afterAll", h.fn, h.flavor, []);
    }
    return failure;
  }

  private pathOf(suite: Suite): string[] {
    const names: string[] = [];
    for (let s: Suite | undefined = suite; s !== undefined && s.parent !== undefined; s = s.parent)
      names.unshift(s.name);
    return names;
  }
}

/**
 * Call a user callback the way its framework would: with `done` when it declares one (jest, mocha, and
 * node:test's `(t, done)`), otherwise with the context, awaiting a returned promise.
 */
function invoke(fn: UserFn, self: unknown, args: unknown[], flavor: Flavor): Promise<unknown> {
  const doneIndex = flavor === "node-test" ? 1 : flavor === "vitest" ? -1 : 0;
  if (doneIndex >= 0 && fn.length > doneIndex) {
    return new Promise((resolve, reject) => {
      const done = (err?: unknown) => (err === undefined || err === null ? resolve(undefined) : reject(err));
      done.fail = (err?: unknown) => reject(err ?? new Error("done.fail() was called"));
      try {
        const r = fn.apply(self, [...args.slice(0, doneIndex), done]);
        if (r !== null && typeof r === "object" && typeof (r as PromiseLike<unknown>).then === "function")
          (r as PromiseLike<unknown>).then(undefined, reject);
      } catch (e) {
        reject(e);
      }
    });
  }
  try {
    return Promise.resolve(fn.apply(self, args));
  } catch (e) {
    return Promise.reject(e);
  }
}
