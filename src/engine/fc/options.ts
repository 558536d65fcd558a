/**
 * Reading fast-check's constraint objects: each fc.* function names the constraints it maps onto its strategy, and
 * those it accepts without effect (warned once per name, as the run's ignored parameters are). A constraint fast-check
 * does not have is InvalidArgument, naming the call: a typo never silently tests something else.
 */
import { InvalidArgument } from "./engine.ts";

/** Constraints every sized fast-check arbitrary takes that shrinkscope/fc accepts without effect. */
export const SIZE_ONLY = ["size", "depthIdentifier", "depthSize"] as const;

const warned = new Set<string>();

/** Print `message` once per `key` in this process (console.warn): an ignored option is said, not repeated. */
export function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(`shrinkscope/fc: ${message}`);
}

/**
 * `given` as constraints of `api`: an object (or undefined: none), with only `known` keys; `ignored` ones are
 * accepted, warned about once. Returns the object to read.
 */
export function constraintsOf(
  api: string,
  given: unknown,
  known: readonly string[],
  ignored: readonly string[] = [],
): Record<string, unknown> {
  if (given === undefined) return {};
  if (given === null || typeof given !== "object" || Array.isArray(given))
    throw new InvalidArgument(`${api}: constraints must be an object, got ${typeName(given)}`);
  const o = given as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (o[k] === undefined || known.includes(k)) continue;
    if (ignored.includes(k)) {
      warnOnce(
        `${api}.${k}`,
        `${api}'s "${k}" is accepted and has no effect (sizes and depths follow the engine's own)`,
      );
      continue;
    }
    throw new InvalidArgument(`${api}: unknown constraint "${k}" (known: ${[...known, ...ignored].join(", ")})`);
  }
  return o;
}

/** A number constraint, or `fallback` when absent. */
export function numberOr(api: string, o: Record<string, unknown>, key: string, fallback: number): number {
  const v = o[key];
  if (v === undefined) return fallback;
  if (typeof v !== "number" || Number.isNaN(v))
    throw new InvalidArgument(`${api}: ${key} must be a number, got ${typeName(v)}`);
  return v;
}

/** A boolean constraint, false when absent. */
export function flag(api: string, o: Record<string, unknown>, key: string): boolean {
  const v = o[key];
  if (v === undefined) return false;
  if (typeof v !== "boolean") throw new InvalidArgument(`${api}: ${key} must be true or false, got ${typeName(v)}`);
  return v;
}

/** minLength/maxLength (fast-check's names) as a collection's minSize/maxSize. */
export function lengths(
  api: string,
  o: Record<string, unknown>,
  min = "minLength",
  max = "maxLength",
): { minSize?: number; maxSize?: number } {
  const out: { minSize?: number; maxSize?: number } = {};
  if (o[min] !== undefined) out.minSize = numberOr(api, o, min, 0);
  if (o[max] !== undefined) out.maxSize = numberOr(api, o, max, 0);
  return out;
}

/** What a value is, for an error message. */
export function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "function") return `a function${v.name ? ` (${v.name})` : ""}`;
  if (typeof v === "object") return `an object (${(v as object).constructor?.name ?? "no prototype"})`;
  return `${typeof v} ${String(v)}`;
}
