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
 * - own properties beyond the contents are dropped on arrays, Maps, Sets, typed arrays and boxed primitives,
 *   and non-enumerable properties are dropped everywhere;
 * - objects from another realm are only recognised if they are arrays or typed arrays;
 * - both passes recurse, so nesting thousands of levels deep can overflow the stack.
 */

/** How an object prints, read once so that the sharing analysis and the printer see the same children. */
type Shape =
  | { readonly kind: "leaf"; readonly code: string }
  | {
      readonly kind: "array";
      readonly length: number;
      /** Present indices in ascending order; the missing ones are holes. */
      readonly items: readonly (readonly [number, unknown])[];
      readonly note: string;
    }
  | {
      readonly kind: "record";
      /** The expression the properties are assigned onto, or null for an object literal. */
      readonly base: string | null;
      readonly entries: readonly (readonly [string | symbol, unknown])[];
      readonly note: string;
    }
  | { readonly kind: "map"; readonly entries: readonly (readonly [unknown, unknown])[]; readonly note: string }
  | { readonly kind: "set"; readonly items: readonly unknown[]; readonly note: string };

/** An executable TypeScript/JavaScript expression that evaluates to a value deep-equal to `value`. */
export function toLiteral(value: unknown): string {
  const emitter = new Emitter(analyze([value]));
  return emitter.wrap(emitter.expr(value));
}

/**
 * A comma-separated argument list, e.g. `1, "a", [2]`. When arguments share objects with each other, the list is
 * a single spread of an IIFE (`...(() => { …; return [r1, r1]; })()`) so that the sharing survives. TypeScript
 * accepts that spread only for rest parameters, since it cannot see the array's length.
 */
export function formatArgs(args: readonly unknown[]): string {
  // Array.from turns holes into undefined: a call cannot contain an elision.
  const values = Array.from(args);
  const graph = analyze(values);
  if (!graph.crossesRoots) return values.map((value) => toLiteral(value)).join(", ");
  const emitter = new Emitter(graph);
  const exprs = values.map((value) => emitter.expr(value));
  return `...${emitter.wrap(`[${exprs.join(", ")}]`)}`;
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
      return shape.items.map(([, v]) => v);
    case "record":
      return shape.entries.map(([, v]) => v);
    case "map":
      return shape.entries.flatMap(([k, v]) => [k, v]);
    case "set":
      return shape.items;
  }
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
  let root = 0;
  const visit = (value: unknown): void => {
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
    const shape = describe(value);
    shapes.set(value, shape);
    onStack.add(value);
    for (const child of children(shape)) visit(child);
    onStack.delete(value);
  };
  for (; root < roots.length; root++) visit(roots[root]);
  return { shapes, refs, cycleTargets, crossesRoots };
}

// ---------------------------------------------------------------------------------------------------------------
// Emitting

class Emitter {
  private readonly statements: string[] = [];
  private readonly names = new Map<object, string>();

  constructor(private readonly graph: Graph) {}

  /** `body` alone when nothing needed a name, else an IIFE that declares the names first. */
  wrap(body: string): string {
    if (this.statements.length === 0) return body;
    return `(() => { ${this.statements.join(" ")} return ${body}; })()`;
  }

  expr(value: unknown): string {
    if (!isRef(value)) return primitive(value);
    const known = this.names.get(value);
    if (known !== undefined) return known;
    const shape = this.graph.shapes.get(value);
    if (shape === undefined) throw new Error("printer: object missed by the sharing analysis");
    if ((this.graph.refs.get(value) ?? 0) < 2) return this.inline(shape);
    if (this.graph.cycleTargets.has(value)) {
      // Declare the empty shell before building the contents, which refer back to it.
      const name = this.declare(value, this.shell(shape));
      this.fill(name, shape);
      return name;
    }
    // Contents first, so names are numbered in declaration order.
    return this.declare(value, this.inline(shape));
  }

  private declare(value: object, code: string): string {
    const name = `r${this.names.size + 1}`;
    this.names.set(value, name);
    this.statements.push(`const ${name} = ${code};`);
    return name;
  }

