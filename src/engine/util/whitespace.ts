/**
 * What `\s` matches in a JavaScript regular expression, one UTF-16 code unit at a time: white space (tab, vertical
 * tab, form feed, space, no-break space, the byte order mark and the Unicode space separators) and the line
 * terminators: a property's body text is hashed without it (core/fingerprints.ts). (The editor's reader of source
 * text has the same predicate of its own: it imports nothing outside its folder.)
 */
export function isWhiteSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
