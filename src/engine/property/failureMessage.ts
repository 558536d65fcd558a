/**
 * The failure message a person reads.
 *
 * Everything here runs on the failure path with values the user's code made: arguments whose printing throws
 * (a revoked Proxy, a throwing getter, an object too deep to print), errors whose `stack`/`name`/`message`
 * getters throw. None of it may throw in turn, or the failure (its seed, its arguments) would be lost behind
 * an error about printing: what cannot be printed is described as such, and the report goes on.
 */
import type { EngineResult } from "../core/engine.ts";
import type { ExplainedArgument } from "../events/events.ts";
import { FREE_COMMENT } from "../events/events.ts";
import { formatArgs, toLiteral } from "../print/printer.ts";

/** Make `text` safe inside a one-line block comment. */
function commentSafe(text: string): string {
  const line = text.replace(/\s+/g, " ").replace(/\*\//g, "* /").trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** A short reason naming what an error was, for a placeholder; never throws. */
export function reasonOf(error: unknown): string {
  try {
    if (error instanceof Error) return commentSafe(`${String(error.name)}: ${String(error.message)}`);
    return commentSafe(typeof error === "string" ? error : String(error));
  } catch {
    return "an unprintable error";
  }
}

/** An expression for `value`, or a placeholder comment (and `undefined`) saying why it could not be printed. */
export function literalOrPlaceholder(value: unknown): string {
  try {
    return toLiteral(value);
  } catch (e) {
    return `/* could not print: ${reasonOf(e)} */ undefined`;
  }
}

/**
 * The arguments as a TypeScript argument list (formatArgs), degrading argument by argument when printing
 * throws: each argument that cannot be printed becomes `/* could not print argument i: reason *\/ undefined`.
 * (Printed one by one, shared references between arguments are no longer shown as shared.)
 */
export function printArgs(args: readonly unknown[], format: (args: readonly unknown[]) => string = formatArgs): string {
  try {
    return format(args);
  } catch {
    const parts: string[] = [];
    for (let i = 0; i < args.length; i++) {
      try {
        parts.push(format([args[i]]));
      } catch (e) {
        parts.push(`/* could not print argument ${i}: ${reasonOf(e)} */ undefined`);
      }
    }
    return parts.join(", ");
  }
}

/** The error for the report: its stack, else name and message, else what could be told about it. */
export function describeError(error: unknown): string {
  let isError: boolean;
  try {
    isError = error instanceof Error;
  } catch (e) {
    return `(could not describe the error: a thrown ${typeof error} that cannot be inspected: ${reasonOf(e)})`;
  }
  if (!isError) {
    try {
      return `${toLiteral(error)} (thrown value, not an Error)`;
    } catch (e) {
      return `(could not describe the error: a thrown ${typeof error} that cannot be printed: ${reasonOf(e)})`;
    }
  }
  const err = error as Error;
  try {
    const stack = err.stack;
    if (typeof stack === "string" && stack !== "") return stack;
  } catch {
    // fall back to name and message
  }
  try {
    return `${String(err.name)}: ${String(err.message)}`;
  } catch (e) {
    return `(could not describe the error: its stack, name and message cannot be read: ${reasonOf(e)})`;
  }
}

/** The error as plain data for the result event; never throws. */
export function errorSummary(error: unknown): { name: string; message: string; stack?: string } {
  let isError = false;
  try {
    isError = error instanceof Error;
  } catch {
    // a revoked Proxy: described below
  }
  if (!isError) {
    let message: string;
    try {
      message = String(error);
    } catch {
      message = describeError(error);
    }
    return { name: typeof error, message };
  }
  const err = error as Error;
  const read = (get: () => unknown): string | undefined => {
    try {
      const v = get();
      return v === undefined ? undefined : String(v);
    } catch {
      return undefined;
    }
  };
  const stack = read(() => err.stack);
  return {
    name: read(() => err.name) ?? "Error",
    message: read(() => err.message) ?? describeError(error),
    ...(stack ? { stack } : {}),
  };
}

/** A draw's label as given (it should be a string; anything else is converted, or described). */
function labelText(label: unknown): string {
  try {
    return String(label);
  } catch (e) {
    return `/* could not print label: ${reasonOf(e)} */`;
  }
}

export interface FailureDescription {
  readonly result: Extract<EngineResult, { outcome: "failed" }>;
  readonly args: readonly unknown[];
  readonly repro: string;
  /** The arguments one per line, the free ones marked (the explain phase found some). */
  readonly explained?: readonly ExplainedArgument[] | undefined;
  readonly seed: number;
  readonly error: unknown;
  readonly notes: readonly string[];
  /** `printed`: the value as printed when it was drawn (before the body could mutate it), when known. */
  readonly draws: readonly { label: string | undefined; value: unknown; printed?: string | undefined }[];
  readonly saved: boolean;
  /** The error was thrown while drawing this argument (by user code in a strategy), before the body ran. */
  readonly generating?: number | undefined;
  /** The `Replay: { replay: "…" }` line the message ends with (none for an explicit example). */
  readonly replay?: string | undefined;
}

/** One argument per line, commas between, each free one followed by FREE_COMMENT. */
export function explainedLines(args: readonly ExplainedArgument[], indent = "  "): string[] {
  return args.map((a, i) => `${indent}${a.text}${i < args.length - 1 ? "," : ""}${a.free ? ` ${FREE_COMMENT}` : ""}`);
}

export function describeFailure(d: FailureDescription): string {
  const s = d.result.statistics;
  const lines: string[] = [];
  if (d.result.explicit) lines.push(`Property failed on an explicit example.`);
  else if (d.result.replayed)
    lines.push("Property failed on the replayed case (run once: no generation, no shrinking, no database).");
  else {
    const found = s.examples;
    lines.push(
      `Property failed after ${found} test case${found === 1 ? "" : "s"}; shrunk with ${s.shrinks} improvement${s.shrinks === 1 ? "" : "s"} in ${s.shrinkCalls} call${s.shrinkCalls === 1 ? "" : "s"}.`,
    );
  }
  if (d.generating !== undefined) {
    lines.push(
      "",
      `The error was thrown while generating argument ${d.generating}, before the body ran: by a function given to its strategy (.map, .filter, .flatMap, uniqueBy, a deferred thunk...), which is the test's own code.`,
    );
  }
  lines.push(
    "",
    d.result.flaky
      ? "Failing arguments (TypeScript; flaky, so not shrunk to a minimal example):"
      : "Minimal failing arguments (TypeScript):",
  );
  if (d.explained === undefined) lines.push(`  ${d.repro}`);
  else lines.push(...explainedLines(d.explained));
  d.draws.forEach((draw, i) =>
    lines.push(
      `  draw ${i + 1}${draw.label ? ` (${labelText(draw.label)})` : ""}: ${draw.printed ?? literalOrPlaceholder(draw.value)}`,
    ),
  );
  for (const n of d.notes) lines.push(`  note: ${n}`);
  if (d.result.flaky)
    lines.push(
      "",
      d.result.flakiness ??
        "Warning: this example did not fail again when replayed — the property is flaky (it depends on something besides its arguments). Shown: the original failure.",
    );
  if (d.result.shrinkStopped) lines.push("", `Shrinking stopped early: ${d.result.shrinkStopped}.`);
  lines.push("", describeError(d.error), "");
  const saved = d.saved ? "; the example is saved in the database and runs first next time" : "";
  if (!d.result.replayed)
    lines.push(`Seed: ${d.seed}. Replay with { seed: ${d.seed} } or SHRINKSCOPE_SEED=${d.seed}${saved}.`);
  if (d.replay !== undefined) lines.push(d.replay);
  return lines.join("\n");
}
