/** The failure message a person reads, and the identity of a failure (its origin). */
import type { EngineResult } from "./engine.ts";
import { toLiteral } from "./printer.ts";

const ENGINE_FRAME = /[\\/](src[\\/]engine|dist[\\/]engine)|node:internal/;

/**
 * Which failure this is: the error's type and the first stack frame outside the engine. The shrinker only
 * accepts candidates with the same origin, so it cannot slip from one bug to another.
 */
export function errorOrigin(error: unknown): string {
  if (!(error instanceof Error)) return `thrown ${error === null ? "null" : typeof error}`;
  const frames = (error.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
  const frame = frames.find((l) => !ENGINE_FRAME.test(l)) ?? frames[0] ?? "";
  const location = frame.replace(/^\s+at /, "").replace(/^.*\((.*)\)$/, "$1");
  return `${error.name}@${location}`;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return `${toLiteral(error)} (thrown value, not an Error)`;
}

export interface FailureDescription {
  readonly result: Extract<EngineResult, { outcome: "failed" }>;
  readonly args: readonly unknown[];
  readonly repro: string;
  readonly seed: number;
  readonly error: unknown;
  readonly notes: readonly string[];
  readonly draws: readonly { label: string | undefined; value: unknown }[];
  readonly saved: boolean;
}

export function describeFailure(d: FailureDescription): string {
  const s = d.result.statistics;
  const lines: string[] = [];
  if (d.result.explicit) lines.push(`Property failed on an explicit example.`);
  else {
    const found = s.examples - s.shrinkCalls;
    lines.push(`Property failed after ${found} test case${found === 1 ? "" : "s"}; shrunk with ${s.shrinks} improvement${s.shrinks === 1 ? "" : "s"} in ${s.shrinkCalls} call${s.shrinkCalls === 1 ? "" : "s"}.`);
  }
  lines.push("", "Minimal failing arguments (TypeScript):", `  ${d.repro}`);
  d.draws.forEach((draw, i) => lines.push(`  draw ${i + 1}${draw.label ? ` (${draw.label})` : ""}: ${toLiteral(draw.value)}`));
  for (const n of d.notes) lines.push(`  note: ${n}`);
  if (d.result.flaky) lines.push("", "Warning: this example did not fail again when replayed — the property is flaky (it depends on something besides its arguments). Shown: the original failure.");
  if (d.result.shrinkStopped) lines.push("", `Shrinking stopped early: ${d.result.shrinkStopped}.`);
  lines.push("", describeError(d.error), "");
  const saved = d.saved ? "; the example is saved in the database and runs first next time" : "";
  lines.push(`Seed: ${d.seed}. Replay with { seed: ${d.seed} } or SHRINKSCOPE_SEED=${d.seed}${saved}.`);
  return lines.join("\n");
}
