/**
 * When two choices are the same choice: by value, floats by Object.is (−0 is not 0, NaN is NaN) and byte
 * strings by their bytes — what the DataTree, the variations and the shrinker's caches key on.
 */
import type { ChoiceType, ChoiceValue } from "./types.ts";
import { stringFromCharCodes } from "../util/strings.ts";

/** Two values of one choice are the same choice (floats by Object.is, so −0 ≠ 0 and NaN = NaN). */
export function choiceEquals(type: ChoiceType, a: ChoiceValue, b: ChoiceValue): boolean {
  if (type === "bytes") {
    const x = a as Uint8Array;
    const y = b as Uint8Array;
    if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  return Object.is(a, b);
}

/** Whether two value sequences are the same choices (−0 is not 0; byte strings by their bytes). */
export function sameChoices(a: readonly ChoiceValue[], b: readonly ChoiceValue[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x instanceof Uint8Array || y instanceof Uint8Array ? !choiceEquals("bytes", x, y) : !Object.is(x, y))
      return false;
  }
  return true;
}

/** A primitive key for Maps (Map uses SameValueZero, which would merge −0 and 0). */
export function choiceKey(type: ChoiceType, v: ChoiceValue): string | number | boolean {
  if (type === "bytes") return stringFromCharCodes(v as Uint8Array);
  if (type === "float" && Object.is(v, -0)) return "-0";
  return v as string | number | boolean;
}

/** A choice's value as text, type told apart (3, "3", true, bytes): equal texts, equal values; -0 is not 0. */
export function choiceText(v: ChoiceValue): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "boolean") return v ? "T" : "F";
  return `y${v.join(" ")}`;
}
