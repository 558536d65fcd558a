/**
 * Printer: turns a counterexample back into TypeScript source.
 *
 * Users paste the printed failing input straight into a regression test, so `toLiteral(v)` has to be an
 * executable expression whose value is deep-equal to `v`, down to -0, NaN, sparse holes, lone surrogates and
 * `__proto__` keys. It is always a single line, and printed strings never contain a raw `*\/`, so the output
 * can also sit in a comment.
 *
 * Aliasing is part of the value: a shrunk bug can depend on two slots holding the same object, or on a
 * cycle. When any object is reachable more than once, the output becomes an IIFE that builds the object once,
 * names it, and reuses the name; cyclic objects are declared empty first and filled in afterwards.
 *
 * Best effort, because these cannot be rebuilt exactly:
 * - class instances (and other objects with an unknown prototype) print as a literal of their own enumerable
 *   properties followed by a `/* ClassName *\/` comment, because the class may not be in scope where the output
 *   is pasted; so the result is a plain object. Subclasses of Map, Array, Error and the like print as the base
 *   type with the same comment. These comments are the only way a `*\/` can get into the output;
 * - symbols are recreated with `Symbol(desc)`, so only registered (`Symbol.for`) and well-known symbols keep
 *   their identity;
 * - functions print as a stub that throws when called;
 * - errors keep their type (for the built-in error types), message and own enumerable properties, not their
 *   stack or cause;
 * - non-enumerable properties are dropped everywhere (own enumerable properties beyond the contents of arrays,
 *   Maps, Sets, typed arrays, boxed primitives and buffers are kept: `Object.assign([1, 2], { tag: "x" })`);
 * - objects from another realm are only recognised if they are arrays or typed arrays;
 * - a value that cannot be read at all (a revoked Proxy, a getter or Proxy trap that throws, an output too long
 *   for a string) prints as `/* could not print: why *\/ undefined`, in its place only: printing never throws.
 *
 * Both passes walk the value with an explicit stack, so any nesting depth prints; past every MAX_INLINE_DEPTH
 * levels the expression is named and continued in the next statement, so that the output also parses at any
 * depth (a parser nests on each bracket too).
 */

import { types } from "node:util";

/** How an object prints, read once so that the sharing analysis and the printer see the same children. */
type Shape =
  | { readonly kind: "leaf"; readonly code: string }
  | {
      readonly kind: "array";
      readonly length: number;
      /** Present indices in ascending order; the missing ones are holes. */
      readonly items: readonly (readonly [number, unknown])[];
      readonly extras: Extras;
      readonly note: string;
    }
  | {
      readonly kind: "record";
      /** The expression the properties are assigned onto, or null for an object literal. */
      readonly base: string | null;
      readonly entries: readonly (readonly [string | symbol, unknown])[];
      readonly note: string;
    }
  | { readonly kind: "map"; readonly entries: readonly (readonly [unknown, unknown])[]; readonly extras: Extras; readonly note: string }
  | { readonly kind: "set"; readonly items: readonly unknown[]; readonly extras: Extras; readonly note: string };

/**
 * Own enumerable properties beyond a collection's contents (`Object.assign([1, 2], { tag: "x" })`, a RegExp
 * match array's `index`/`input`/`groups`): deep equality compares them, so they print too. Their values are
 * the collection's last children.
 */
type Extras = readonly (readonly [string | symbol, unknown])[];

/** An executable TypeScript/JavaScript expression that evaluates to a value deep-equal to `value`. Never throws. */
export function toLiteral(value: unknown): string {
  try {
    const emitter = new Emitter(analyze([value]));
    return emitter.wrap(emitter.expr(value));
  } catch (e) {
    // Only what no single value could cause is left here, e.g. an output longer than a string can hold.
    return unprintable(errorText(e));
  }
}

/**
 * A comma-separated argument list, e.g. `1, "a", [2]`. When arguments share objects with each other, the list is
 * a single spread of an IIFE (`...(() => { …; return [r1, r1]; })()`) so that the sharing survives. TypeScript
 * accepts that spread only for rest parameters, since it cannot see the array's length. Never throws.
 */
