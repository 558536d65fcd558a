/**
 * A small `expect` for files written against vitest or jest, so they run without either installed: the
 * common matchers, `.not`, `.resolves`/`.rejects`, and `expect.any`/`expect.anything`. Failures throw
 * node's AssertionError with jest-like messages, and the stack starts at the user's `expect(...)` line — the
 * engine tells failures apart by their first stack frame, so frames inside this file must not appear.
 */
import { AssertionError } from "node:assert";
import { inspect, isDeepStrictEqual } from "node:util";

interface Asymmetric {
  asymmetricMatch(actual: unknown): boolean;
  toString(): string;
}

function isAsymmetric(x: unknown): x is Asymmetric {
  return x !== null && typeof x === "object" && typeof (x as Asymmetric).asymmetricMatch === "function";
}

const show = (v: unknown): string => (isAsymmetric(v) ? v.toString() : inspect(v, { depth: 6, breakLength: Infinity }));

/** jest's toEqual: recursive, ignores undefined properties and prototypes; asymmetric matchers match. */
export function equals(a: unknown, b: unknown): boolean {
  if (isAsymmetric(b)) return b.asymmetricMatch(a);
  if (isAsymmetric(a)) return a.asymmetricMatch(b);
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime());
  if (a instanceof RegExp || b instanceof RegExp) return String(a) === String(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof Map || b instanceof Map || a instanceof Set || b instanceof Set || ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) return isDeepStrictEqual(a, b);
  if (Array.isArray(a) && a.length !== (b as unknown[]).length) return false;
  const keys = (o: object) => Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined);
  const ka = keys(a);
  const kb = keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** toMatchObject: every property of `expected` is present and matches, recursively. */
function matchesObject(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== "object" || expected === null || isAsymmetric(expected) || typeof actual !== "object" || actual === null) return equals(actual, expected);
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => matchesObject(actual[i], e));
  return Object.keys(expected).every((k) => k in actual && matchesObject((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k]));
}

function getPath(obj: unknown, keyPath: string | readonly string[]): { found: boolean; value: unknown } {
  const parts = typeof keyPath === "string" ? keyPath.split(".") : keyPath;
  let cur: unknown = obj;
  for (const p of parts) {
    if (cur === null || cur === undefined || !(p in Object(cur))) return { found: false, value: undefined };
    cur = (cur as Record<string, unknown>)[p];
  }
  return { found: true, value: cur };
}

/** A matcher: whether it passed, and the message lines explaining it (used for both the plain and .not case). */
type Matcher = (actual: unknown, ...expected: unknown[]) => { pass: boolean; detail: string };

const MATCHERS = {
  toBe: (a, e) => ({ pass: Object.is(a, e), detail: `Expected: ${show(e)}\nReceived: ${show(a)}` }),
  toEqual: (a, e) => ({ pass: equals(a, e), detail: `Expected: ${show(e)}\nReceived: ${show(a)}` }),
  toStrictEqual: (a, e) => ({ pass: isDeepStrictEqual(a, e), detail: `Expected: ${show(e)}\nReceived: ${show(a)}` }),
  toMatchObject: (a, e) => ({ pass: matchesObject(a, e), detail: `Expected to contain: ${show(e)}\nReceived: ${show(a)}` }),
  toBeTruthy: (a) => ({ pass: !!a, detail: `Received: ${show(a)}` }),
  toBeFalsy: (a) => ({ pass: !a, detail: `Received: ${show(a)}` }),
  toBeNull: (a) => ({ pass: a === null, detail: `Received: ${show(a)}` }),
  toBeUndefined: (a) => ({ pass: a === undefined, detail: `Received: ${show(a)}` }),
  toBeDefined: (a) => ({ pass: a !== undefined, detail: `Received: ${show(a)}` }),
  toBeNaN: (a) => ({ pass: Number.isNaN(a), detail: `Received: ${show(a)}` }),
  toBeGreaterThan: (a, e) => ({ pass: (a as number) > (e as number), detail: `Expected: > ${show(e)}\nReceived: ${show(a)}` }),
  toBeGreaterThanOrEqual: (a, e) => ({ pass: (a as number) >= (e as number), detail: `Expected: >= ${show(e)}\nReceived: ${show(a)}` }),
  toBeLessThan: (a, e) => ({ pass: (a as number) < (e as number), detail: `Expected: < ${show(e)}\nReceived: ${show(a)}` }),
  toBeLessThanOrEqual: (a, e) => ({ pass: (a as number) <= (e as number), detail: `Expected: <= ${show(e)}\nReceived: ${show(a)}` }),
  toBeCloseTo: (a, e, digits = 2) => ({
    pass: Math.abs((a as number) - (e as number)) < 10 ** -(digits as number) / 2,
    detail: `Expected: ${show(e)} (to ${String(digits)} digits)\nReceived: ${show(a)}`,
  }),
  toBeInstanceOf: (a, e) => ({ pass: a instanceof (e as new () => unknown), detail: `Expected an instance of: ${(e as { name?: string }).name}\nReceived: ${show(a)}` }),
  toBeTypeOf: (a, e) => ({ pass: typeof a === e, detail: `Expected type: ${String(e)}\nReceived: ${typeof a}` }),
  toContain: (a, e) => ({
    pass: typeof a === "string" ? a.includes(String(e)) : Array.from(a as Iterable<unknown>).some((x) => x === e),
    detail: `Expected to contain: ${show(e)}\nReceived: ${show(a)}`,
  }),
  toContainEqual: (a, e) => ({ pass: Array.from(a as Iterable<unknown>).some((x) => equals(x, e)), detail: `Expected to contain: ${show(e)}\nReceived: ${show(a)}` }),
  toHaveLength: (a, e) => ({ pass: (a as { length?: unknown })?.length === e, detail: `Expected length: ${show(e)}\nReceived length: ${show((a as { length?: unknown })?.length)}` }),
  toHaveProperty: (a, p, ...v) => {
    const { found, value } = getPath(a, p as string);
    return { pass: found && (v.length === 0 || equals(value, v[0])), detail: `Expected property: ${show(p)}${v.length ? ` = ${show(v[0])}` : ""}\nReceived: ${show(a)}` };
  },
  toMatch: (a, e) => ({ pass: typeof a === "string" && (e instanceof RegExp ? e.test(a) : a.includes(String(e))), detail: `Expected to match: ${show(e)}\nReceived: ${show(a)}` }),
  toThrow: (a, e) => {
    if (typeof a !== "function") return { pass: false, detail: `Received value must be a function, got ${show(a)}` };
    try {
      (a as () => unknown)();
    } catch (thrown) {
      const message = thrown instanceof Error ? thrown.message : String(thrown);
      const pass =
        e === undefined ||
        (typeof e === "string" && message.includes(e)) ||
        (e instanceof RegExp && e.test(message)) ||
        (typeof e === "function" && thrown instanceof (e as new () => unknown)) ||
        (e instanceof Error && message === e.message) ||
        (isAsymmetric(e) && e.asymmetricMatch(thrown));
      return { pass, detail: `Expected thrown: ${show(e)}\nThrown: ${show(thrown)}` };
    }
    return { pass: false, detail: `Expected thrown: ${e === undefined ? "anything" : show(e)}\nNothing was thrown` };
  },
} satisfies Record<string, Matcher>;
const ALL_MATCHERS: Record<string, Matcher> = { ...MATCHERS, toThrowError: MATCHERS.toThrow };
type MatcherName = keyof typeof MATCHERS | "toThrowError";

