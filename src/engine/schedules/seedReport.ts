/**
 * The report of explore()'s first failing seed: what failed and how, how to replay it (the seed, or the exact
 * schedule), how its schedule differs from FIFO, the trace's tail and hash, and the minimal run's timeline for
 * the panel — as data (SeedReport) and as the text a person reads (render).
 */
import type { ScheduleInfo } from "../events/events.ts";
import { errorLine } from "../print/errorLine.ts";
import type { Failure, TraceEvent } from "./task.ts";
import type { World } from "./world.ts";

/** The first failing seed: what failed, how to replay it, and the schedule that makes it fail. */
export interface SeedReport {
  readonly seed: number;
  /** The seeds that passed before it. */
  readonly passedBefore: readonly number[];
  readonly error: unknown;
  /** Same workload and seed (or schedule) → same hash, every run and every machine. */
  readonly traceHash: string;
  /** The last events of the (shrunk) run: virtual time, task, what happened. */
  readonly trace: readonly TraceEvent[];
  /** The shrunk decisions, one per point where more than one task was ready; 0 is the FIFO choice. */
  readonly schedule: readonly number[];
  /** The decisions the seed itself made, before shrinking. */
  readonly seedSchedule: readonly number[];
  readonly strategy: "random" | "pct";
  /** The run's other failures, each a different error: a task that also rejected, the budget it then exceeded. */
  readonly alsoFailed: readonly Failure[];
  /** The seed did not fail the same way when run again: the report may not replay, and was not shrunk. */
  readonly flaky: boolean;
  /** Real asynchronous work the tasks started, which the seed does not control: one line per task and kind. */
  readonly outside: readonly string[];
  /** The minimal run for a timeline: every event (up to a cap), the tasks, and the decisions that differ from FIFO. */
  readonly timeline: Omit<ScheduleInfo, "seed" | "passedBefore" | "strategy" | "traceHash" | "schedule" | "text">;
  /** The text a person reads: seed, seeds passed, how to replay, how the schedule differs from FIFO, the trace tail. */
  render(): string;
}

/**
 * The report of a failing seed. `first`: the seed's own run; `final`: the run the report shows (the minimal
 * schedule replayed, else the seed's run); `rerun`: what the same seed did when run again, when that was not the
 * same failure (a flaky workload); `outside`: the real asynchronous work its tasks started when run again.
 */
export function seedReport(
  seed: number,
  passedBefore: readonly number[],
  strategy: "random" | "pct",
  first: World,
  final: { readonly world: World; readonly error: unknown },
  rerun: string | undefined,
  outside: readonly string[] = [],
): SeedReport {
  const shrunkFrom = first.decisions.filter((d) => d !== 0).length;
  const w = final.world;
  const timeline = {
    events: w.events,
    truncated: w.dropped,
    tasks: w.tasks.map((t) => t.label),
    deviations: w.choices.flatMap((c, i) =>
      w.decisions[i] !== 0 ? [{ decision: i + 1, t: c.t, chosen: c.chosen, fifo: c.fifo }] : [],
    ),
  };
  const base = {
    seed,
    passedBefore,
    error: final.error,
    alsoFailed: w.also,
    flaky: rerun !== undefined,
    outside,
    traceHash: w.traceHash,
    trace: w.tail,
    schedule: w.decisions,
    seedSchedule: first.decisions,
    strategy,
    timeline,
  };
  const text = render(base, w, shrunkFrom, rerun);
  // Printed by util.inspect (assert.equal(report, null, …), console.log) as its text, not as every event.
  return { ...base, render: () => text, [Symbol.for("nodejs.util.inspect.custom")]: () => text };
}

/** The text a person reads (see seedReport for `rerun`). */
function render(r: Omit<SeedReport, "render">, world: World, shrunkFrom: number, rerun: string | undefined): string {
  const lines: string[] = [];
  const passed = r.passedBefore.length;
  lines.push(
    `explore: failed at seed ${r.seed} (${passed} seed${passed === 1 ? "" : "s"} passed first${passed > 0 && passed <= 10 ? `: ${r.passedBefore.join(", ")}` : ""}; strategy ${r.strategy})`,
  );
  lines.push(`error: ${errorLine(r.error)}`);
  // The rest of the message: an assertion's actual and expected values, its diff.
  for (const line of messageRest(r.error)) lines.push(`  ${line}`);
  for (const f of r.alsoFailed) lines.push(`also: ${f.by === "" ? "" : `${f.by}: `}${errorLine(f.error)}`);
  const waits = world.outsideWaits;
  const waited = r.outside.length > 0 || waits.length > 0;
  if (rerun !== undefined)
    lines.push(
      `flaky: seed ${r.seed} failed, then ${rerun} when run again with the same seed: ${waited ? "the workload waits on real asynchronous work the simulation does not control (listed below)" : "the workload depends on something the simulation does not control (Math.random, the real clock or I/O, state kept between runs)"}, so replaying it may pass; its schedule was not shrunk`,
    );
  if (waited) {
    lines.push(
      "outside the simulation: real asynchronous work the seed does not order (replace it with sim primitives or virtual timers; for React's act(), which waits on a real setImmediate, give explore or simTest the act option):",
    );
    for (const w of waits.slice(0, 5))
      lines.push(
        `  at t=${w.t} ms nothing was scheduled and main had not finished; real work moved the run on after ${w.turns} real turn${w.turns === 1 ? "" : "s"}`,
      );
    if (waits.length > 5) lines.push(`  and ${waits.length - 5} more such waits`);
    for (const o of r.outside) lines.push(`  ${o}`);
  }
  lines.push(
    `replay: explore(workload, { seeds: [${r.seed}]${r.strategy === "pct" ? ', strategy: "pct"' : ""} }), or this exact schedule: explore(workload, { seeds: [${r.seed}], schedule: [${r.schedule.join(", ")}] })`,
  );
  const deviations = world.choices.filter((_, i) => (r.schedule[i] ?? 0) !== 0);
  const n = r.schedule.length;
  lines.push(
    `schedule: ${n} decision${n === 1 ? "" : "s"} (points where more than one task was ready), ${deviations.length === 0 ? "all FIFO: the plain first-come order fails" : `${deviations.length} differ${deviations.length === 1 ? "s" : ""} from FIFO`}${shrunkFrom > deviations.length ? ` (shrunk from ${shrunkFrom} deviations)` : ""}`,
  );
  world.choices.forEach((c, i) => {
    if ((r.schedule[i] ?? 0) !== 0) lines.push(`  decision ${i + 1} at t=${c.t} ms: ran ${c.chosen} before ${c.fifo}`);
  });
  lines.push(`trace hash: ${r.traceHash} (${world.traceLength} events; the last ${r.trace.length}):`);
  for (const e of r.trace) lines.push(`  [t=${e.t}] ${e.task.padEnd(10)} ${e.what}`);
  return lines.join("\n");
}

/** The lines of an Error's message after its first (at most MESSAGE_LINES), never throwing. */
function messageRest(error: unknown): string[] {
  try {
    if (!(error instanceof Error)) return [];
    const rest = String(error.message).split("\n").slice(1);
    while (rest.length > 0 && rest[rest.length - 1]!.trim() === "") rest.pop();
    return rest.length > MESSAGE_LINES
      ? [...rest.slice(0, MESSAGE_LINES), `… (${rest.length - MESSAGE_LINES} more lines)`]
      : rest;
  } catch {
    return [];
  }
}

/** The most lines of an error's message a report repeats after its first. */
const MESSAGE_LINES = 40;
