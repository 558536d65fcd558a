/**
 * An error as one line a person reads: in a flakiness report, a schedule's trace and its report. The error is
 * whatever user code threw — an Error whose getters throw, a revoked Proxy, a string, undefined — and the failure
 * it describes must still be reported, so this never throws.
 */
import { toLiteral } from "./printer.ts";

/** `Name: first line of the message` for an Error; any other thrown value as a literal, marked as thrown. */
export function errorLine(error: unknown): string {
  try {
    if (error instanceof Error) return `${String(error.name)}: ${String(error.message).split("\n")[0]}`;
    return `${toLiteral(error)} (thrown)`;
  } catch {
    return "an error that cannot be printed";
  }
}