export function formatArgs(args: readonly unknown[]): string {
  // Array.from turns holes into undefined: a call cannot contain an elision.
  const values = Array.from(args);
  try {
    const graph = analyze(values);
    if (!graph.crossesRoots) return values.map((value) => toLiteral(value)).join(", ");
    const emitter = new Emitter(graph);
    const exprs = values.map((value) => emitter.expr(value));
    return `...${emitter.wrap(`[${exprs.join(", ")}]`)}`;
  } catch {
    // Each argument on its own (their sharing is lost): one that cannot print does not take the others along.
    return values.map((value) => toLiteral(value)).join(", ");
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Unprintable values

/** Stands in for a value that could not be read (a getter threw): prints as the marker, in the value's place. */
class Unreadable {
  constructor(readonly reason: string) {}
}

/** The placeholder for a value that cannot be printed (the report's own placeholders read the same). */
function unprintable(reason: string): string {
  return `/* could not print: ${commentText(reason)} */ undefined`;
}

/** Arbitrary text made safe inside a one-line block comment. */
function commentText(text: string): string {
  const line = text.replace(/[\n\r\u2028\u2029]/g, " ").replace(/\*\//g, "*\\/");
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

/** What went wrong, briefly; reading the error must not throw in turn (it may itself be a Proxy). */
function errorText(e: unknown): string {
  try {
    if (e instanceof Error) {
      if (/revoked/.test(e.message)) return "revoked Proxy";
      return `${e.name}: ${e.message}`;
    }
    return String(e);
  } catch {
    return "the value could not be read";
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Sharing analysis

interface Graph {
  readonly shapes: ReadonlyMap<object, Shape>;
  /** How many times each object is reached; more than once means it needs a name. */
  readonly refs: ReadonlyMap<object, number>;
  /** Objects reached again while still being visited: they must exist before their contents are built. */
  readonly cycleTargets: ReadonlySet<object>;
  /** Whether two roots (arguments) reach a common object. */
  readonly crossesRoots: boolean;
}

function isRef(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

function children(shape: Shape): readonly unknown[] {
  switch (shape.kind) {
    case "leaf":
      return [];
    case "array":
      return withExtras(shape.items.map(([, v]) => v), shape.extras);
    case "record":
      return shape.entries.map(([, v]) => v);
    case "map":
      return withExtras(shape.entries.flatMap(([k, v]) => [k, v]), shape.extras);
    case "set":
      return withExtras(shape.items, shape.extras);
  }
}

function withExtras(contents: readonly unknown[], extras: Extras): readonly unknown[] {
  return extras.length === 0 ? contents : [...contents, ...extras.map(([, v]) => v)];
}

/**
 * A depth-first walk in exactly the order the Emitter builds expressions, so an object that is on the walk's
 * stack when reached again is exactly one that would be referenced before its declaration finished.
 */
function analyze(roots: readonly unknown[]): Graph {
  const shapes = new Map<object, Shape>();
  const refs = new Map<object, number>();
  const rootOf = new Map<object, number>();
  const onStack = new Set<object>();
  const cycleTargets = new Set<object>();
  let crossesRoots = false;
  /** The walk's path: each object with its children and the next child to visit. */
  const path: { readonly value: object; readonly kids: readonly unknown[]; next: number }[] = [];
  const enter = (value: unknown, root: number): void => {
    if (!isRef(value)) return;
    const seen = refs.get(value);
    if (seen !== undefined) {
      refs.set(value, seen + 1);
      if (onStack.has(value)) cycleTargets.add(value);
      if (rootOf.get(value) !== root) crossesRoots = true;
      return;
    }
    refs.set(value, 1);
    rootOf.set(value, root);
    const shape = readShape(value);
    shapes.set(value, shape);
    onStack.add(value);
    path.push({ value, kids: children(shape), next: 0 });
  };
  for (let root = 0; root < roots.length; root++) {
    enter(roots[root], root);
    while (path.length > 0) {
      const top = path[path.length - 1];
      if (top.next < top.kids.length) enter(top.kids[top.next++], root);
      else {
        path.pop();
        onStack.delete(top.value);
      }
    }
  }
  return { shapes, refs, cycleTargets, crossesRoots };
}

// ---------------------------------------------------------------------------------------------------------------
// Emitting

/** Every this many levels of nesting, the expression so far is named, so no statement nests deeper. */
const MAX_INLINE_DEPTH = 200;

/** An object being emitted: its children's expressions so far, and what to do with them. */
interface Frame {
  readonly value: object;
  readonly shape: Shape;
  /** inline: an expression of the contents; fill: statements that fill the already declared shell `name`. */
  readonly mode: "inline" | "fill";
  /** inline mode: the object is shared, so the finished expression is declared under a name. */
  readonly declare: boolean;
  readonly name: string;
  readonly kids: readonly unknown[];
  readonly results: string[];
  /** fill mode, records: entries waiting for one Object.assign. */
  batch: string[];
}

class Emitter {
  private readonly statements: string[] = [];
  private readonly names = new Map<object, string>();
  private declared = 0;

  constructor(private readonly graph: Graph) {}

  /** `body` alone when nothing needed a name, else an IIFE that declares the names first. */
  wrap(body: string): string {
    if (this.statements.length === 0) return body;
    return `(() => { ${this.statements.join(" ")} return ${body}; })()`;
  }

  /** The expression for `value`: children first, with an explicit stack instead of recursion. */
  expr(value: unknown): string {
    const stack: Frame[] = [];
    const first = this.start(value, stack);
    if (first !== null) return first;
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame.results.length < frame.kids.length) {
        const code = this.start(frame.kids[frame.results.length], stack);
        if (code !== null) this.childDone(frame, code);
        continue;
      }
      stack.pop();
      let code: string;
      if (frame.mode === "fill") {
        this.finishFill(frame);
        code = frame.name;
      } else {
        code = this.inline(frame.shape, frame.results);
        if (frame.declare) code = this.declare(frame.value, code);
        else if (stack.length > 0 && stack.length % MAX_INLINE_DEPTH === 0) code = this.declare(null, code);
      }
      if (stack.length === 0) return code;
      this.childDone(stack[stack.length - 1], code);
    }
  }

  /** The expression at once when no children need building, else null with a frame pushed for them. */
  private start(value: unknown, stack: Frame[]): string | null {
    if (!isRef(value)) return primitive(value);
    const known = this.names.get(value);
    if (known !== undefined) return known;
    const shape = this.graph.shapes.get(value);
    if (shape === undefined) throw new Error("printer: object missed by the sharing analysis");
    const shared = (this.graph.refs.get(value) ?? 0) >= 2;
    if (shape.kind === "leaf") return shared ? this.declare(value, shape.code) : shape.code;
    if (shared && this.graph.cycleTargets.has(value)) {
      // Declare the empty shell before building the contents, which refer back to it.
      const name = this.declare(value, this.shell(shape));
      stack.push({ value, shape, mode: "fill", declare: false, name, kids: children(shape), results: [], batch: [] });
      return null;
    }
    // Contents first, so names are numbered in declaration order.
    stack.push({ value, shape, mode: "inline", declare: shared, name: "", kids: children(shape), results: [], batch: [] });
    return null;
  }

  /** A name for `code` (registered for `value` when it is shared; null for a name that only breaks up nesting). */
  private declare(value: object | null, code: string): string {
    const name = `r${++this.declared}`;
    if (value !== null) this.names.set(value, name);
    this.statements.push(`const ${name} = ${code};`);
    return name;
  }

  private childDone(frame: Frame, code: string): void {
    frame.results.push(code);
    if (frame.mode === "fill") this.fillStep(frame, frame.results.length - 1);
  }

  /** The expression of an object from its children's expressions (in `children` order). */
  private inline(shape: Shape, codes: readonly string[]): string {
    if (shape.kind === "array" || shape.kind === "map" || shape.kind === "set") {
      const code = this.inlineContents(shape, codes);
      if (shape.extras.length === 0) return code + shape.note;
      const first = codes.length - shape.extras.length;
      return assigned(code, shape.extras.map(([k], e) => [k, codes[first + e]] as const), false) + shape.note;
    }
    return this.inlineContents(shape, codes);
  }

  /** `inline` without a collection's extra properties and class note. */
  private inlineContents(shape: Shape, codes: readonly string[]): string {
    switch (shape.kind) {
      case "leaf":
        return shape.code;
      case "array": {
        const holes = shape.length - shape.items.length;
        if (holes > 8 && holes > shape.items.length) {
          // Mostly holes: listing them would print one comma per hole.
          const entries = shape.items.map(([i], j) => `${i}: ${codes[j]}`);
          return `Object.assign(new Array(${shape.length}), ${braces(entries)})`;
        }
        const slots: string[] = [];
        let next = 0;
        shape.items.forEach(([i], j) => {
          for (; next < i; next++) slots.push("");
          slots.push(codes[j]);
          next = i + 1;
        });
        for (; next < shape.length; next++) slots.push("");
        // A trailing elision needs its own comma: `[1, ,]` has length 2, `[1, ]` length 1.
        const trailingHole = slots.length > 0 && slots[slots.length - 1] === "";
        return `[${slots.join(", ")}${trailingHole ? "," : ""}]`;
      }
      case "record": {
        if (shape.base === null) return braces(shape.entries.map(([k], j) => `${propertyKey(k)}: ${codes[j]}`)) + shape.note;
        return assigned(shape.base, shape.entries.map(([k], j) => [k, codes[j]] as const), shape.base === NULL_PROTOTYPE) + shape.note;
      }
      case "map": {
        if (shape.entries.length === 0) return "new Map()";
        const entries = shape.entries.map((_, j) => `[${codes[2 * j]}, ${codes[2 * j + 1]}]`);
        return `new Map([${entries.join(", ")}])`;
      }
      case "set": {
        if (shape.items.length === 0) return "new Set()";
        return `new Set([${codes.slice(0, shape.items.length).join(", ")}])`;
      }
    }
  }

  private shell(shape: Shape): string {
    switch (shape.kind) {
      case "leaf":
        return shape.code;
      case "array":
        // `new Array()`, not `[]`: TypeScript types it any[], where an empty literal referenced by its own
        // elements is an implicit-any error.
        return (shape.items.length === shape.length ? "new Array()" : `new Array(${shape.length})`) + shape.note;
      case "record":
        return (shape.base ?? "{}") + shape.note;
      case "map":
        return `new Map()${shape.note}`;
      case "set":
        return `new Set()${shape.note}`;
    }
  }

  /**
   * The statements that give a shell its contents, in the original order (which Maps, Sets and keys keep), as
   * each child's expression is ready: child `j` has just been built.
   */
  private fillStep(frame: Frame, j: number): void {
    const { shape, name, results } = frame;
    switch (shape.kind) {
      case "record": {
        // Object.assign rather than `r1.key = …`, which TypeScript rejects on an object typed `{}`.
        // Assigning `__proto__` onto an ordinary object would set its prototype, so that key is defined instead;
        // a null-prototype object has no such setter.
        const k = shape.entries[j][0];
        if (k === "__proto__" && shape.base !== NULL_PROTOTYPE) {
          this.flush(frame);
          this.statements.push(`Object.defineProperty(${name}, "__proto__", ${ownValue(results[j])});`);
        } else frame.batch.push(`${propertyKey(k)}: ${results[j]}`);
        return;
      }
      case "map":
        if (j % 2 === 1 && j < 2 * shape.entries.length) this.statements.push(`${name}.set(${results[j - 1]}, ${results[j]});`);
        return;
      case "set":
        if (j < shape.items.length) this.statements.push(`${name}.add(${results[j]});`);
        return;
      default:
        return;
    }
  }

  private finishFill(frame: Frame): void {
    const { shape, name, results } = frame;
    if (shape.kind === "record") this.flush(frame);
    if (shape.kind === "array" && shape.items.length > 0) {
      const elements = results.slice(0, shape.items.length);
      // push, not index assignment, so TypeScript can type the array from its elements.
      if (shape.items.length === shape.length) this.statements.push(`${name}.push(${elements.join(", ")});`);
      else this.statements.push(`Object.assign(${name}, ${braces(shape.items.map(([i], j) => `${i}: ${elements[j]}`))});`);
    }
    if ((shape.kind === "array" || shape.kind === "map" || shape.kind === "set") && shape.extras.length > 0) {
      const first = results.length - shape.extras.length;
      this.statements.push(`${assigned(name, shape.extras.map(([k], e) => [k, results[first + e]] as const), false)};`);
    }
  }

  private flush(frame: Frame): void {
    if (frame.batch.length > 0) this.statements.push(`Object.assign(${frame.name}, ${braces(frame.batch)});`);
    frame.batch = [];
  }
}

/**
 * `base` with the entries (key, code) added as own properties, in order: Object.assign in batches, except that
 * `__proto__` is defined — assigning it would replace the base's prototype (unless the base has none).
 */
function assigned(base: string, entries: readonly (readonly [string | symbol, string])[], nullPrototype: boolean): string {
  if (entries.length === 0) return base;
  const literal = ([k, code]: readonly [string | symbol, string]) => `${propertyKey(k)}: ${code}`;
  if (nullPrototype || !entries.some(([k]) => k === "__proto__")) return `Object.assign(${base}, ${braces(entries.map(literal))})`;
  let code = base;
  let batch: string[] = [];
  for (const entry of entries) {
    if (entry[0] !== "__proto__") batch.push(literal(entry));
    else {
      if (batch.length > 0) code = `Object.assign(${code}, ${braces(batch)})`;
      batch = [];
      code = `Object.defineProperty(${code}, "__proto__", ${ownValue(entry[1])})`;
    }
  }
  if (batch.length > 0) code = `Object.assign(${code}, ${braces(batch)})`;
  return code;
}

/** The descriptor of an ordinary own data property holding `code`. */
function ownValue(code: string): string {
  return `{ value: ${code}, writable: true, enumerable: true, configurable: true }`;
}

function braces(entries: readonly string[]): string {
  return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading objects

const NULL_PROTOTYPE = "Object.create(null)";

const STANDARD_ERRORS: readonly ErrorConstructor[] = [
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
];

/** An intrinsic getter, called on objects to read their internal slots (a subclass cannot override it). */
function intrinsicGetter<R>(proto: object, key: PropertyKey): (this: unknown) => R {
  return Object.getOwnPropertyDescriptor(proto, key)?.get as (this: unknown) => R;
}

const TYPED_ARRAY_PROTOTYPE = Object.getPrototypeOf(Uint8Array.prototype) as object;
/** %TypedArray%.prototype[Symbol.toStringTag] reads the internal slot, so it names subclasses and other realms too. */
const typedArrayName = intrinsicGetter<string>(TYPED_ARRAY_PROTOTYPE, Symbol.toStringTag);
const typedArrayLength = intrinsicGetter<number>(TYPED_ARRAY_PROTOTYPE, "length");
const dataViewBuffer = intrinsicGetter<ArrayBuffer>(DataView.prototype, "buffer");
const dataViewOffset = intrinsicGetter<number>(DataView.prototype, "byteOffset");
const dataViewLength = intrinsicGetter<number>(DataView.prototype, "byteLength");
const regExpSource = intrinsicGetter<string>(RegExp.prototype, "source");
const regExpFlags = intrinsicGetter<string>(RegExp.prototype, "flags");

function leaf(code: string): Shape {
  return { kind: "leaf", code };
}

/** How `value` prints; a value that cannot be read at all prints as the unprintable marker. */
function readShape(value: object): Shape {
  try {
    if (value instanceof Unreadable) return leaf(unprintable(value.reason));
    return describe(value);
  } catch (e) {
    return leaf(unprintable(errorText(e)));
  }
}

function describe(value: object): Shape {
  if (typeof value === "function") {
    let name = "";
    try {
      name = typeof value.name === "string" ? value.name : "";
    } catch {
      // a static getter named "name" that throws: anonymous will do
    }
    const message = `function values cannot be printed: ${name || "anonymous"}`;
    return leaf(`(() => { throw new Error(${quote(message)}); })`);
  }
  if (Array.isArray(value)) {
    const items: (readonly [number, unknown])[] = [];
    const keys = Object.keys(value);
    let k = 0;
    // Integer keys come first and ascending; the rest (and symbols) are extra properties.
    for (; k < keys.length; k++) {
      const key = keys[k];
      if (!ARRAY_INDEX.test(key) || Number(key) >= 2 ** 32 - 1) break;
      items.push([Number(key), read(value, key)]);
    }
    const extras = k === keys.length ? symbolEntries(value) : [...keys.slice(k).map((key) => [key, read(value, key)] as const), ...symbolEntries(value)];
    return { kind: "array", length: value.length, items, extras, note: noteUnless(value, Array.prototype) };
  }
  // Brand checks (util.types reads internal slots) rather than instanceof: `Object.create(Date.prototype)` is
  // instanceof Date but holds no date, and a subclass can override every method and accessor a printer would
  // call, so the contents are read through the intrinsic ones.
  if (types.isTypedArray(value)) {
    // An integer-indexed object lists its indices first; nothing can add more, so the rest are extras.
    return withOwn(typedArrayLiteral(value, typedArrayName.call(value)), value, typedArrayLength.call(value));
  }
  if (types.isDataView(value)) {
    const bytes = new Uint8Array(dataViewBuffer.call(value), dataViewOffset.call(value), dataViewLength.call(value));
    return withOwn(`new DataView(new Uint8Array(${numberList(bytes)}).buffer)${noteUnless(value, DataView.prototype)}`, value);
  }
  if (types.isArrayBuffer(value)) {
    return withOwn(`new Uint8Array(${numberList(new Uint8Array(value))}).buffer${noteUnless(value, ArrayBuffer.prototype)}`, value);
  }
  if (types.isMap(value)) {
    const entries = Array.from(Map.prototype.entries.call(value) as Iterable<readonly [unknown, unknown]>);
    return { kind: "map", entries, extras: ownEntries(value), note: noteUnless(value, Map.prototype) };
  }
  if (types.isSet(value)) {
    return { kind: "set", items: Array.from(Set.prototype.values.call(value) as Iterable<unknown>), extras: ownEntries(value), note: noteUnless(value, Set.prototype) };
  }
  if (types.isDate(value)) {
    const time = Date.prototype.getTime.call(value);
    const base = Number.isNaN(time) ? "new Date(NaN)" : `new Date(${quote(Date.prototype.toISOString.call(value))})`;
    return { kind: "record", base, entries: ownEntries(value), note: noteUnless(value, Date.prototype) };
  }
  if (types.isRegExp(value)) {
    const base = `new RegExp(${quote(regExpSource.call(value))}, ${quote(regExpFlags.call(value))})`;
    const entries = ownEntries(value);
    // lastIndex is state a global regex carries between calls, and deepStrictEqual compares it.
    const lastIndex = read(value, "lastIndex");
    if (lastIndex !== 0) entries.unshift(["lastIndex", lastIndex]);
    return { kind: "record", base, entries, note: noteUnless(value, RegExp.prototype) };
  }
  if (types.isBoxedPrimitive(value)) {
    const inner = boxedValue(value);
    // A String object's characters are own enumerable index properties, listed first: not extras.
    const skip = typeof inner === "string" ? inner.length : 0;
    return withOwn(`Object(${primitive(inner)})${noteUnless(value, Object.getPrototypeOf(Object(inner)) as object)}`, value, skip);
  }
  const proto = Object.getPrototypeOf(value) as object | null;
  if (value instanceof Error) {
    const standard = STANDARD_ERRORS.find((ctor) => ctor.prototype === proto);
    const message = read(value, "message");
    const base = `new ${standard?.name ?? "Error"}(${quote(message instanceof Unreadable ? "" : String(message))})`;
    return { kind: "record", base, entries: ownEntries(value), note: standard ? "" : classNote(proto) };
  }
  if (proto === null) return { kind: "record", base: NULL_PROTOTYPE, entries: ownEntries(value), note: "" };
  return { kind: "record", base: null, entries: ownEntries(value), note: noteUnless(value, Object.prototype) };
}

function boxedValue(value: object): unknown {
  if (types.isNumberObject(value)) return Number.prototype.valueOf.call(value);
  if (types.isStringObject(value)) return String.prototype.valueOf.call(value);
  if (types.isBooleanObject(value)) return Boolean.prototype.valueOf.call(value);
  if (types.isBigIntObject(value)) return BigInt.prototype.valueOf.call(value);
  return Symbol.prototype.valueOf.call(value);
}

/** value[key], or an Unreadable in its place when a getter (or a Proxy's get trap) throws. */
function read(value: object, key: string | symbol): unknown {
  try {
    return (value as Record<string | symbol, unknown>)[key];
  } catch (e) {
    return new Unreadable(`reading ${typeof key === "symbol" ? String(key) : JSON.stringify(key)} threw ${errorText(e)}`);
  }
}

/** The printed `code` of a built-in, with the value's own enumerable properties after the first `skip` keys. */
function withOwn(code: string, value: object, skip = 0): Shape {
  const keys = Reflect.ownKeys(value);
  const entries = (skip === 0 ? keys : keys.slice(skip))
    .filter((key) => Object.prototype.propertyIsEnumerable.call(value, key))
    .map((key): [string | symbol, unknown] => [key, read(value, key)]);
  return entries.length === 0 ? leaf(code) : { kind: "record", base: code, entries, note: "" };
}

function symbolEntries(value: object): [string | symbol, unknown][] {
  return Object.getOwnPropertySymbols(value)
    .filter((key) => Object.prototype.propertyIsEnumerable.call(value, key))
    .map((key) => [key, read(value, key)]);
}

function ownEntries(value: object): [string | symbol, unknown][] {
  return Reflect.ownKeys(value)
    .filter((key) => Object.prototype.propertyIsEnumerable.call(value, key))
    .map((key) => [key, read(value, key)]);
}

function typedArrayLiteral(value: object, name: string): string {
  // Indexed reads up to the intrinsic length: a subclass can override the iterator, not the elements.
  const n = typedArrayLength.call(value);
  const array = value as ArrayLike<number | bigint>;
  const parts = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = primitive(array[i]);
  const elements = `[${parts.join(", ")}]`;
  // Buffer is Node's Uint8Array subclass; it is a global there, so it can be rebuilt as itself.
  if (typeof Buffer === "function" && Buffer.isBuffer(value)) return `Buffer.from(${elements})`;
  const ctor = (globalThis as unknown as Record<string, { prototype: object } | undefined>)[name];
  return `new ${name}(${elements})${ctor === undefined ? "" : noteUnless(value, ctor.prototype)}`;
}

function numberList(values: Uint8Array): string {
  return `[${values.join(", ")}]`;
}

/** The class-name comment for an object whose prototype is not the one its printed form creates. */
function noteUnless(value: object, expected: object): string {
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === expected ? "" : classNote(proto);
}

function classNote(proto: object | null): string {
  if (proto === null) return " /* null prototype */";
  let name = "anonymous class";
  try {
    const ctor = Object.getOwnPropertyDescriptor(proto, "constructor")?.value as unknown;
    if (typeof ctor === "function" && typeof ctor.name === "string" && ctor.name !== "") name = ctor.name;
  } catch {
    // a Proxy prototype, a throwing static name: the class stays anonymous
  }
  // Another realm's Object.prototype: the printed plain object is what the user would expect.
  if (name === "Object") return "";
  // The name is arbitrary text: keep it on one line and unable to close the comment early.
  return ` /* ${name.replace(/[\n\r\u2028\u2029]/g, " ").replace(/\*\//g, "*\\/")} */`;
}

// ---------------------------------------------------------------------------------------------------------------
// Primitives

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Canonical array indices; longer digit strings would not survive the trip through a number literal. */
const SMALL_INDEX = /^(?:0|[1-9]\d{0,14})$/;
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

function propertyKey(key: string | symbol): string {
  if (typeof key === "symbol") return `[${symbolLiteral(key)}]`;
  // Only a computed `__proto__` key creates an own property; `__proto__: x` and `"__proto__": x` set the prototype.
  if (key === "__proto__") return '["__proto__"]';
  if (IDENTIFIER.test(key) || SMALL_INDEX.test(key)) return key;
  return quote(key);
}

function primitive(value: unknown): string {
  switch (typeof value) {
    case "undefined":
      return "undefined";
    case "boolean":
      return String(value);
    case "number":
      // String(-0) is "0"; the other specials (NaN, Infinity, -Infinity) are already valid expressions.
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "string":
      return quote(value);
    case "symbol":
      return symbolLiteral(value);
    default:
      return "null";
  }
}

const WELL_KNOWN_SYMBOLS = new Map<symbol, string>(
  Object.getOwnPropertyNames(Symbol).flatMap((name): [symbol, string][] => {
    const symbol = (Symbol as unknown as Record<string, unknown>)[name];
    return typeof symbol === "symbol" ? [[symbol, `Symbol.${name}`]] : [];
  }),
);

function symbolLiteral(symbol: symbol): string {
  const wellKnown = WELL_KNOWN_SYMBOLS.get(symbol);
  if (wellKnown !== undefined) return wellKnown;
  const registered = Symbol.keyFor(symbol);
  if (registered !== undefined) return `Symbol.for(${quote(registered)})`;
  return symbol.description === undefined ? "Symbol()" : `Symbol(${quote(symbol.description)})`;
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0b: "\\v",
  0x0c: "\\f",
  0x0d: "\\r",
  0x22: '\\"',
  0x5c: "\\\\",
};

/**
 * Code units escaped as \uXXXX: controls and line separators (which would break the line or the literal), lone
 * surrogates (which UTF-8 files cannot hold), and invisible or bidi-reordering characters (which would make
 * the pasted literal look different from what it holds).
 */
function needsUnicodeEscape(unit: number): boolean {
  return (
    unit < 0x20 ||
    (unit >= 0x7f && unit <= 0x9f) ||
    unit === 0xad ||
    (unit >= 0x200b && unit <= 0x200f) ||
    (unit >= 0x2028 && unit <= 0x202e) ||
    (unit >= 0x2060 && unit <= 0x206f) ||
    (unit >= 0xd800 && unit <= 0xdfff) ||
    unit === 0xfeff
  );
}

function isDigit(unit: number): boolean {
  return unit >= 0x30 && unit <= 0x39;
}

/** A double-quoted literal for any string, including ones that are not well-formed UTF-16. */
function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += s.slice(i, i + 2);
      i++;
    } else if (SHORT_ESCAPES[unit] !== undefined) {
      out += SHORT_ESCAPES[unit];
    } else if (unit === 0) {
      // "\01" would be a legacy octal escape, a syntax error in strict code.
      out += isDigit(next) ? "\\x00" : "\\0";
    } else if (unit === 0x2f && s.charCodeAt(i - 1) === 0x2a) {
      out += "\\/"; // never print `*/`, so the output can sit in a block comment
    } else if (needsUnicodeEscape(unit)) {
      out += `\\u${unit.toString(16).padStart(4, "0")}`;
    } else {
      out += s[i];
    }
  }
  return `${out}"`;
}
