/**
 * Engine events on their way from the extension host to the panel, as one compact JSON text in UTF-8 bytes.
 *
 * Why: VS Code carries a webview message as JSON to the workbench, which parses it and hands the object to the
 * webview by structured clone — once more per frame on the way in. For a batch of 250 test cases that was
 * 0.5–0.9 MB of objects, mostly the choices (each with its constraints object) and spans of every case,
 * cloned on the panel's own main thread: 10–15 ms a message. Bytes cross every hop as bytes (VS Code sends a
 * message's ArrayBuffers beside its JSON), cost the panel's thread a copy of a few µs where a string of the
 * same text cost ~0.5 ms, and move to the panel's fold worker without a copy; the worker parses them once.
 * Choices and spans are written as flat arrays (five numbers or values per entry) with each batch's
 * constraints and span labels in tables, which makes a batch 2–4× smaller and its decoding (JSON.parse and
 * rebuilding the objects) 3–8× cheaper than the clone it replaces.
 *
 * It is also exact where JSON is not: NaN, ±Infinity and -0 among float choices, and bytes, arrive as the
 * values the engine drew (plain JSON would turn the first into null and -0 into 0).
 *
 * Everything else in an event passes as JSON. The panel treats the string as untrusted: decodeEvents never
 * throws on malformed input and drops entries it cannot read.
 */
import type { ChoiceInfo, ChoiceType, ChoiceValue, EngineEvent, SpanInfo } from "../engine/internals.ts";
import type { PanelMessage, PostedPanelMessage } from "./protocol.ts";

const TYPES: readonly ChoiceType[] = ["integer", "float", "boolean", "string", "bytes"];
const CODE = new Map(TYPES.map((t, i) => [t, i]));
/** Fields per entry of an encoded choices / spans array. */
const CHOICE_FIELDS = 5;
const SPAN_FIELDS = 5;

interface Wire {
  /** Constraints table. */
  readonly c: readonly unknown[];
  /** Span labels table. */
  readonly l: readonly string[];
  readonly e: readonly unknown[];
}

/** A float as JSON keeps it: NaN, ±Infinity and -0 as their names. */
function floatOut(v: number): number | string {
  return Object.is(v, -0) ? "-0" : Number.isFinite(v) ? v : String(v);
}

