/**
 * Database keys: which saved failures belong to which property.
 *
 * A key must (1) tell apart every two properties a file defines, since the engine deletes a saved failure
 * that passes when replayed — two properties sharing a key delete each other's failures; and (2) stay the same
 * across the edits people make between runs (whitespace, new tests above, a fix in the body) and across the
 * tools that run the file (the user's test runner, and the extension's runner, which bundles the file with
 * esbuild — so the source text of functions differs between the two, while names and structure survive).
 *
 * A key is made of:
 * - the kind (property or find) and the file that called property()/find(), relative to the working folder
 *   (the default database lives there too, so the two move together);
 * - the shape of the strategies: a structural walk over the strategy objects (class names, own fields,
 *   nested strategies, constants), cycle-safe, never forcing a deferred strategy's thunk;
 * - the test's full name when the test runner tells us (node:test's TestContext `fullName`, mocha's
 *   `this.test.fullTitle()`, vitest's task, jest's and vitest's `expect.getState().currentTestName`); then an
 *   occurrence number among the properties of that file, test and shape, counted by call site in the order
 *   they first run — so `test("a", property(…))` is `#0` whatever else the file holds;
 * - when no test name is known (check() from a script, mocha's arrow callbacks, node:test's `t` not passed
 *   on): the source text of the body and of the functions inside the strategies, whitespace removed, and an
 *   occurrence number among the otherwise identical properties of the file, counted by call site in the
 *   order they are constructed. Adding an unrelated property does not shift it; editing the body does change
 *   the key (there is nothing else to tell two nameless properties apart).
 *
 * Call sites (line and column) are never part of a key — only their order among identical properties — so
 * moving code keeps keys, and re-evaluating a file in the same process (a watch mode) finds the same sites.
 * Properties built in a loop at one call site share a key; give each its own `key` setting to separate them.
 *
 * A key is made when it is first read (DefinitionKey, RunKey): only a run with a database (or printing its key)
 * reads it, so a property run without one — CI's default, `database: null` — pays for the capture of its caller's
 * frame and nothing else (the shape walk, the stack's text and the hashes were a third of a small property's
 * setup). The result is the key eager construction made: keys are made in the order their properties were
 * constructed (and their runs resolved), each one's pending ones before it, so occurrence numbers count the same
 * properties in the same order; a stack's text is formatted with the stack formatter in force at construction.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { remembered } from "../util/remembered.ts";
import { stringHash, strippedHash } from "../core/fingerprints.ts";

export type KeyKind = "property" | "find";

interface KeyBase {
  readonly kind: KeyKind;
  readonly file: string;
  /** file:line:column of the property()/find() call. */
  readonly site: string;
  /** Hash of the strategies' structure, without function source text (which bundling changes). */
  readonly shape: string;
}

/** A property's key as the engine holds it: a DefinitionKey, or a string given as it is (the engine's own runs). */
export type KeyRef = string | DefinitionKey;

/** Nameless key → what it was made from, so a run that learns its test's name can re-key. */
const bases = new Map<string, KeyBase>();
/** Occurrence scope → call sites in the order first seen. */
const sites = new Map<string, string[]>();

const hash = remembered((text: string): string => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16));

function occurrence(scope: string, site: string): number {
  let seen = sites.get(scope);
  if (seen === undefined) sites.set(scope, (seen = []));
  const i = seen.indexOf(site);
  if (i >= 0) return i;
  seen.push(site);
  return seen.length - 1;
}

// ------------------------------------------------------------------------------------------------ call site

/** The caller of a property()/find() call as captured at construction: its position, or its stack not yet read. */
type Caller =
  { readonly file: string; readonly site: string } | { readonly holder: { stack?: unknown }; readonly format: unknown };

const UNKNOWN_SITE = { file: "<unknown>", site: "<unknown>" } as const;

/**
 * The first stack frame outside the engine, from the frame of `api`'s caller, the engine function the user called:
 * captured alone (the stack limit set to 1 meanwhile) and read when the key is made — formatting it was a tenth of
 * a small property's setup, and a run without a database never reads it. Below the default stack limit a whole
 * stack may end before the caller's frame (the key's file is then "<unknown>"): the whole stack is read now, so
 * the key stays what it was.
 */
function captureCaller(api: Function): Caller {
  const limit = Error.stackTraceLimit;
  if (typeof limit === "number" && limit >= 10) {
    const holder: { stack?: unknown } = {};
    let captured = false;
    try {
      Error.stackTraceLimit = 1;
      Error.captureStackTrace(holder, api);
      captured = true;
    } catch {
      // read the whole stack below
    } finally {
      Error.stackTraceLimit = limit;
    }
    if (captured) return { holder, format: Error.prepareStackTrace };
  }
  return positionOf(outsideFrame(new Error().stack?.split("\n").slice(1) ?? []));
}

