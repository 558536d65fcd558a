/**
 * A choice sequence as a short line of text: what a failure's `Replay:` line carries, to be pasted from a CI log
 * into `settings.replay` or SHRINKSCOPE_REPLAY. The database's JSON (encoding.ts) spends a dozen characters on a
 * choice; here a small integer or a boolean costs two bytes before base64url (one tag byte, one varint byte), a
 * string one byte per ASCII character.
 *
 * Bytes, then base64url (no padding). Per choice, a tag byte and its payload:
 *   0  a safe integer ≥ 0, as a varint (7 bits a byte, low first, high bit "more")
 *   1  a safe integer < 0, its negation as a varint
 *   2  false              3  true
 *   4  any other number (fractions, −0, NaN, ±Infinity, beyond 2^53): its float64, little-endian
 *   5  a string: its UTF-16 length as a varint, then each code unit as a varint (lone surrogates survive)
 *   6  bytes: the length as a varint, then the bytes
 * Decoding rejects anything else (an unknown tag, a truncated payload, a varint past 2^53) with what is wrong.
 */
import type { StoredChoice } from "./exampleDatabase.ts";

const NON_NEGATIVE = 0;
const NEGATIVE = 1;
const FALSE = 2;
const TRUE = 3;
const FLOAT = 4;
const STRING = 5;
const BYTES = 6;

class ByteWriter {
  private buf = new Uint8Array(64);
  length = 0;
  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }
  varint(n: number): void {
    // Division, not bit operations: these go up to 2^53.
    while (n >= 0x80) {
      this.byte((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.byte(n);
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  done(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** The choices as base64url text (see the top of this file). */
export function encodeCompact(choices: readonly StoredChoice[]): string {
  const w = new ByteWriter();
  const float = new DataView(new ArrayBuffer(8));
  for (const c of choices) {
    if (typeof c === "boolean") w.byte(c ? TRUE : FALSE);
    else if (typeof c === "number") {
      if (Number.isSafeInteger(c) && !Object.is(c, -0)) {
        w.byte(c >= 0 ? NON_NEGATIVE : NEGATIVE);
        w.varint(Math.abs(c));
      } else {
        w.byte(FLOAT);
        float.setFloat64(0, c, true);
        w.bytes(new Uint8Array(float.buffer));
      }
    } else if (typeof c === "string") {
      w.byte(STRING);
      w.varint(c.length);
      for (let i = 0; i < c.length; i++) w.varint(c.charCodeAt(i));
    } else {
      w.byte(BYTES);
      w.varint(c.length);
      w.bytes(c);
    }
  }
  return Buffer.from(w.done()).toString("base64url");
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Parse text written by encodeCompact; throws an Error saying what is wrong with anything else. */
export function decodeCompact(text: string): StoredChoice[] {
  if (!BASE64URL.test(text)) throw new Error("it is not base64url text (letters, digits, - and _ only)");
  const bytes = new Uint8Array(Buffer.from(text, "base64url"));
  if (Buffer.from(bytes).toString("base64url") !== text) throw new Error("it is not canonical base64url text");
  let at = 0;
  const need = (n: number, what: string) => {
    if (at + n > bytes.length) throw new Error(`it ends in the middle of ${what} (choice ${out.length})`);
  };
  const varint = (what: string): number => {
    let n = 0;
    let scale = 1;
    for (;;) {
      need(1, what);
      const b = bytes[at++]!;
      n += (b & 0x7f) * scale;
      if (n > Number.MAX_SAFE_INTEGER) throw new Error(`${what} is out of range (choice ${out.length})`);
      if ((b & 0x80) === 0) return n;
      scale *= 0x80;
    }
  };
  const out: StoredChoice[] = [];
  const float = new DataView(new ArrayBuffer(8));
  while (at < bytes.length) {
    const tag = bytes[at++]!;
    switch (tag) {
      case NON_NEGATIVE:
        out.push(varint("an integer"));
        break;
      case NEGATIVE: {
        const n = varint("an integer");
        if (n === 0) throw new Error(`a negative integer is written as 0 (choice ${out.length})`);
        out.push(-n);
        break;
      }
      case FALSE:
      case TRUE:
        out.push(tag === TRUE);
        break;
      case FLOAT:
        need(8, "a number");
        for (let i = 0; i < 8; i++) float.setUint8(i, bytes[at++]!);
        out.push(float.getFloat64(0, true));
        break;
      case STRING: {
        const length = varint("a string's length");
        const units: number[] = [];
        for (let i = 0; i < length; i++) {
          const unit = varint("a string");
          if (unit > 0xffff) throw new Error(`a string holds a code unit past 0xFFFF (choice ${out.length})`);
          units.push(unit);
        }
        let s = "";
        for (let i = 0; i < units.length; i += 8192) s += String.fromCharCode(...units.slice(i, i + 8192));
        out.push(s);
        break;
      }
      case BYTES: {
        const length = varint("a byte string's length");
        need(length, "a byte string");
        out.push(bytes.slice(at, at + length));
        at += length;
        break;
      }
      default:
        throw new Error(`unknown tag ${tag} (choice ${out.length})`);
    }
  }
  return out;
}
