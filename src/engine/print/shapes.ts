/**
 * How an object prints, read once — its kind (array, record, Map, Set, or a leaf already printed), its children
 * and the note naming a class — so that the sharing analysis and the emitter see the same children. Objects are
 * read by their internal slots (intrinsic getters a subclass or a Proxy cannot override), and what cannot be read
 * is a leaf that prints as the unprintable marker.
 */
import { printedForm } from "./printedAs.ts";
import { types } from "node:util";
import { ARRAY_INDEX, primitive, quote } from "./literals.ts";
import { errorText, unprintable, Unreadable } from "./unprintable.ts";

/** How an object prints, read once so that the sharing analysis and the printer see the same children. */
export type Shape =
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
  | {
      readonly kind: "map";
      readonly entries: readonly (readonly [unknown, unknown])[];
      readonly extras: Extras;
      readonly note: string;
    }
  | { readonly kind: "set"; readonly items: readonly unknown[]; readonly extras: Extras; readonly note: string };

/**
 * Own enumerable properties beyond a collection's contents (`Object.assign([1, 2], { tag: "x" })`, a RegExp
 * match array's `index`/`input`/`groups`): deep equality compares them, so they print too. Their values are
 * the collection's last children.
 */
export type Extras = readonly (readonly [string | symbol, unknown])[];

export const NULL_PROTOTYPE = "Object.create(null)";

export const STANDARD_ERRORS: readonly ErrorConstructor[] = [
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
export function readShape(value: object): Shape {
  try {
    if (value instanceof Unreadable) return leaf(unprintable(value.reason));
    return describe(value);
  } catch (e) {
    return leaf(unprintable(errorText(e)));
  }
}

function describe(value: object): Shape {
  const form = printedForm(value);
  if (form !== undefined) return leaf(form);
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
    const extras =
      k === keys.length
        ? symbolEntries(value)
        : [...keys.slice(k).map((key) => [key, read(value, key)] as const), ...symbolEntries(value)];
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
    return withOwn(
      `new DataView(new Uint8Array(${numberList(bytes)}).buffer)${noteUnless(value, DataView.prototype)}`,
      value,
    );
  }
  if (types.isArrayBuffer(value)) {
    return withOwn(
      `new Uint8Array(${numberList(new Uint8Array(value))}).buffer${noteUnless(value, ArrayBuffer.prototype)}`,
      value,
    );
  }
  if (types.isMap(value)) {
    const entries = Array.from(Map.prototype.entries.call(value) as Iterable<readonly [unknown, unknown]>);
    return { kind: "map", entries, extras: ownEntries(value), note: noteUnless(value, Map.prototype) };
  }
  if (types.isSet(value)) {
    return {
      kind: "set",
      items: Array.from(Set.prototype.values.call(value) as Iterable<unknown>),
      extras: ownEntries(value),
      note: noteUnless(value, Set.prototype),
    };
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
    return withOwn(
      `Object(${primitive(inner)})${noteUnless(value, Object.getPrototypeOf(Object(inner)) as object)}`,
      value,
      skip,
    );
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
    return new Unreadable(
      `reading ${typeof key === "symbol" ? String(key) : JSON.stringify(key)} threw ${errorText(e)}`,
    );
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
