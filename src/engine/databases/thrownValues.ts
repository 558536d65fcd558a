/**
 * Values a database throws or returns, described for a warning. A custom database may throw anything (a
 * null-prototype object, a toString or message getter that throws, a revoked Proxy), and a warning that throws
 * would replace the failure being reported — or, from a rejection handler, crash the process: so nothing here
 * throws.
 */

/** What a value is, for warnings. Never throws (Array.isArray throws on a revoked Proxy). */
export function describe(value: unknown): string {
  if (value === null) return "null";
  try {
    if (Array.isArray(value)) return "an array";
  } catch {
    return "a revoked Proxy";
  }
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}

/**
 * The message of a thrown value, for warnings. Never throws: a custom database may throw anything (a
 * null-prototype object, a toString or message getter that throws, a revoked Proxy), and a warning that
 * throws would replace the failure being reported (or, from a rejection handler, crash the process).
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      if (typeof message === "string") return message;
    }
  } catch {
    // a throwing message getter or getPrototypeOf trap: fall through to the other readings
  }
  try {
    if (typeof error !== "object" && typeof error !== "function") return String(error);
    const text: unknown = String(error);
    if (typeof text === "string") return text;
  } catch {
    // no usable toString: describe it instead
  }
  try {
    return `a thrown ${Object.prototype.toString.call(error)} that cannot be converted to a string`;
  } catch {
    return `a thrown ${describe(error)} that cannot be read`;
  }
}
