/**
 * Looking at arbitraries outside a property, fast-check's way: fc.sample (values a run would meet), fc.statistics
 * (how they spread over labels, printed as a table), and fc.stringify (a value as the engine prints it).
 */
import { InvalidArgument, st, Strategy, toLiteral } from "./engine.ts";
import { arbitraryOf } from "./arbitrary.ts";
import { typeName } from "./options.ts";
import type { Parameters } from "./parameters.ts";
import { parametersOf } from "./parameters.ts";

function runsOf(api: string, params: number | Parameters | undefined, fallback: number): { n: number; seed?: number } {
  if (typeof params === "number") return { n: params };
  const p = parametersOf(api, params);
  const n = p.numRuns ?? fallback;
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgument(`${api}: numRuns must be a positive integer, got ${typeName(n)}`);
  return p.seed !== undefined ? { n, seed: p.seed } : { n };
}

/** Values of `arb` (10 by default), as a run with the given seed meets them: small ones first, none twice. */
export function sample<T>(arb: Strategy<T>, params?: number | Parameters): T[] {
  const api = "fc.sample";
  const { n, seed } = runsOf(api, params, 10);
  return st.sample(arbitraryOf<T>(api, arb, "the arbitrary"), n, seed !== undefined ? { seed } : undefined);
}

/**
 * Classify `numRuns` (default 100) values of `arb` with `classify` (a label, or several) and print the share of each
 * label, most common first, through `params.logger` or console.log.
 */
export function statistics<T>(
  arb: Strategy<T>,
  classify: (v: T) => string | string[],
  params?: number | Parameters,
): void {
  const api = "fc.statistics";
  if (typeof classify !== "function")
    throw new InvalidArgument(`${api}: classify must be a function, got ${typeName(classify)}`);
  const { n, seed } = runsOf(api, params, 100);
  const values = st.sample(arbitraryOf<T>(api, arb, "the arbitrary"), n, seed !== undefined ? { seed } : undefined);
  const counts = new Map<string, number>();
  for (const v of values) {
    const labels = classify(v);
    for (const label of Array.isArray(labels) ? labels : [labels]) counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const rows = [...counts].sort((a, b) => b[1] - a[1]);
  const width = Math.max(0, ...rows.map(([label]) => label.length)) + 3;
  const logger =
    typeof params === "object" && typeof params.logger === "function"
      ? (params.logger as (line: string) => void)
      : console.log;
  for (const [label, count] of rows) {
    const share = `${((100 * count) / values.length).toFixed(2)}%`;
    logger(`${label}${".".repeat(Math.max(3, width - label.length + 8 - share.length))}${share}`);
  }
}

/** `value` as the engine prints it in a failure report: a TypeScript expression that evaluates to it. */
export function stringify(value: unknown): string {
  return toLiteral(value);
}
