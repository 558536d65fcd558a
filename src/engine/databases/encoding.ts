/**
 * How a choice sequence is written down: versioned JSON in which every choice is tagged with its type, numbers
 * without a JSON literal (NaN, ±Infinity, −0) spelled out, bytes in base64. Every database stores this text, so a
 * saved failure reads back the same wherever it was saved; anything else is rejected with what is wrong with it.
 */
import type { StoredChoice } from "./exampleDatabase.ts";
import { describe } from "./thrownValues.ts";

const FORMAT = "shrinkscope-choices";
const VERSION = 1;

// Special numbers have no JSON literal; -0 has one ("-0") but JSON.stringify(-0) prints "0", losing the sign.
const SPECIAL_NUMBERS: ReadonlyMap<string, number> = new Map([
  ["-0", -0],
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
]);

type EncodedChoice = { n: number | string } | { b: boolean } | { s: string } | { y: string };

function encodeChoice(choice: StoredChoice, index: number): EncodedChoice {
  switch (typeof choice) {
    case "number":
      if (Object.is(choice, -0)) return { n: "-0" };
      // Finite doubles survive JSON exactly: JSON.stringify prints the shortest round-tripping decimal.
      if (Number.isFinite(choice)) return { n: choice };
      return { n: String(choice) }; // "NaN", "Infinity", "-Infinity"
    case "boolean":
      return { b: choice };
    case "string":
      // JSON.stringify (well-formed since ES2019) escapes lone surrogates as \udXXX, so they round-trip.
      return { s: choice };
    default:
      if (choice instanceof Uint8Array) {
        return { y: Buffer.from(choice.buffer, choice.byteOffset, choice.byteLength).toString("base64") };
      }
      throw new TypeError(`encodeChoices: choice ${index} is not a number, boolean, string or Uint8Array`);
  }
}

/** Serialize a choice sequence as versioned JSON in which every choice is tagged with its type. */
export function encodeChoices(choices: readonly StoredChoice[]): string {
  return JSON.stringify({ format: FORMAT, version: VERSION, choices: choices.map(encodeChoice) });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeChoice(raw: unknown, index: number): StoredChoice {
  const where = `choices[${index}]`;
  if (!isPlainObject(raw)) throw new Error(`${where} must be an object with one tag, got ${describe(raw)}`);
  const keys = Object.keys(raw);
  if (keys.length !== 1) throw new Error(`${where} must have exactly one tag, got ${keys.length} keys`);
  const tag = keys[0]!;
  const value = raw[tag];
  switch (tag) {
    case "n":
      if (typeof value === "number") {
        // A literal like 1e400 parses to Infinity; the encoder never writes that, so treat it as corruption.
        if (!Number.isFinite(value)) throw new Error(`${where}: number literal out of range`);
        return value;
      }
      if (typeof value === "string" && SPECIAL_NUMBERS.has(value)) return SPECIAL_NUMBERS.get(value)!;
      throw new Error(
        `${where}: "n" must be a finite number or one of "-0", "NaN", "Infinity", "-Infinity", got ${describe(value)}`,
      );
    case "b":
      if (typeof value === "boolean") return value;
      throw new Error(`${where}: "b" must be a boolean, got ${describe(value)}`);
    case "s":
      if (typeof value === "string") return value;
      throw new Error(`${where}: "s" must be a string, got ${describe(value)}`);
    case "y": {
      // Buffer.from(..., "base64") silently skips bad characters; demand canonical base64 so garbage is caught.
      if (typeof value !== "string") throw new Error(`${where}: "y" must be a base64 string, got ${describe(value)}`);
      const bytes = BASE64.test(value) ? Buffer.from(value, "base64") : undefined;
      if (bytes === undefined || bytes.toString("base64") !== value)
        throw new Error(`${where}: "y" is not valid base64`);
      // Copy into a plain Uint8Array: callers compare with Uint8Array semantics, not Buffer's.
      return new Uint8Array(bytes);
    }
    default:
      throw new Error(`${where}: unknown tag ${JSON.stringify(tag)} (expected "n", "b", "s" or "y")`);
  }
}

/** Parse text written by encodeChoices. Throws an Error saying what is wrong with anything else. */
export function decodeChoices(text: string): StoredChoice[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`invalid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed)) throw new Error(`expected a JSON object, got ${describe(parsed)}`);
  if (parsed["format"] !== FORMAT) {
    throw new Error(`"format" must be ${JSON.stringify(FORMAT)}, got ${describe(parsed["format"])}`);
  }
  if (parsed["version"] !== VERSION) {
    // Most likely written by a newer Shrinkscope; skipping it is safe, it is only a cache.
    throw new Error(
      `unsupported version ${JSON.stringify(parsed["version"]) ?? "undefined"} (this reader understands version ${VERSION})`,
    );
  }
  const extra = Object.keys(parsed).filter((k) => k !== "format" && k !== "version" && k !== "choices");
  if (extra.length > 0) throw new Error(`unexpected field(s) ${extra.map((k) => JSON.stringify(k)).join(", ")}`);
  const choices = parsed["choices"];
  if (!Array.isArray(choices)) throw new Error(`"choices" must be an array, got ${describe(choices)}`);
  return choices.map(decodeChoice);
}