/**
 * The caller's file and position. A captured frame is formatted by the stack formatter that was in force when it
 * was captured (a tool may replace Error.prepareStackTrace in between). A caller inside the engine (a property
 * the engine makes for itself, like st.sample's) has no file of the user's: "<unknown>".
 */
function siteOf(caller: Caller): { file: string; site: string } {
  if (!("holder" in caller)) return caller;
  const current = Error.prepareStackTrace;
  let stack: unknown;
  try {
    if (current !== caller.format) Error.prepareStackTrace = caller.format as typeof current;
    stack = caller.holder.stack;
  } catch {
    stack = undefined;
  } finally {
    if (current !== caller.format) Error.prepareStackTrace = current;
  }
  if (typeof stack !== "string") return UNKNOWN_SITE;
  return positionOf(outsideFrame(stack.split("\n").filter((l) => /^\s+at /.test(l))));
}

function positionOf(frame: string | undefined): { file: string; site: string } {
  const at = frame === undefined ? undefined : framePosition(frame);
  if (at === undefined) return UNKNOWN_SITE;
  const file = fileOf(`${process.cwd()}\0${at.file}`);
  return { file, site: `${file}:${at.line}:${at.column}` };
}

/** The engine's frames, and its adapter's (shrinkscope/fc, bundled apart as dist/fc.*): never a property's caller. */
const ENGINE_FRAME = /[\\/](src[\\/]engine|dist[\\/]engine|dist[\\/]fc\.)/;

function outsideFrame(lines: readonly string[]): string | undefined {
  return lines.find((l) => !ENGINE_FRAME.test(l) && !l.includes("node:internal"));
}
const LINE_COLUMN = /:(\d+):(\d+)\)?$/;

/**
 * A stack line's file, line and column: `at f (file:///a/b.ts:3:7)` or `at /a/b.ts:3:7`. The file is what
 * stands before `:line:column` after the last parenthesis (a path holding one keeps only its end, as before).
 */
export function framePosition(frame: string): { file: string; line: string; column: string } | undefined {
  const m = LINE_COLUMN.exec(frame);
  if (m === null) return undefined;
  const before = frame.slice(0, m.index);
  const file = before.slice(Math.max(before.lastIndexOf("("), before.lastIndexOf(")")) + 1).replace(/^\s*at\s+/, "");
  return file === "" ? undefined : { file, line: m[1]!, column: m[2]! };
}

/** `normaliseFile` of a stack's file under a working folder, given as `<cwd>\0<raw>`. */
const fileOf = remembered((cwdAndRaw: string): string => normaliseFile(cwdAndRaw.slice(cwdAndRaw.indexOf("\0") + 1)));

/** Relative to the working folder with `/` separators (ESM stacks say file://, CJS ones a path). */
function normaliseFile(raw: string): string {
  let file = raw;
  if (file.startsWith("file://")) {
    try {
      file = fileURLToPath(file);
    } catch {
      // keep the URL
    }
  }
  if (path.isAbsolute(file)) {
    const rel = path.relative(process.cwd(), file);
    if (rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel)) file = rel;
  }
  return file.split(path.sep).join("/");
}

// ------------------------------------------------------------------------------------------------ shape

/** Enough structure to tell strategies apart; beyond it, sampledFrom(hugeArray) would cost at construction. */
const SHAPE_BUDGET = 4000;
const MAX_STRING = 200;

/**
 * A structural fingerprint of `value`: class names, own data fields (getters are never called), nested
 * values, and functions either as `fn` or by their source text with whitespace removed. Cycle-safe (a value
 * seen before prints as a back-reference). A deferred strategy's cached `resolved` field is skipped, so the
 * shape is the same before and after its thunk first runs — and the thunk itself is never called.
 */
export function shapeOf(value: unknown, functionText: boolean): string {
  const both = shapesOf(value);
  return functionText ? both.withText : both.plain;
}

/**
 * A function's place in a shape walked once for both forms: MARK, its index among the texts, a NUL. The mark is
 * unguessable, so that no text in a shape (an object's key, a class name) passes for one; it never reaches a key.
 */
const MARK = `\0fn${Math.random().toString(36).slice(2)}:`;
const FUNCTION_MARK = new RegExp(`${MARK}(\\d+)\\0`, "g");

