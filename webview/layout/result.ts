/**
 * Layout of the result (pure): the run's header line, the minimal example as highlighted TypeScript tokens,
 * the error and where it was thrown, and the session's run history. Tokens keep every character of the
 * repro (joined, they are the repro exactly): what Copy copies is what is shown.
 */
import type { HistoryEntry, PanelState } from "../model.ts";

/** The engine's mark of a free argument (FREE_COMMENT in src/engine/events/events.ts; the webview imports no engine code). */
const FREE_COMMENT = "// or any other generated value";

export type TokenKind = "number" | "string" | "keyword" | "punct" | "ident" | "space" | "comment";

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

const TOKEN =
  /(\/\/[^\n]*)|(\s+)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(-?(?:0[xob][0-9a-f_]+|\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?n?|Infinity|NaN))|(\b(?:true|false|null|undefined|new|Number|Uint8Array|Object|Symbol|Math|BigInt)\b)|([A-Za-z_$][\w$]*)|(.)/gis;

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  for (const m of src.matchAll(TOKEN)) {
    const kind: TokenKind = m[1]
      ? "comment"
      : m[2]
        ? "space"
        : m[3]
          ? "string"
          : m[4]
            ? "number"
            : m[5]
              ? "keyword"
              : m[6]
                ? "ident"
                : "punct";
    const prev = out[out.length - 1];
    // Merge runs of punctuation: fewer DOM nodes, same text.
    if (prev !== undefined && kind === "punct" && prev.kind === "punct")
      out[out.length - 1] = { kind, text: prev.text + m[0] };
    else out.push({ kind, text: m[0] });
  }
  return out;
}

export interface ResultLayout {
  readonly state: "none" | "running" | "passed" | "failed" | "error";
  readonly headline: string;
  readonly repro: readonly Token[] | undefined;
  readonly reproText: string | undefined;
  readonly error: string | undefined;
  readonly location:
    { readonly label: string; readonly file: string; readonly line: number; readonly column: number } | undefined;
  readonly flaky: boolean;
  /** What the example is: a property's "arguments", or a machine's "steps". */
  readonly noun: "arguments" | "steps";
  readonly buttons: boolean;
  /** The failure is the database's saved one, replayed: what to say (when it was saved, if known), with a run without the replay offered. */
  readonly replayed: string | undefined;
  readonly history: readonly (HistoryEntry & { readonly text: string; readonly current: boolean })[];
}

function basename(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

function time(ms: number | undefined): string {
  if (ms === undefined) return "";
  return ms < 10000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The arguments one per line with the free ones commented, when the explain phase marked some (the host's
 * data is checked: anything malformed shows the plain repro).
 */
function explainedText(presentation: unknown): string | undefined {
  const args = (presentation as { kind?: unknown; args?: unknown } | undefined)?.args;
  if ((presentation as { kind?: unknown }).kind !== "arguments" || !Array.isArray(args) || args.length === 0)
    return undefined;
  const ok = args.every(
    (a) =>
      typeof a === "object" &&
      a !== null &&
      typeof (a as { text?: unknown }).text === "string" &&
      typeof (a as { free?: unknown }).free === "boolean",
  );
  if (!ok) return undefined;
  const list = args as { text: string; free: boolean }[];
  return list
    .map((a, i) => `${a.text.replace(/\n/g, " ")}${i < list.length - 1 ? "," : ""}${a.free ? ` ${FREE_COMMENT}` : ""}`)
    .join("\n");
}

/** A run's reason split into its first paragraph (a sentence) and the rest (e.g. the test runner's output). */
function reasonParts(reason: string | undefined): [string | undefined, string | undefined] {
  if (reason === undefined) return [undefined, undefined];
  const cut = reason.indexOf("\n\n");
  return cut < 0 ? [reason, undefined] : [reason.slice(0, cut), reason.slice(cut + 2)];
}

export function layoutResult(s: PanelState): ResultLayout {
  const r = s.run;
  const f = r.failure;
  // The presentation is checked like every field from the host: anything but a machine's steps is arguments.
  const noun = (f?.presentation as { kind?: unknown } | undefined)?.kind === "steps" ? "steps" : "arguments";
  const state =
    r.status === "idle"
      ? "none"
      : r.status === "running"
        ? "running"
        : r.status === "passed"
          ? "passed"
          : f !== undefined
            ? "failed"
            : "error";
  const headline =
    state === "none"
      ? "No run yet."
      : state === "running"
        ? "Running…"
        : state === "passed"
          ? (r.message ?? "Passed.")
          : state === "failed"
            ? f?.flaky
              ? `Failed, but flaky: the same ${noun} did not always fail.`
              : "Falsified: the minimal failing example."
            : (reasonParts(r.reason)[0] ?? `Run ended: ${r.status}.`);
  const history = s.history
    .slice()
    .reverse()
    .map((h) => ({
      ...h,
      current: h.n === s.runs && r.status !== "running",
      text: `#${h.n} ${h.title} · ${h.outcome}${h.seed !== undefined ? ` · seed ${h.seed}` : ""} · ${h.cases} cases${h.shrinks > 0 ? ` · ${h.shrinks} shrinks` : ""}${h.timeMs !== undefined ? ` · ${time(h.timeMs)}` : ""}`,
    }));
  const shown = f === undefined ? undefined : (explainedText(f.presentation) ?? f.repro);
  return {
    state,
    headline,
    repro: shown === undefined ? undefined : tokenize(shown),
    reproText: shown,
    // An error's reason: its first paragraph is the headline, the rest (a runner's output) shown as text below.
    error: f ? `${f.error.name}: ${f.error.message}` : state === "error" ? reasonParts(r.reason)[1] : undefined,
    location: f?.location
      ? { label: `${basename(f.location.file)}:${f.location.line}:${f.location.column}`, ...f.location }
      : undefined,
    flaky: f?.flaky === true,
    noun,
    buttons: f !== undefined,
    replayed: r.replayed === true && state === "failed" ? replayedNote(r.savedAt) : undefined,
    history,
  };
}

/** Why a failed run generated nothing and shrank little: its failure was saved by an earlier run, on that day. */
function replayedNote(savedAt: number | undefined): string {
  const on = savedAt === undefined ? "" : ` (saved on ${localTime(new Date(savedAt))})`;
  return `Replayed from the example database${on}: the failure an earlier run saved fails again, so this run started from it instead of generating new cases.`;
}

/** 2026-11-02 09:30, in the viewer's time zone: unambiguous in every locale. */
function localTime(d: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
