/**
 * What prints in place of a value that cannot be read (a revoked Proxy, a getter or Proxy trap that throws, an
 * output too long for a string): `/* could not print: why *\/ undefined`, in its place only — printing never throws.
 */

/** Stands in for a value that could not be read (a getter threw): prints as the marker, in the value's place. */
export class Unreadable {
  constructor(readonly reason: string) {}
}

/** The placeholder for a value that cannot be printed (the report's own placeholders read the same). */
export function unprintable(reason: string): string {
  return `/* could not print: ${commentText(reason)} */ undefined`;
}

/** Arbitrary text made safe inside a one-line block comment. */
export function commentText(text: string): string {
  const line = text.replace(/[\n\r\u2028\u2029]/g, " ").replace(/\*\//g, "*\\/");
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

/** What went wrong, briefly; reading the error must not throw in turn (it may itself be a Proxy). */
export function errorText(e: unknown): string {
  try {
    if (e instanceof Error) {
      if (/revoked/.test(e.message)) return "revoked Proxy";
      return `${e.name}: ${e.message}`;
    }
    return String(e);
  } catch {
    return "the value could not be read";
  }
}
