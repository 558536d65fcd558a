/**
 * What a schedule failure's regression test needs from the file (pure text work on the tokens of `source/read/`,
 * like source/read/machineCall.ts for machines): the options that replay the failing schedule, what `explore` is called
 * here — or the edit that imports it — and the assertion the file can use.
 *
 * The replay is `explore(workload, { seeds: [seed], schedule: [...] })`: the schedule pins every decision (FIFO
 * after its last entry, so trailing FIFO decisions are left out) and the seed pins `sim.random()`. The
 * simTest's other options stay when they are written out (the step and time budgets decide whether a run that
 * never finishes fails); the exploring ones (seeds, strategy, depth, shrink) mean nothing beside a schedule.
 */
import type { ScheduleInfo } from "../shared/protocol.ts";
import type { TextInsertion } from "./regression.ts";
import type { SourceText } from "./source/read/index.ts";
import { isOurModule } from "./source/read/index.ts";

/** The part of a failure's schedule a replay needs. */
export type Replay = Pick<ScheduleInfo, "seed" | "schedule">;

const EXPLORING = new Set(["seeds", "schedule", "strategy", "depth", "shrink"]);

/** The replay's options, from the simTest's own (tokens first..last), or undefined when the schedule is not one. */
export function replayOptions(t: SourceText, [first, last]: readonly [number, number], replay: Replay): string | undefined {
  if (!Number.isSafeInteger(replay.seed) || !replay.schedule.every((d) => Number.isSafeInteger(d) && d >= 0)) return undefined;
  let end = replay.schedule.length;
  while (end > 0 && replay.schedule[end - 1] === 0) end--;
  const pinned = `seeds: [${replay.seed}], schedule: [${replay.schedule.slice(0, end).join(", ")}]`;
  if (t.is(first, "{") && t.close[first] === last) {
    const kept = t
      .splitArguments(first, last)
      .filter(([f, l]) => {
        const key = t.ident(f) ?? t.string(f);
        return key === undefined || !EXPLORING.has(key) || !(f === l || t.is(f + 1, ":") || t.is(f + 1, "("));
      })
      .map(([f, l]) => t.text(f, l));
    return `{ ${[...kept, pinned].join(", ")} }`;
  }
  const text = t.text(first, last);
  return first === last && t.ident(first) !== undefined ? `{ ...${text}, ${pinned} }` : `{ ...(${text}), ${pinned} }`;
}

/**
 * How the test calls explore: the name it is imported as, through a namespace import of ours, or `explore`
 * added to the `{ … }` import that brings in `simTest` (else any of ours from "shrinkscope"). Undefined when
 * none of these works (a name `explore` already means something else, or no import to add it to).
 */
export function exploreReference(t: SourceText, simTestLocal: string | undefined, insertAt: number): { name: string; also?: TextInsertion } | undefined {
  const ours = t.imports.filter((b) => isOurModule(b.specifier));
  const imported = ours.find((b) => b.imported === "explore");
  if (imported !== undefined) return { name: imported.local };
  const namespace = ours.find((b) => b.imported === "*" || b.imported === "default");
  if (namespace !== undefined) return { name: `${namespace.local}.explore` };
  if (t.visibleAt("explore", insertAt)) return undefined;
  const list = ours.find((b) => b.braces !== undefined && b.local === simTestLocal) ?? ours.find((b) => b.braces !== undefined && (b.specifier === "shrinkscope" || b.specifier.startsWith("shrinkscope/")));
  if (list?.braces === undefined) return undefined;
  return { name: "explore", also: addToList(t, list.braces[0], list.braces[1], "explore") };
}

/** `name` added as the last entry of the `{ … }` list open..close, in the list's own layout (one line, or one entry a line). */
function addToList(t: SourceText, open: number, close: number, name: string): TextInsertion {
  const last = close - 1;
  if (last === open) return { offset: t.tokens[open]!.end, text: ` ${name} ` };
  const comma = t.is(last, ",");
  const src = t.src;
  const multiLine = /[\n\r]/.test(src.slice(t.tokens[last]!.end, t.tokens[close]!.start));
  if (!multiLine) return { offset: t.tokens[last]!.end, text: comma ? ` ${name},` : `, ${name}` };
  const entry = comma ? last - 1 : last;
  const lineStart = src.lastIndexOf("\n", t.tokens[entry]!.start - 1) + 1;
  const indent = /^[ \t]*/.exec(src.slice(lineStart))![0];
  const eol = src.includes("\r\n") ? "\r\n" : "\n";
  return { offset: t.tokens[last]!.end, text: `${comma ? "" : ","}${eol}${indent}${name}${comma ? "," : ""}` };
}

/**
 * The statement that fails when the replay found a failure, with the report's text as its message: through the
 * file's `assert` (node's or chai's) when it has one in scope, else a throw. Not `assert.equal(report, null, …)`:
 * node prints the report object's diff after the message, every event of its timeline included.
 */
export function noFailure(t: SourceText, report: string, insertAt: number): string {
  return `if (${report} !== null) ${t.visibleAt("assert", insertAt) ? "assert.fail" : "throw new Error"}(${report}.render());`;
}
