/**
 * JSON for recorded event streams that round-trips what plain JSON loses: -0, NaN, ±Infinity and
 * Uint8Array (choice values) — tagged as {"$num": "-0"} and {"$bytes": [..]}. No bigints occur in events.
 * Used by record.ts to write fixtures and by the tests to read them back exactly as the engine emitted them.
 */
const NUM = "$num";
const BYTES = "$bytes";

export function serialise(value: unknown): string {
  return JSON.stringify(value, function (_key, v: unknown) {
    if (typeof v === "number") {
      if (Object.is(v, -0)) return { [NUM]: "-0" };
      if (!Number.isFinite(v)) return { [NUM]: String(v) };
    }
    if (v instanceof Uint8Array) return { [BYTES]: Array.from(v) };
    return v;
  });
}

export function deserialise(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && keys[0] === NUM && typeof o[NUM] === "string") return Number(o[NUM]);
      if (keys.length === 1 && keys[0] === BYTES && Array.isArray(o[BYTES]))
        return Uint8Array.from(o[BYTES] as number[]);
    }
    return v;
  });
}