type Mode = "plain" | "resolves" | "rejects";

/** What expect(value) returns; matchers live on the prototype so a call in a hot property body is cheap. */
// Declaration merging types the matchers the loop below installs on the prototype.
interface Expectation extends Record<MatcherName, (...expected: unknown[]) => void | Promise<void>> {}
class Expectation {
  constructor(
    readonly actual: unknown,
    readonly negate: boolean,
    readonly mode: Mode,
    readonly label: string | undefined,
  ) {}
  get not(): Expectation {
    return new Expectation(this.actual, !this.negate, this.mode, this.label);
  }
  get resolves(): Expectation {
    return new Expectation(this.actual, this.negate, "resolves", this.label);
  }
  get rejects(): Expectation {
    return new Expectation(this.actual, this.negate, "rejects", this.label);
  }
}

function fail(message: string, stackStartFn: (...a: never[]) => unknown, site: Error | undefined, extra?: { actual: unknown; expected: unknown; operator: string }): never {
  const error = new AssertionError({ message, stackStartFn, ...extra });
  // After an await the matcher is no longer on the stack: use the frames captured when it was called.
  if (site?.stack !== undefined) error.stack = `${error.name}: ${message}${site.stack.slice(site.stack.indexOf("\n"))}`;
  throw error;
}

for (const [name, matcher] of Object.entries(ALL_MATCHERS)) {
  // Under .rejects, toThrow examines the rejection reason as if it had been thrown.
  const throwing = name === "toThrow" || name === "toThrowError";
  const check = (e: Expectation, value: unknown, expected: unknown[], start: (...a: never[]) => unknown, site: Error | undefined) => {
    const { pass, detail } = matcher(value, ...expected);
    if (pass !== e.negate) return;
    const head = `expect(received).${e.negate ? "not." : ""}${name}(${expected.map(show).join(", ")})`;
    fail(`${e.label ? `${e.label}: ` : ""}${head}\n\n${detail}`, start, site, { actual: value, expected: expected[0], operator: name });
  };
  const method = function (this: Expectation, ...expected: unknown[]): void | Promise<void> {
    if (this.mode === "plain") return check(this, this.actual, expected, method, undefined);
    const site = new Error();
    Error.captureStackTrace(site, method);
    const mode = this.mode;
    return Promise.resolve(this.actual).then(
      (value) => (mode === "rejects" ? fail(`expected the promise to reject, it resolved to ${show(value)}`, method, site) : check(this, value, expected, method, site)),
      (error: unknown) => (mode === "rejects" ? check(this, throwing ? () => { throw error; } : error, expected, method, site) : fail(`expected the promise to resolve, it rejected with ${show(error)}`, method, site)),
    );
  };
  Object.defineProperty(Expectation.prototype, name, { value: method });
}

/**
 * jest's and vitest's expect state: the running test's name, which the engine reads for the property's
 * database key (so a run here uses the key the user's own runner uses). Set per test by the shim.
 */
const state: { currentTestName: string | undefined } = { currentTestName: undefined };

/** expect(value, message?) — vitest allows a message that prefixes the failure. */
export const expect = Object.assign((actual: unknown, label?: string) => new Expectation(actual, false, "plain", label), {
  getState: () => ({ ...state }),
  setState: (update: { currentTestName?: string }) => void Object.assign(state, update),
  any: (ctor: unknown): Asymmetric => ({
    asymmetricMatch: (a) =>
      ctor === Number ? typeof a === "number" : ctor === String ? typeof a === "string" : ctor === Boolean ? typeof a === "boolean" : ctor === Function ? typeof a === "function" : a instanceof (ctor as new () => unknown),
    toString: () => `Any<${(ctor as { name?: string }).name}>`,
  }),
  anything: (): Asymmetric => ({ asymmetricMatch: (a) => a !== null && a !== undefined, toString: () => "Anything" }),
  assertions: (_n: number) => {},
  hasAssertions: () => {},
});
