/**
 * What a run prints at `verbosity: "verbose"` or `"debug"` (settings.ts): an observer of the run (observer.ts)
 * that writes to the console. Verbose: one statistics line per property, passing or failing — examples, invalid,
 * duplicates, distinct inputs (the arguments as the body saw them, printed), events with their shares, time per
 * phase — and each accepted shrink; debug: every test case as well.
 *
 * Nothing here may end the run: a value that cannot be printed is described as such.
 */
import type { Phase } from "../events/events.ts";
import type { RunObserver } from "../events/observer.ts";
import { formatArgs } from "../print/printer.ts";
import { now as clock } from "../util/clock.ts";
import { reasonOf } from "./failureMessage.ts";

/** Distinct inputs are counted up to this many (a set of printed arguments); beyond, "at least". */
const DISTINCT_LIMIT = 100_000;

function printed(args: readonly unknown[]): string {
  try {
    return formatArgs(args);
  } catch (e) {
    return `(arguments that cannot be printed: ${reasonOf(e)})`;
  }
}

/** "a 40%, b 60%" for event counts over `of` test cases. */
function shares(events: Readonly<Record<string, number>>, of: number): string {
  const names = Object.keys(events);
  if (names.length === 0) return "";
  const pct = (n: number) => (of === 0 ? "0%" : `${((100 * n) / of).toFixed(n * 100 < of ? 1 : 0)}%`);
  return `; events: ${names.map((name) => `${JSON.stringify(name)} ${pct(events[name]!)}`).join(", ")}`;
}

/**
 * The printing observer for `level` ("verbose" or "debug"); `label` names the property in each line (its file
 * and test). `write` is console.log unless a test gives another.
 */
export function printingObserver(
  level: "verbose" | "debug",
  label: string,
  write: (line: string) => void = (line) => console.log(line),
): RunObserver {
  const distinct = new Set<string>();
  let phase: Phase | undefined;
  let phaseStart = 0;
  const phaseTimes = new Map<Phase, number>();
  const endPhase = (at: number) => {
    if (phase !== undefined) phaseTimes.set(phase, (phaseTimes.get(phase) ?? 0) + (at - phaseStart));
  };
  const say = (text: string) => {
    try {
      write(`Shrinkscope ${label}: ${text}`);
    } catch {
      // a console that throws must not end the run
    }
  };
  return {
    event(e) {
      if (e.type === "phase") {
        const at = clock();
        endPhase(at);
        phase = e.phase;
        phaseStart = at;
        if (level === "debug") say(`phase ${e.phase}`);
        return;
      }
      if (e.type !== "result") return;
      endPhase(clock());
      phase = undefined;
      const s = e.statistics;
      const generated = s.examples;
      const verdict =
        e.outcome === "failed"
          ? `failed after ${generated} test case${generated === 1 ? "" : "s"}, then ${s.shrinkCalls} shrink call${s.shrinkCalls === 1 ? "" : "s"} (${s.shrinks} accepted); of the test cases`
          : e.outcome === "gave-up"
            ? `gave up after ${generated} test cases`
            : `${e.outcome} ${s.valid} examples`;
      const many = distinct.size >= DISTINCT_LIMIT ? "at least " : "";
      const times = [...phaseTimes].map(([p, ms]) => `${p} ${ms.toFixed(ms < 10 ? 1 : 0)} ms`).join(", ");
      say(
        `${verdict}: ${s.valid} valid, ${s.invalid} invalid, ${s.overrun} overrun, ${s.duplicates} duplicates; ${many}${distinct.size} distinct inputs${shares(s.events, generated)}; time: ${times} (${s.timeMs} ms in all)`,
      );
    },
    concluded(c) {
      const args = c.args;
      const shown = c.presentation;
      const text =
        args !== undefined
          ? printed(args)
          : shown?.kind === "steps"
            ? shown.steps.map((s) => s.code).join(" ")
            : undefined;
      const example = c.origin !== "shrink" && c.origin !== "final" && c.origin !== "explain";
      if (text !== undefined && example && c.status === "valid" && distinct.size < DISTINCT_LIMIT) distinct.add(text);
      if (level === "debug") say(`${c.origin} case ${c.id}: ${c.status}: ${text ?? "(not shown)"}`);
    },
    candidate() {},
    target(t) {
      const shown = t.presentation;
      const text =
        shown === undefined
          ? `${t.nodes.length} choices`
          : shown.kind === "arguments"
            ? shown.text
            : shown.steps.map((s) => s.code).join(" ");
      say(`shrank (${t.pass}) to ${text}`);
    },
  };
}
