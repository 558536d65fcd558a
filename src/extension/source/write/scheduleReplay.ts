/**
 * A regression test from a schedule failure: when the property's body is `simTest(options, workload)` and the
 * failure carries its schedule, the test replays both halves — the minimal arguments, and the failing seed's
 * shrunk schedule — `const report = await explore(() => replicate(2, ["a"], 0), { seeds: [4], schedule: [0, 2] });`
 * then `if (report !== null) assert.fail(report.render());`. An inline workload is inlined as argumentsTest.ts
 * does (its parameters declared before the call, the function itself without them as the workload); a named one
 * is called by name. `explore` is called by the name the file gives it, or added to the file's shrinkscope import.
 * Without a schedule, or an import to add it to, regressionTest.ts calls the simTest itself on the arguments
 * (it explores its seeds again).
 *
 * The replay is `explore(workload, { seeds: [seed], schedule: [...] })`: the schedule pins every decision (FIFO
 * after its last entry, so trailing FIFO decisions are left out) and the seed pins `sim.random()`. The
 * simTest's other options stay when they are written out (the step and time budgets decide whether a run that
 * never finishes fails); the exploring ones (seeds, strategy, depth, shrink) mean nothing beside a schedule.
 */
import type { PlainBody, PropertyBody, PropertyCall, SourceText } from "../read/index.ts";
import { isOurModule } from "../read/index.ts";
import type { Generated, Line, RegressionInput, Replay, TextInsertion } from "./generated.ts";
import { eolOf, indentAt } from "./generated.ts";
import { parameterDeclarations } from "./argumentsTest.ts";
import { linesOf, wrap } from "./lines.ts";

const EXPLORING = new Set(["seeds", "schedule", "strategy", "depth", "shrink"]);

/**
 * `const report = await explore(workload, { seeds: [seed], schedule: [...] });` and the assertion that it found
 * nothing, after the workload's parameters declared as the minimal arguments; undefined when the file does not
 * give what that needs (explore, or options that can be written).
 */
export function replayBody(
  input: RegressionInput,
  call: PropertyCall,
  sim: Extract<PropertyBody, { kind: "simTest" }>,
  replay: Replay,
  repro: string,
  ts: boolean,
): Generated | undefined {
  const t = call.t;
  if (sim.workload === undefined) return undefined;
  const options = replayOptions(t, sim.options, replay);
  const explore = exploreReference(t, t.ident(sim.range[0]), input.insertAt);
  if (options === undefined || explore === undefined) return undefined;
  const unit = indentAt(input.source, input.testLineStart).includes("\t") ? "\t" : "  ";
  const { declarations, fn } = workloadOf(t, sim.workload, repro, ts, unit);
  const report = declarations.some((l) => /^(const|let) \{?[^=]*\breport\b/.test(l.text)) ? "seedReport" : "report";
  const lines = [
    ...declarations,
    ...wrap(fn, `const ${report} = await ${explore.name}(`, `, ${options});`),
    { text: noFailure(t, report, input.insertAt), verbatim: false },
  ];
  return { lines, async: true, ...(explore.also ? { also: [explore.also] } : {}) };
}

/** The workload as a function of no arguments: its parameters declared before it (inlined), called by name, or called in place. */
function workloadOf(
  t: SourceText,
  w: PlainBody,
  repro: string,
  ts: boolean,
  unit: string,
): { declarations: Line[]; fn: Line[] } {
  if (w.kind === "named") return { declarations: [], fn: [{ text: `() => ${w.text}(${repro})`, verbatim: false }] };
  const fn = w.fn;
  const declarations = parameterDeclarations(t, fn, repro, ts);
  if (declarations === undefined)
    return {
      declarations: [],
      fn: wrap(linesOf(t, t.tokens[w.range[0]]!.start, t.tokens[w.range[1]]!.end, false), "() => (", `)(${repro})`),
    };
  const head = `${fn.async ? "async " : ""}() => `;
  if (fn.body.kind === "expression")
    return {
      declarations,
      fn: wrap(linesOf(t, t.tokens[fn.body.first]!.start, t.tokens[fn.body.last]!.end, false), head, ""),
    };
  const inside = linesOf(t, t.tokens[fn.body.open]!.end, t.tokens[fn.body.close]!.start, true).map((l) =>
    l.verbatim || l.text === "" ? l : { text: unit + l.text, verbatim: false },
  );
  return { declarations, fn: [{ text: `${head}{`, verbatim: false }, ...inside, { text: "}", verbatim: false }] };
}

/** The replay's options, from the simTest's own (tokens first..last), or undefined when the schedule is not one. */
function replayOptions(t: SourceText, [first, last]: readonly [number, number], replay: Replay): string | undefined {
  if (!Number.isSafeInteger(replay.seed) || !replay.schedule.every((d) => Number.isSafeInteger(d) && d >= 0))
    return undefined;
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
function exploreReference(
  t: SourceText,
  simTestLocal: string | undefined,
  insertAt: number,
): { name: string; also?: TextInsertion } | undefined {
  const ours = t.imports.filter((b) => isOurModule(b.specifier));
  const imported = ours.find((b) => b.imported === "explore");
  if (imported !== undefined) return { name: imported.local };
  const namespace = ours.find((b) => b.imported === "*" || b.imported === "default");
  if (namespace !== undefined) return { name: `${namespace.local}.explore` };
  if (t.visibleAt("explore", insertAt)) return undefined;
  const list =
    ours.find((b) => b.braces !== undefined && b.local === simTestLocal) ??
    ours.find(
      (b) => b.braces !== undefined && (b.specifier === "shrinkscope" || b.specifier.startsWith("shrinkscope/")),
    );
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
  const eol = eolOf(src);
  return { offset: t.tokens[last]!.end, text: `${comma ? "" : ","}${eol}${indent}${name}${comma ? "," : ""}` };
}

/**
 * The statement that fails when the replay found a failure, with the report's text as its message: through the
 * file's `assert` (node's or chai's) when it has one in scope, else a throw. Not `assert.equal(report, null, …)`:
 * node prints the report object's diff after the message, every event of its timeline included.
 */
function noFailure(t: SourceText, report: string, insertAt: number): string {
  return `if (${report} !== null) ${t.visibleAt("assert", insertAt) ? "assert.fail" : "throw new Error"}(${report}.render());`;
}
