/**
 * Reading fields of what the host relays from the runner (presentations, schedules): untrusted, so each is
 * checked for its type and strings are clipped, before anything reaches the model (which is saved with
 * setState) or the screen.
 */

export function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** A string, clipped to n characters; undefined for anything else. */
export function text(x: unknown, n: number): string | undefined {
  return typeof x === "string" ? clip(x, n) : undefined;
}

/** A non-negative safe integer (a position, a count, a virtual time); undefined for anything else. */
export function count(x: unknown): number | undefined {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= 0 ? x : undefined;
}