  private inline(shape: Shape): string {
    switch (shape.kind) {
      case "leaf":
        return shape.code;
      case "array": {
        const holes = shape.length - shape.items.length;
        if (holes > 8 && holes > shape.items.length) {
          // Mostly holes: listing them would print one comma per hole.
          const entries = shape.items.map(([i, v]) => `${i}: ${this.expr(v)}`);
          return `Object.assign(new Array(${shape.length}), ${braces(entries)})${shape.note}`;
        }
        const slots: string[] = [];
        let next = 0;
        for (const [i, v] of shape.items) {
          for (; next < i; next++) slots.push("");
          slots.push(this.expr(v));
          next = i + 1;
        }
        for (; next < shape.length; next++) slots.push("");
        // A trailing elision needs its own comma: `[1, ,]` has length 2, `[1, ]` length 1.
        const trailingHole = slots.length > 0 && slots[slots.length - 1] === "";
        return `[${slots.join(", ")}${trailingHole ? "," : ""}]${shape.note}`;
      }
      case "record": {
        const entries = shape.entries.map(([k, v]) => `${propertyKey(k)}: ${this.expr(v)}`);
        if (shape.base === null) return braces(entries) + shape.note;
        if (entries.length === 0) return shape.base + shape.note;
        return `Object.assign(${shape.base}, ${braces(entries)})${shape.note}`;
      }
      case "map": {
        if (shape.entries.length === 0) return `new Map()${shape.note}`;
        const entries = shape.entries.map(([k, v]) => {
          const key = this.expr(k);
          return `[${key}, ${this.expr(v)}]`;
        });
        return `new Map([${entries.join(", ")}])${shape.note}`;
      }
      case "set": {
        if (shape.items.length === 0) return `new Set()${shape.note}`;
        return `new Set([${shape.items.map((v) => this.expr(v)).join(", ")}])${shape.note}`;
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

  /** Statements that give a shell its contents, in the original order (which Maps, Sets and keys keep). */
  private fill(name: string, shape: Shape): void {
    switch (shape.kind) {
      case "leaf":
        return;
      case "array": {
        if (shape.items.length === 0) return;
        // push, not index assignment, so TypeScript can type the array from its elements.
        if (shape.items.length === shape.length) {
          this.statements.push(`${name}.push(${shape.items.map(([, v]) => this.expr(v)).join(", ")});`);
        } else {
          const entries = shape.items.map(([i, v]) => `${i}: ${this.expr(v)}`);
          this.statements.push(`Object.assign(${name}, ${braces(entries)});`);
        }
        return;
      }
      case "record": {
        // Object.assign rather than `r1.key = …`, which TypeScript rejects on an object typed `{}`.
        // Assigning `__proto__` onto an ordinary object would set its prototype, so that key is defined instead;
        // a null-prototype object has no such setter.
        const protoSetter = shape.base !== NULL_PROTOTYPE;
        let batch: string[] = [];
        const flush = (): void => {
          if (batch.length > 0) this.statements.push(`Object.assign(${name}, ${braces(batch)});`);
          batch = [];
        };
        for (const [k, v] of shape.entries) {
          const value = this.expr(v);
          if (k === "__proto__" && protoSetter) {
            flush();
            this.statements.push(
              `Object.defineProperty(${name}, "__proto__", { value: ${value}, writable: true, enumerable: true, configurable: true });`,
            );
          } else {
            batch.push(`${propertyKey(k)}: ${value}`);
          }
        }
        flush();
        return;
      }
      case "map":
        for (const [k, v] of shape.entries) {
          const key = this.expr(k);
          this.statements.push(`${name}.set(${key}, ${this.expr(v)});`);
        }
        return;
      case "set":
        for (const v of shape.items) this.statements.push(`${name}.add(${this.expr(v)});`);
        return;
    }
  }
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

/** %TypedArray%.prototype[Symbol.toStringTag] reads the internal slot, so it names subclasses and other realms too. */
const typedArrayName = Object.getOwnPropertyDescriptor(
  Object.getPrototypeOf(Uint8Array.prototype) as object,
  Symbol.toStringTag,
)?.get as ((this: unknown) => string | undefined) | undefined;

function leaf(code: string): Shape {
  return { kind: "leaf", code };
}

function describe(value: object): Shape {
  if (typeof value === "function") {
    const message = `function values cannot be printed: ${value.name || "anonymous"}`;
    return leaf(`(() => { throw new Error(${quote(message)}); })`);
  }
  if (Array.isArray(value)) {
    const items: [number, unknown][] = [];
    for (const key of Object.keys(value)) {
      // Integer keys come first and ascending; the rest are extra properties, which are not printed.
      if (!ARRAY_INDEX.test(key) || Number(key) >= 2 ** 32 - 1) break;
      items.push([Number(key), value[Number(key)] as unknown]);
    }
    return { kind: "array", length: value.length, items, note: noteUnless(value, Array.prototype) };
  }
  const typedName = typedArrayName?.call(value);
  if (typedName !== undefined) return leaf(typedArrayLiteral(value, typedName));
  if (value instanceof DataView) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return leaf(`new DataView(new Uint8Array(${numberList(bytes)}).buffer)${noteUnless(value, DataView.prototype)}`);
  }
  if (value instanceof ArrayBuffer) {
    return leaf(`new Uint8Array(${numberList(new Uint8Array(value))}).buffer${noteUnless(value, ArrayBuffer.prototype)}`);
  }
  if (value instanceof Map) {
    return { kind: "map", entries: [...(value as Map<unknown, unknown>)], note: noteUnless(value, Map.prototype) };
  }
  if (value instanceof Set) {
    return { kind: "set", items: [...(value as Set<unknown>)], note: noteUnless(value, Set.prototype) };
  }
  if (value instanceof Date) {
    const time = value.getTime();
    const base = Number.isNaN(time) ? "new Date(NaN)" : `new Date(${quote(value.toISOString())})`;
    return { kind: "record", base, entries: ownEntries(value), note: noteUnless(value, Date.prototype) };
  }
  if (value instanceof RegExp) {
    const base = `new RegExp(${quote(value.source)}, ${quote(value.flags)})`;
    const entries = ownEntries(value);
    // lastIndex is state a global regex carries between calls, and deepStrictEqual compares it.
    if (value.lastIndex !== 0) entries.unshift(["lastIndex", value.lastIndex]);
    return { kind: "record", base, entries, note: noteUnless(value, RegExp.prototype) };
  }
  if (value instanceof Error) {
    const proto = Object.getPrototypeOf(value) as object | null;
    const standard = STANDARD_ERRORS.find((ctor) => ctor.prototype === proto);
    const base = `new ${standard?.name ?? "Error"}(${quote(String(value.message))})`;
    return { kind: "record", base, entries: ownEntries(value), note: standard ? "" : classNote(proto) };
  }
  if (
    value instanceof Number ||
    value instanceof String ||
    value instanceof Boolean ||
    value instanceof BigInt ||
    value instanceof Symbol
  ) {
    return leaf(`Object(${primitive(value.valueOf())})`);
  }
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === null) return { kind: "record", base: NULL_PROTOTYPE, entries: ownEntries(value), note: "" };
  return { kind: "record", base: null, entries: ownEntries(value), note: noteUnless(value, Object.prototype) };
}

function ownEntries(value: object): [string | symbol, unknown][] {
  return Reflect.ownKeys(value)
    .filter((key) => Object.prototype.propertyIsEnumerable.call(value, key))
    .map((key) => [key, (value as Record<string | symbol, unknown>)[key]]);
}

function typedArrayLiteral(value: object, name: string): string {
  const elements = numberList(value as ArrayLike<number | bigint>);
  // Buffer is Node's Uint8Array subclass; it is a global there, so it can be rebuilt as itself.
  if (typeof Buffer === "function" && Buffer.isBuffer(value)) return `Buffer.from(${elements})`;
  const ctor = (globalThis as unknown as Record<string, { prototype: object } | undefined>)[name];
  return `new ${name}(${elements})${ctor === undefined ? "" : noteUnless(value, ctor.prototype)}`;
}

function numberList(values: ArrayLike<number | bigint>): string {
  return `[${Array.from(values, primitive).join(", ")}]`;
}

/** The class-name comment for an object whose prototype is not the one its printed form creates. */
function noteUnless(value: object, expected: object): string {
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto === expected ? "" : classNote(proto);
}

function classNote(proto: object | null): string {
  if (proto === null) return " /* null prototype */";
  const ctor = Object.getOwnPropertyDescriptor(proto, "constructor")?.value as unknown;
  const name = typeof ctor === "function" && ctor.name !== "" ? ctor.name : "anonymous class";
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