/** shapeOf(value, false) and shapeOf(value, true), from one walk (keys take both). */
function shapesOf(value: unknown): { plain: string; withText: string } {
  const texts: string[] = [];
  const marked = walkShape(value, (f) => `${MARK}${texts.push(sourceText(f)) - 1}\0`);
  if (texts.length === 0) return { plain: marked, withText: marked };
  return {
    plain: marked.replace(FUNCTION_MARK, "fn"),
    withText: marked.replace(FUNCTION_MARK, (_, k: string) => `fn(${texts[Number(k)]})`),
  };
}

function walkShape(value: unknown, fn: (f: Function) => string): string {
  const seen = new Map<object, number>();
  let budget = SHAPE_BUDGET;
  const walk = (v: unknown): string => {
    if (--budget < 0) return "…";
    switch (typeof v) {
      case "number":
        return Object.is(v, -0) ? "-0" : String(v);
      case "string":
        return JSON.stringify(v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}…${v.length}` : v);
      case "bigint":
        return `${v}n`;
      case "boolean":
      case "undefined":
        return String(v);
      case "symbol":
        return `Symbol(${v.description ?? ""})`;
      case "function":
        return fn(v);
    }
    const o = v as object | null;
    if (o === null) return "null";
    const ref = seen.get(o);
    if (ref !== undefined) return `@${ref}`;
    seen.set(o, seen.size);
    try {
      if (Array.isArray(o)) return `[${o.length}:${take(o, walk)}]`;
      if (o instanceof Date) return `Date(${o.getTime()})`;
      if (o instanceof RegExp) return String(o);
      if (o instanceof Map)
        return `Map(${o.size}:${take(o, ([k, x]: [unknown, unknown]) => `${walk(k)}=>${walk(x)}`)})`;
      if (o instanceof Set) return `Set(${o.size}:${take(o, walk)})`;
      if (ArrayBuffer.isView(o)) return `${className(o)}(${o.byteLength})`;
      const fields: string[] = [];
      const lazy = typeof (o as { thunk?: unknown }).thunk === "function";
      for (const k of Object.keys(o)) {
        if (lazy && k === "resolved") continue; // the deferred strategy's cache, filled by its first draw
        const d = Object.getOwnPropertyDescriptor(o, k);
        fields.push(`${k}:${d !== undefined && "value" in d ? walk(d.value) : "get"}`);
      }
      return `${className(o)}{${fields.join(",")}}`;
    } catch {
      return "?"; // a proxy that throws, a Map whose iterator was replaced…: the shape is only a fingerprint
    }
  };
  /** The items of a collection while the budget lasts: a fingerprint needs no more (st.just(new Array(2 ** 32 - 1))). */
  function take<T>(items: Iterable<T>, f: (item: T) => string): string {
    const out: string[] = [];
    for (const item of items) {
      if (budget <= 0) {
        out.push("…");
        break;
      }
      out.push(f(item));
    }
    return out.join(",");
  }
  return walk(value);
}

function className(o: object): string {
  try {
    const name = (Object.getPrototypeOf(o) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === "string" ? name : "Object";
  } catch {
    return "?";
  }
}

function sourceText(f: Function): string {
  return rawSourceText(f).replace(/\s+/g, "");
}

/** A function's source text as written ("?" when it cannot be read). */
function rawSourceText(f: Function): string {
  try {
    return Function.prototype.toString.call(f);
  } catch {
    return "?";
  }
}

/** A short hash of the strategies' structure (shapeOf without function text): what a replay blob is checked against. */
export function shapeHash(strategies: unknown): string {
  return hash(shapeOf(strategies, false)).slice(0, 8);
}

// ------------------------------------------------------------------------------------------------ keys

/**
 * Keys constructed and not read yet, in the order they were constructed (a DefinitionKey) or resolved for a run
 * (a RunKey), from `first` on. Reading a key makes every one before it first, so occurrence numbers are counted in
 * the order eager construction counted them. At most MAX_PENDING wait: past that the oldest is made, so a process
 * that makes properties without end (a loop, a fuzzing harness) holds no more of their strategies than that.
 */
const pending: (PendingKey | undefined)[] = [];
let first = 0;
const MAX_PENDING = 10_000;

/** A key made when first read (`value`), after every key pending before it. */
abstract class PendingKey {
  #value: string | undefined;

  get value(): string {
    if (this.#value === undefined) makeUpTo(this);
    return this.#value!;
  }

  make(): void {
    if (this.#value === undefined) this.#value = this.compute();
  }

  /** The key's text (called once), from what the key was made of; drop what is no longer needed. */
  protected abstract compute(): string;
}

function enqueue(key: PendingKey): void {
  pending.push(key);
  if (pending.length - first > MAX_PENDING) makeUpTo(pending[first]!);
}

/** Make the pending keys up to `key`, in order. */
function makeUpTo(key: PendingKey): void {
  while (first < pending.length) {
    const next = pending[first]!;
    pending[first++] = undefined;
    next.make();
    if (next === key) break;
  }
  if (first === pending.length) {
    pending.length = 0;
    first = 0;
  } else if (first > 1024 && first * 2 > pending.length) {
    pending.splice(0, first);
    first = 0;
  }
}

/**
 * The key of a property or find() from its construction (make it in property()/find() directly, so the call site
 * is the user's): `<file>::<kind>::<shape>.<texts>#<n>`, the key used when no test name is known (a RunKey may
 * refine it).
 */
export class DefinitionKey extends PendingKey {
  #caller: Caller | undefined;
  #strategies: readonly unknown[] | undefined;
  #body: Function | undefined;
  /** The body's source text, whitespace removed: read once, for the key and the seed text both. */
  #bodyText: string | undefined;
  /** The seed text's hash, when made without the text (seedHash). */
  #seedHash: number | undefined;

  constructor(
    readonly kind: KeyKind,
    strategies: readonly unknown[],
    body: Function,
    api: Function,
  ) {
    super();
    this.#caller = captureCaller(api);
    this.#strategies = strategies;
    this.#body = body;
    enqueue(this);
  }

  /**
   * What a derandomised run's seed is made from without making the key: the kind and the body's source text,
   * whitespace removed (a run in CI reads no key).
   */
  get seedText(): string {
    return `${this.kind}\0${this.bodyText()}`;
  }

  /** stringHash(seedText), without making the text (settings.ts: a derandomised run's seed). */
  get seedHash(): number {
    // Once the key is made, the body is let go and its stripped text kept: hash that.
    if (this.#bodyText !== undefined) return stringHash(this.seedText);
    return (this.#seedHash ??= strippedHash(`${this.kind}\0`, rawSourceText(this.#body!)));
  }

  private bodyText(): string {
    return (this.#bodyText ??= sourceText(this.#body!));
  }

  protected compute(): string {
    const { file, site } = siteOf(this.#caller!);
    const shapes = shapesOf(this.#strategies!);
    const shape = hash(shapes.plain);
    const texts = hash(`${shapes.withText}|${this.bodyText()}`);
    const kind = this.kind;
    const key = `${file}::${kind}::${shape}.${texts}#${occurrence(`${kind}\0${file}\0${texts}\0${shape}`, site)}`;
    if (!bases.has(key)) bases.set(key, { kind, file, site, shape });
    this.#caller = undefined;
    this.#strategies = undefined;
    this.#body = undefined;
    return key;
  }
}

/** The text of a DefinitionKey made now (for tools and tests; property(), find() and machine() make it lazily). */
export function definitionKey(kind: KeyKind, strategies: readonly unknown[], body: Function, api: Function): string {
  return new DefinitionKey(kind, strategies, body, api).value;
}

/** A key's text, made now if it was not yet. */
export function keyText(key: KeyRef | RunKey): string {
  return typeof key === "string" ? key : key.value;
}

/** What a derandomised seed is made from: a definition's seed text, or a key given as a string itself. */
export function seedTextOf(key: KeyRef): string {
  return typeof key === "string" ? key : key.seedText;
}

/** stringHash(seedTextOf(key)), without making a definition key's text. */
export function seedHashOf(key: KeyRef): number {
  return typeof key === "string" ? stringHash(key) : key.seedHash;
}

/**
 * The key for one run: with the test's full name when known, `<file>::<kind>::<test name>::<shape>#<n>`,
 * where n counts call sites of that file, test and shape in the order they first run. Keys that did not come
 * from definitionKey (a user's `key` setting, an already refined key) are returned unchanged.
 */
export function keyForRun(key: string, testName: string | undefined): string {
  const base = bases.get(key);
  if (base === undefined || testName === undefined || testName === "") return key;
  const n = occurrence(`${base.kind}\0${base.file}\0${base.shape}\0\0${testName}`, base.site);
  return `${base.file}::${base.kind}::${testName}::${base.shape}#${n}`;
}

/** A run's key refined by its test's name (keyForRun). */
export class RunKey extends PendingKey {
  #key: KeyRef | undefined;
  readonly #testName: string;

  constructor(key: KeyRef, testName: string) {
    super();
    this.#key = key;
    this.#testName = testName;
    enqueue(this);
  }

  protected compute(): string {
    const key = keyForRun(keyText(this.#key!), this.#testName);
    this.#key = undefined;
    return key;
  }
}

/** A key as a person reads it, for printed lines: "file > test name", "file (property #n)", or a `key` setting as given. */
export function keyLabel(key: string): string {
  const parts = key.split("::");
  if (parts.length < 3 || (parts[1] !== "property" && parts[1] !== "find")) return key;
  const n = /#(\d+)$/.exec(parts[parts.length - 1]!)?.[1] ?? "0";
  if (parts.length >= 4) return `${parts[0]} > ${parts.slice(2, -1).join("::")}${n === "0" ? "" : ` #${n}`}`;
  return `${parts[0]} (${parts[1]} #${n})`;
}

// ------------------------------------------------------------------------------------------------ test names

function field(o: unknown, k: string): unknown {
  if (o === null || (typeof o !== "object" && typeof o !== "function")) return undefined;
  try {
    return (o as Record<string, unknown>)[k];
  } catch {
    return undefined;
  }
}

/**
 * The full name of the running test, from what the test runner hands the test function (`this`, its
 * arguments) or, failing that, from the expect state jest and vitest keep. Only names that are unique in a
 * file count: node:test's bare `t.name` (Node before 20.16 has no `t.fullName`) is not, so it gives none.
 */
export function testNameFrom(thisArg: unknown, args: readonly unknown[]): string | undefined {
  // mocha: `this` is the test's context; this.test.fullTitle() joins the titles with spaces.
  const mochaTest = field(thisArg, "test");
  const fullTitle = field(mochaTest, "fullTitle");
  if (typeof fullTitle === "function") {
    try {
      const title = (fullTitle as () => unknown).call(mochaTest);
      if (typeof title === "string" && title !== "") return title;
    } catch {
      // not mocha's after all
    }
  }
  const first = args[0];
  // node:test: the TestContext, whose fullName joins the names with " > ".
  const fullName = field(first, "fullName");
  if (typeof fullName === "string" && fullName !== "") return fullName;
  // vitest: the test context's task; its suites up to (not including) the file, joined with " > ".
  const task = field(first, "task");
  const taskName = field(task, "name");
  if (typeof taskName === "string") {
    const file = field(task, "file");
    const names = [taskName];
    for (
      let s = field(task, "suite"), depth = 0;
      s !== undefined && s !== null && s !== file && depth < 100;
      s = field(s, "suite"), depth++
    ) {
      const n = field(s, "name");
      if (typeof n === "string" && n !== "") names.unshift(n);
    }
    return names.join(" > ");
  }
  return currentTestName();
}

/** jest's and vitest's expect state (set per test, also when their globals are not injected). */
export function currentTestName(): string | undefined {
  const g = globalThis as Record<string | symbol, unknown>;
  let state: unknown;
  const getState = field(g["expect"], "getState");
  if (typeof getState === "function") {
    try {
      state = (getState as () => unknown).call(g["expect"]);
    } catch {
      state = undefined;
    }
  }
  let name = field(state, "currentTestName");
  if (typeof name !== "string" || name === "")
    name = field(field(g[Symbol.for("$$jest-matchers-object")], "state"), "currentTestName");
  return typeof name === "string" && name !== "" ? name : undefined;
}

// The name given by a test function's caller, held from the property's run() until its settings are resolved.
let pendingName: string | undefined;

/** Run `fn` (which resolves settings synchronously first) with the test name `run`'s caller gave. */
export function withTestName<R>(thisArg: unknown, args: readonly unknown[], fn: () => R): R {
  const previous = pendingName;
  pendingName = testNameFrom(thisArg, args);
  try {
    return fn();
  } finally {
    pendingName = previous;
  }
}

/**
 * The key settings resolution hands the engine: the user's `key` setting if given, else `key` refined by the
 * test name, if one is known now (made when first read). `read`: whether the run reads its key at all (it has a
 * database, or prints its key); when not, the test's name is not looked up.
 */
export function resolveKey(key: KeyRef, explicit: string | undefined, read = true): KeyRef | RunKey {
  const name = pendingName;
  pendingName = undefined; // consumed: a property run inside this one's body asks for its own
  if (explicit !== undefined || !read) return explicit ?? key;
  const testName = name ?? currentTestName();
  if (testName === undefined || testName === "") return key;
  return typeof key === "string" ? keyForRun(key, testName) : new RunKey(key, testName);
}
