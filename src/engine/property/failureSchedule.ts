/**
 * The schedule a simTest failure carries. Its error is schedules/'s ScheduleFailure, which property/ cannot
 * import (schedules/ ranks above it), and which the editor's runner receives from the user's own copy of the
 * engine (src/runner/failureReport.ts, through internals.ts): so both recognise it by its shape — named
 * "ScheduleFailure", with an `info` object — never by its class. It reads what the user's code threw, so it
 * never throws.
 */
import type { ScheduleInfo } from "../events/events.ts";

/** A ScheduleFailure's schedule, as the error gives it (not copied: the runner copies what crosses a process), or undefined. */
export function scheduleOf(error: unknown): ScheduleInfo | undefined {
  try {
    const e = error as { name?: unknown; info?: unknown } | null;
    if (typeof e !== "object" || e === null || e.name !== "ScheduleFailure") return undefined;
    const info = e.info;
    return typeof info === "object" && info !== null ? (info as ScheduleInfo) : undefined;
  } catch {
    return undefined; // a hostile error object: no schedule, and the failure still comes back
  }
}
