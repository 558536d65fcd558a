/**
 * How choices are stored: flat, one slot per choice in parallel typed arrays, so drawing a number allocates
 * nothing. A TestCase draws into a ChoiceData and the DataTree copies its runs out of the same arrays; ChoiceNode
 * objects are built from it only when something asks (shrinking, events).
 */
import type { ChoiceNode, ChoiceType, ChoiceValue, Constraints } from "./types.ts";

/** A choice's value as choice storage keeps it (ChoiceData, the DataTree's runs): by its kind's type code. */
export function storedValue(code: number, values: Float64Array, objects: unknown[] | null, i: number): ChoiceValue {
  switch (code & 7) {
    case 2:
      return values[i] !== 0;
    case 3:
    case 4:
      return (objects as unknown[])[i] as ChoiceValue;
    default:
      return values[i];
  }
}

/**
 * How a TestCase stores its choices (and what DataTree.insert reads): parallel arrays, one slot per choice —
 * the kind (the type's code, | FORCED_BIT when forced) in an Int32Array, the constraints, and the value: a
 * number (booleans as 0/1) in a Float64Array, a string or bytes in a side array. Numbers are stored unboxed, so
 * drawing an integer allocates nothing; the DataTree copies its runs out of these arrays. ChoiceNode objects
 * are built from it only when asked for (shrinking, events). `length` choices are held; `clear` empties it
 * for reuse (a generated case's storage is reused by the next one: TestCase).
 */
export class ChoiceData {
  codes: Int32Array;
  values: Float64Array;
  constraints: Constraints[];
  /** String and bytes values by position (made on first use). */
  objects: unknown[] | null = null;
  length = 0;
  /** (8: typed arrays of up to 64 bytes live on the JS heap, cheap to make; larger ones need a backing store.) */
  constructor(capacity = 8) {
    this.codes = new Int32Array(capacity);
    this.values = new Float64Array(capacity);
    this.constraints = new Array<Constraints>(capacity);
  }

  push(code: number, constraints: Constraints, value: ChoiceValue): void {
    const i = this.length;
    if (i === this.codes.length) this.grow();
    this.codes[i] = code;
    this.constraints[i] = constraints;
    switch (code & 7) {
      case 2:
        this.values[i] = value ? 1 : 0;
        break;
      case 3:
      case 4:
        (this.objects ??= [])[i] = value;
        this.values[i] = NaN; // a string's slot holds its hash once made (core/fingerprints.ts), NaN until then
        break;
      default:
        this.values[i] = value as number;
    }
    this.length = i + 1;
  }

  /** push() for a choice stored as a number (an integer, a float, a boolean as 0/1). */
  pushNumber(code: number, constraints: Constraints, value: number): void {
    const i = this.length;
    if (i === this.codes.length) this.grow();
    this.codes[i] = code;
    this.constraints[i] = constraints;
    this.values[i] = value;
    this.length = i + 1;
  }

  value(i: number): ChoiceValue {
    return storedValue(this.codes[i], this.values, this.objects, i);
  }

  clear(): void {
    this.length = 0;
  }

  /** A copy holding just the choices (for a case that outlives reused storage). */
  copy(): ChoiceData {
    const out = new ChoiceData(Math.max(this.length, 1));
    out.assign(this, this.length);
    return out;
  }

  /** Hold choices [0, n) of `from` instead of its own (growing as needed). */
  assign(from: ChoiceData, n: number): void {
    while (this.codes.length < n) this.grow();
    // A loop, not set(subarray(…)): most cases hold a few dozen choices, and each subarray is an object.
    const codes = this.codes;
    const values = this.values;
    for (let i = 0; i < n; i++) {
      codes[i] = from.codes[i];
      values[i] = from.values[i];
      this.constraints[i] = from.constraints[i];
    }
    if (from.objects !== null) {
      const objects = (this.objects ??= []);
      for (let i = 0; i < n; i++) objects[i] = from.objects[i];
    }
    this.length = n;
  }

  /** Append choices [from, from + n) of `source` after the ones held. */
  append(source: ChoiceData, n: number, from = 0): void {
    const at = this.length;
    while (this.codes.length < at + n) this.grow();
    const codes = this.codes;
    const values = this.values;
    const constraints = this.constraints;
    for (let i = 0; i < n; i++) {
      codes[at + i] = source.codes[from + i];
      values[at + i] = source.values[from + i];
      constraints[at + i] = source.constraints[from + i];
    }
    const objects = source.objects;
    if (objects !== null) {
      const into = (this.objects ??= []);
      for (let i = 0; i < n; i++) if ((codes[at + i] & 7) >= 3) into[at + i] = objects[from + i];
    }
    this.length = at + n;
  }

  private grow(): void {
    const n = this.codes.length * 2;
    const codes = new Int32Array(n);
    codes.set(this.codes);
    const values = new Float64Array(n);
    values.set(this.values);
    this.codes = codes;
    this.values = values;
  }
}
export const FORCED_BIT = 8;
export const TYPE_NAMES: readonly ChoiceType[] = ["integer", "float", "boolean", "string", "bytes"];

export function typeCode(type: ChoiceType): number {
  switch (type) {
    case "integer":
      return 0;
    case "float":
      return 1;
    case "boolean":
      return 2;
    case "string":
      return 3;
    case "bytes":
      return 4;
  }
}

export function typeAt(data: ChoiceData, i: number): ChoiceType {
  return TYPE_NAMES[data.codes[i] & 7];
}
export function forcedAt(data: ChoiceData, i: number): boolean {
  return (data.codes[i] & FORCED_BIT) !== 0;
}
export function constraintsAt(data: ChoiceData, i: number): Constraints {
  return data.constraints[i];
}
export function valueAt(data: ChoiceData, i: number): ChoiceValue {
  return data.value(i);
}
export function nodeAt(data: ChoiceData, i: number): ChoiceNode {
  return {
    type: typeAt(data, i),
    value: valueAt(data, i),
    constraints: constraintsAt(data, i),
    forced: forcedAt(data, i),
  };
}

/** Flat storage of ChoiceNode objects (for callers that hold nodes, e.g. DataTree.record). */
export function dataOfNodes(nodes: readonly ChoiceNode[]): ChoiceData {
  const data = new ChoiceData(Math.max(nodes.length, 1));
  for (const n of nodes) data.push(typeCode(n.type) | (n.forced ? FORCED_BIT : 0), n.constraints, n.value);
  return data;
}
