// Properties on value codecs, each with a bug of a kind application code has (see collections.spec.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** bigint → JSON-safe number → bigint: loses precision past 2^53. */
function roundTripId(id: bigint): bigint {
  return BigInt(Number(id));
}

/** Encodes a flat record as a query string, without escaping `&` and `=`. */
function toQuery(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

function fromQuery(query: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (query === "") return out;
  for (const part of query.split("&")) {
    const [k, v = ""] = part.split("=");
    out[k!] = v;
  }
  return out;
}

/** A date as YYYY-MM-DD, the year padded to four digits (years past 9999, or before 0, break the parser). */
function toDay(d: Date): string {
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

function fromDay(s: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) throw new Error(`not a day: ${s}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

type User = { name: string; age?: number | null; email?: string };

/** A greeting that forgets that `age` may be present but null. */
function greet(u: User): string {
  return "age" in u ? `${u.name} (${u.age!.toFixed(0)})` : u.name;
}

/** Truncates to `n` UTF-16 units, which can split a surrogate pair. */
function truncate(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, n);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("values", () => {
  it("ids survive the JSON round trip", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n }), (id) => {
        expect(roundTripId(id)).toBe(id);
      }),
    );
  });

  it("query strings round-trip", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), fc.string()), (params) => {
        expect(fromQuery(toQuery(params))).toEqual(params);
      }),
    );
  });

  it("days round-trip", () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (d) => {
        expect(fromDay(toDay(d))).toEqual([d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]);
      }),
    );
  });

  it("greets every user", () => {
    fc.assert(
      fc.property(
        fc.record(
          { name: fc.string(), age: fc.option(fc.nat({ max: 120 })), email: fc.emailAddress() },
          { requiredKeys: ["name"] },
        ),
        (u) => {
          expect(typeof greet(u)).toBe("string");
        },
      ),
    );
  });

  it("truncation keeps well-formed text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.nat({ max: 10 }), (s, n) => {
        expect(truncate(s, n)).not.toMatch(LONE_SURROGATE);
      }),
    );
  });
});
