/**
 * Strings from code units or code points, of any length: one String.fromCharCode call spreads its arguments on
 * the stack, and some hundred thousand of them overflow it (a RangeError), so long strings are built in chunks.
 * No Buffer: the choice layer is also compiled for the panel, in the browser.
 */

/** How many elements one String.fromCharCode / fromCodePoint call takes. */
const CHUNK = 8192;

/** A string from UTF-16 code units (or bytes), for any number of them. */
export function stringFromCharCodes(units: ArrayLike<number>): string {
  const n = units.length;
  if (n <= CHUNK) return String.fromCharCode.apply(null, units as number[]);
  // Typed arrays (bytes: long byte arrays are DataTree keys) are cut into views, not copied into arrays. No
  // Buffer here: this module is also compiled for the panel, in the browser.
  const typed = ArrayBuffer.isView(units) ? (units as unknown as Uint8Array) : undefined;
  const parts: string[] = [];
  for (let i = 0; i < n; i += CHUNK) {
    const end = Math.min(i + CHUNK, n);
    const chunk = typed !== undefined ? typed.subarray(i, end) : Array.prototype.slice.call(units, i, end);
    parts.push(String.fromCharCode.apply(null, chunk as unknown as number[]));
  }
  return parts.join("");
}

/** A string from code points, for any number of them. */
export function stringFromCodePoints(cps: ArrayLike<number>): string {
  const n = cps.length;
  if (n <= CHUNK) return String.fromCodePoint.apply(null, cps as number[]);
  const parts: string[] = [];
  for (let i = 0; i < n; i += CHUNK)
    parts.push(
      String.fromCodePoint.apply(null, Array.prototype.slice.call(cps, i, Math.min(i + CHUNK, n)) as number[]),
    );
  return parts.join("");
}
