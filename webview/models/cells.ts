/**
 * Choices as the panel shows them: each ChoiceInfo turned, once, into a small JSON-safe record of display
 * strings and numbers (a cell). Raw values never reach the view model, for three reasons: the model is saved
 * with setState (JSON — no Uint8Array, -0 or NaN survive it), the host's postMessage may already have
 * flattened them (NaN → null, Uint8Array → {0:…, 1:…}), and the renderer must only ever set text, not markup.
 */
import type { ChoiceInfo, SpanInfo } from "../../src/shared/protocol.ts";

export type CellType = "integer" | "float" | "boolean" | "string" | "bytes";

export interface Cell {
  /** Stable key for d3 joins: kept while a cell survives from one shrink target to the next. */
  readonly id: number;
  readonly pos: number;
  readonly type: CellType;
  /** A few characters, drawn inside the cell. */
  readonly short: string;
  /** The value in full (up to a limit), for hover and focus. */
  readonly text: string;
  /** Complexity index under the choice's constraints (0 = simplest). */
  readonly index: number;
  readonly forced: boolean;
  /** The constraints, summarised in words. */
  readonly constraints: string;
}

export interface Span {
  readonly label: string;
  readonly start: number;
  readonly end: number;
  readonly depth: number;
}

/** A choice sequence as shown: at most MAX_CELLS cells, but the true length and index sum. */
export interface Sequence {
  readonly cells: readonly Cell[];
  readonly spans: readonly Span[];
  readonly length: number;
  readonly indexSum: number;
}

/** More cells than this are summarised ("+N more"): nobody reads thousands, and the DOM stays small. */
export const MAX_CELLS = 400;
/** Spans nested deeper than this are not drawn (they would add nothing but height). */
export const MAX_SPAN_DEPTH = 4;
/** A value's text in the details line (a selected cell's full value, within reason). */
const MAX_TEXT = 1000;

const TYPES = new Set<string>(["integer", "float", "boolean", "string", "bytes"]);

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function bytesOf(v: unknown): number[] | undefined {
  if (v instanceof Uint8Array) return Array.from(v);
  // After JSON transport a Uint8Array arrives as {"0": 1, "1": 2, …}.
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const vals = Object.values(v as Record<string, unknown>);
    if (vals.every((x) => typeof x === "number")) return vals as number[];
  }
  if (Array.isArray(v) && v.every((x) => typeof x === "number")) return v as number[];
  return undefined;
}

/** The value as text: JS-literal-like, -0 kept (a float that arrives as null — JSON's NaN and ±Infinity, from a host that posted plain JSON — says so). */
export function valueText(type: string, v: unknown): string {
  if (type === "bytes") {
    const b = bytesOf(v);
    if (b === undefined) return "bytes";
    return clip(`[${b.join(", ")}]`, MAX_TEXT);
  }
  if (typeof v === "string") return clip(JSON.stringify(v), MAX_TEXT);
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "boolean") return String(v);
  if (v === null && type === "float") return "NaN or ±Infinity";
  return clip(String(v), MAX_TEXT);
}

/** What fits in a cell: about five characters. */
export function shortText(type: string, v: unknown): string {
  switch (type) {
    case "boolean":
      return v === true ? "T" : "F";
    case "bytes": {
      const b = bytesOf(v);
      return b === undefined ? "b" : `b${b.length}`;
    }
    case "string":
      return typeof v === "string" ? clip(JSON.stringify(v), 6) : '"…"';
    default: {
      if (typeof v !== "number") return v === null ? "NaN" : "?";
      if (Object.is(v, -0)) return "-0";
      const s = String(v);
      if (s.length <= 5) return s;
      // Big magnitudes: mantissa and exponent, so the scale is still visible.
      return v.toExponential(0).replace("e+", "e");
    }
  }
}

function bound(x: unknown, inf: string): string {
  return typeof x === "number" && Number.isFinite(x) ? String(x) : inf;
}

/** The constraints in a few words (they may arrive flattened by JSON, so every field is checked). */
export function constraintsText(type: string, c: Readonly<Record<string, unknown>>): string {
  switch (type) {
    case "integer":
      return `${bound(c.min, "−∞")} … ${bound(c.max, "∞")}, shrinks towards ${bound(c.shrinkTowards, "0")}`;
    case "float":
      return `${bound(c.min, "−∞")} … ${bound(c.max, "∞")}${c.allowNaN === true ? ", NaN allowed" : ""}`;
    case "boolean":
      return typeof c.p === "number" ? `p(true) = ${Math.round(c.p * 1000) / 1000}` : "boolean";
    case "string": {
      const n = typeof c.alphabetSize === "number" ? `${c.alphabetSize} characters` : "alphabet";
      return `size ${bound(c.minSize, "0")} … ${bound(c.maxSize === 2147483647 ? null : c.maxSize, "∞")}, ${n}`;
    }
    case "bytes":
      return `size ${bound(c.minSize, "0")} … ${bound(c.maxSize === 2147483647 ? null : c.maxSize, "∞")}`;
    default:
      return "";
  }
}