/** The events as one string for the panel (see the file's comment). */
export function encodeEvents(events: readonly EngineEvent[]): string {
  const constraints: unknown[] = [];
  const byObject = new Map<object, number>();
  const byText = new Map<string, number>();
  const constraintId = (c: object): number => {
    let id = byObject.get(c);
    if (id !== undefined) return id;
    const text = JSON.stringify(c);
    id = byText.get(text);
    if (id === undefined) {
      id = constraints.length;
      constraints.push(c);
      byText.set(text, id);
    }
    byObject.set(c, id);
    return id;
  };
  const labels: string[] = [];
  const labelIds = new Map<string, number>();
  const labelId = (l: string): number => {
    let id = labelIds.get(l);
    if (id === undefined) {
      id = labels.length;
      labels.push(l);
      labelIds.set(l, id);
    }
    return id;
  };
  const choicesOut = (cs: readonly ChoiceInfo[]): { $c: unknown[] } => {
    const flat: unknown[] = [];
    for (const c of cs) {
      const v = c.value;
      const value =
        v instanceof Uint8Array ? Array.from(v) : typeof v === "number" && c.type === "float" ? floatOut(v) : v;
      flat.push(CODE.get(c.type) ?? -1, value, floatOut(c.index), c.forced ? 1 : 0, constraintId(c.constraints));
    }
    return { $c: flat };
  };
  const spansOut = (ss: readonly SpanInfo[]): { $s: number[] } => {
    const flat: number[] = [];
    for (const s of ss) flat.push(labelId(s.label), s.start, s.end, s.depth, s.discarded ? 1 : 0);
    return { $s: flat };
  };
  const out = events.map((e) => {
    const choices = "choices" in e && Array.isArray(e.choices) ? choicesOut(e.choices) : undefined;
    const spans = "spans" in e && Array.isArray(e.spans) ? spansOut(e.spans) : undefined;
    return choices === undefined && spans === undefined
      ? e
      : { ...e, ...(choices ? { choices } : {}), ...(spans ? { spans } : {}) };
  });
  return JSON.stringify({ c: constraints, l: labels, e: out } satisfies Wire);
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** A message for the panel as the host posts it: a batch's events encoded. */
export function posted(m: PanelMessage): PostedPanelMessage {
  return m.type === "events" ? { type: "events", wire: utf8.encode(encodeEvents(m.events)), dropped: m.dropped } : m;
}

function valueIn(type: ChoiceType, v: unknown): ChoiceValue | undefined {
  switch (type) {
    case "float":
      return typeof v === "number"
        ? v
        : typeof v === "string" && ["NaN", "Infinity", "-Infinity", "-0"].includes(v)
          ? Number(v)
          : undefined;
    case "bytes":
      return Array.isArray(v) && v.every((b) => typeof b === "number") ? Uint8Array.from(v as number[]) : undefined;
    case "boolean":
      return typeof v === "boolean" ? v : undefined;
    case "string":
      return typeof v === "string" ? v : undefined;
    default:
      return typeof v === "number" ? v : undefined;
  }
}

function record(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** The events of encodeEvents' text (a string, or its UTF-8 bytes); [] for anything malformed (untrusted: never throws). */
export function decodeEvents(text: unknown): EngineEvent[] {
  let w: unknown;
  try {
    const s =
      typeof text === "string"
        ? text
        : text instanceof Uint8Array || text instanceof ArrayBuffer
          ? fromUtf8.decode(text)
          : undefined;
    w = s === undefined ? undefined : JSON.parse(s);
  } catch {
    return [];
  }
  if (!record(w) || !Array.isArray(w.e)) return [];
  const table = Array.isArray(w.c) ? w.c : [];
  const labels = Array.isArray(w.l) ? w.l : [];
  const choicesIn = (x: unknown): ChoiceInfo[] => {
    const flat = record(x) && Array.isArray(x.$c) ? x.$c : [];
    const out: ChoiceInfo[] = [];
    for (let i = 0; i + CHOICE_FIELDS <= flat.length; i += CHOICE_FIELDS) {
      const type = TYPES[flat[i] as number];
      const value = type === undefined ? undefined : valueIn(type, flat[i + 1]);
      if (value === undefined) continue;
      const index = flat[i + 2];
      const c = table[flat[i + 4] as number];
      out.push({
        type: type!,
        value,
        index: (valueIn("float", index) as number | undefined) ?? 0,
        forced: flat[i + 3] === 1,
        constraints: record(c) ? c : {},
      });
    }
    return out;
  };
  const spansIn = (x: unknown): SpanInfo[] => {
    const flat = record(x) && Array.isArray(x.$s) ? x.$s : [];
    const out: SpanInfo[] = [];
    for (let i = 0; i + SPAN_FIELDS <= flat.length; i += SPAN_FIELDS) {
      const start = flat[i + 1];
      const end = flat[i + 2];
      const depth = flat[i + 3];
      if (typeof start !== "number" || typeof end !== "number" || typeof depth !== "number") continue;
      const label = labels[flat[i] as number];
      out.push({ label: typeof label === "string" ? label : "?", start, end, depth, discarded: flat[i + 4] === 1 });
    }
    return out;
  };
  const events: EngineEvent[] = [];
  for (const e of w.e) {
    if (!record(e) || typeof e.type !== "string") continue;
    if (record(e.choices) || record(e.spans)) {
      const copy: Record<string, unknown> = { ...e };
      if (record(e.choices)) copy.choices = choicesIn(e.choices);
      if (record(e.spans)) copy.spans = spansIn(e.spans);
      events.push(copy as unknown as EngineEvent);
    } else events.push(e as unknown as EngineEvent);
  }
  return events;
}