function safeIndex(i: unknown): number {
  if (typeof i !== "number" || Number.isNaN(i)) return 0;
  return Number.isFinite(i) ? Math.max(0, i) : Number.MAX_VALUE;
}

export function toCell(c: ChoiceInfo, pos: number, id: number): Cell {
  const type = (TYPES.has(c.type) ? c.type : "integer") as CellType;
  return {
    id,
    pos,
    type,
    short: shortText(type, c.value),
    text: valueText(type, c.value),
    index: safeIndex(c.index),
    forced: c.forced === true,
    constraints: constraintsText(type, (c.constraints ?? {}) as Record<string, unknown>),
  };
}

export function indexSum(choices: readonly ChoiceInfo[]): number {
  let s = 0;
  for (const c of choices) s += safeIndex(c.index);
  return Number.isFinite(s) ? s : Number.MAX_VALUE;
}

function toSpans(spans: readonly SpanInfo[] | undefined): Span[] {
  const out: Span[] = [];
  for (const s of spans ?? []) {
    if (s.discarded || s.depth > MAX_SPAN_DEPTH || s.start >= MAX_CELLS || s.end <= s.start) continue;
    out.push({ label: s.label, start: s.start, end: Math.min(s.end, MAX_CELLS), depth: s.depth });
  }
  return out;
}

/** A sequence with fresh cell ids from `firstId` (for the current test case and candidates: no transitions). */
export function toSequence(
  choices: readonly ChoiceInfo[],
  spans: readonly SpanInfo[] | undefined,
  firstId = 0,
): Sequence {
  const n = Math.min(choices.length, MAX_CELLS);
  const cells: Cell[] = new Array(n);
  for (let i = 0; i < n; i++) cells[i] = toCell(choices[i], i, firstId + i);
  return { cells, spans: toSpans(spans), length: choices.length, indexSum: indexSum(choices) };
}

function same(a: Cell, b: Cell): boolean {
  return a.type === b.type && a.index === b.index && a.text === b.text;
}

/**
 * Which ids the items of `next` carry over from `prev`, so a drawing can show what happened between them: the
 * common prefix and suffix keep their ids (and positions shift), so items deleted from the middle vanish; when
 * the differing middle has the same length in both, its items keep their ids too — the same items, changed in
 * place. Anything else gets a fresh id from `nextId`. Returns the next unused id. Shared by choice cells and
 * machine steps.
 */
export function carryIds<T>(
  prev: readonly T[],
  next: readonly T[],
  same: (a: T, b: T) => boolean,
  idOf: (t: T) => number,
  nextId: number,
): { ids: number[]; nextId: number } {
  let pre = 0;
  while (pre < prev.length && pre < next.length && same(prev[pre], next[pre])) pre++;
  let suf = 0;
  while (
    suf < prev.length - pre &&
    suf < next.length - pre &&
    same(prev[prev.length - 1 - suf], next[next.length - 1 - suf])
  )
    suf++;
  const inPlace = prev.length === next.length;
  let id = nextId;
  const ids = next.map((_, i): number => {
    if (i < pre) return idOf(prev[i]);
    if (i >= next.length - suf) return idOf(prev[prev.length - (next.length - i)]);
    if (inPlace) return idOf(prev[i]);
    return id++;
  });
  return { ids, nextId: id };
}

/** The next shrink target, its cell ids carried over from the previous one (carryIds). */
export function alignTarget(
  prev: Sequence | undefined,
  choices: readonly ChoiceInfo[],
  spans: readonly SpanInfo[] | undefined,
  nextId: number,
): { seq: Sequence; nextId: number } {
  const fresh = toSequence(choices, spans, 0);
  const carried = carryIds(prev?.cells ?? [], fresh.cells, same, (c) => c.id, nextId);
  const cells = fresh.cells.map((c, i): Cell => ({ ...c, id: carried.ids[i] }));
  return { seq: { ...fresh, cells }, nextId: carried.nextId };
}
