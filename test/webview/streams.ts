/**
 * Real runs of the engine, recorded as the panel receives them: a run-started message, the engine's events
 * batched by the runner's own Outbox (src/runner/outbox.ts, so batch sizes and dropping are the runner's),
 * and a run-finished message with the failure report the runner would send. Shared by the model tests and
 * record.ts, which saves them as fixtures for the browser tests and the benchmark.
 */
import {
  check,
  machine,
  property,
  simTest,
  st,
  event,
  assume,
  target,
  PropertyFailure,
  ScheduleFailure,
} from "../../src/engine/index.ts";
import type { EngineEvent, PanelMessage, RunnerMessage } from "../../src/shared/protocol.ts";
import { DEFAULT_OUTBOX, Outbox } from "../../src/runner/outbox.ts";
import type { Property } from "../../src/engine/index.ts";
import { LruMachine, lruSpec } from "../engine/stateful/lru-machine.ts";
import { reloadWhileReading, replicate } from "./schedule-workloads.ts";

export interface Recording {
  readonly name: string;
  readonly messages: PanelMessage[];
  readonly events: EngineEvent[];
}

/** The messages of one run as the panel receives them: the engine's events through the runner's Outbox, then the result. */
function recorder(name: string, title: string) {
  const events: EngineEvent[] = [];
  const messages: PanelMessage[] = [
    { type: "run-started", title, file: "/workspace/test/example.test.ts", testPath: ["examples", title] },
  ];
  const outbox = new Outbox(
    {
      send: (m: RunnerMessage) =>
        m.type === "events" && messages.push({ type: "events", events: m.events, dropped: m.dropped }),
      congested: () => false,
    },
    { ...DEFAULT_OUTBOX, costShare: 1 },
  ); // (no time budget: the same stream on any machine)
  const onEvent = (e: EngineEvent) => (events.push(e), outbox.event(e));
  const finish = (thrown: unknown): Recording => {
    if (thrown !== undefined && !(thrown instanceof PropertyFailure)) throw thrown;
    outbox.flush();
    if (thrown === undefined) {
      messages.push({ type: "run-finished", outcome: "passed" });
      return { name, messages, events };
    }
    const cause = thrown.cause as Error;
    messages.push({
      type: "run-finished",
      outcome: "failed",
      failure: {
        message: thrown.message,
        repro: thrown.repro,
        seed: thrown.seed,
        error: { name: cause.name, message: cause.message },
        location: { file: "/workspace/test/example.test.ts", line: 12, column: 7 },
        flaky: false,
        presentation: thrown.presentation,
        // As the runner copies it (src/runner/failureReport.ts): a simTest failure's schedule.
        ...(cause instanceof ScheduleFailure ? { schedule: cause.info } : {}),
      },
    });
    return { name, messages, events };
  };
  return { onEvent, finish };
}

function recordRun(name: string, title: string, prop: Property, settings: Record<string, unknown>): Recording {
  const r = recorder(name, title);
  try {
    check(prop, { database: null, deadline: null, ...settings, onEvent: r.onEvent });
  } catch (e) {
    return r.finish(e);
  }
  return r.finish(undefined);
}

/** The same for an async property (a simTest body). */
async function recordAsyncRun(
  name: string,
  title: string,
  prop: Property,
  settings: Record<string, unknown>,
): Promise<Recording> {
  const r = recorder(name, title);
  try {
    await check(prop, { database: null, ...settings, onEvent: r.onEvent });
  } catch (e) {
    return r.finish(e);
  }
  return r.finish(undefined);
}

/** A list whose first two elements are out of order, plus a string: a short shrink through many passes. */
export function sortedPair(): Recording {
  return recordRun(
    "sorted-pair",
    "first two in order",
    property(st.lists(st.integers()), st.text(), (xs, s) => {
      event(xs.length > 3 ? "long list" : "short list");
      if (xs.length >= 2 && xs[0] > xs[1] && s.length > 0) throw new Error("unsorted");
    }),
    { seed: 7 },
  );
}

/** A string property whose minimal example is a long string: its cells are cut in the row, read in full when selected. */
export function longString(): Recording {
  return recordRun(
    "long-string",
    "a slug stays short",
    property(st.text(), (s) => {
      const slug = s.trim().replace(/\s+/g, "-");
      if (slug.length > 28) throw new Error(`slug of ${slug.length} characters`);
    }),
    { seed: 5 },
  );
}

/** Every primitive type, nested lists, event labels and assume(): a long shrink with many spans. */
export function mixed(): Recording {
  const item = st.records({
    id: st.integers({ min: 0, max: 1000 }),
    weight: st.floats({ min: 0, max: 100 }),
    tag: st.text({ maxSize: 4 }),
    flag: st.booleans(),
    raw: st.bytes({ maxSize: 3 }),
  });
  return recordRun(
    "mixed",
    "total weight stays small",
    property(st.lists(item), st.integers(), (items, k) => {
      assume(k !== 13);
      event(items.length === 0 ? "empty" : items.some((i) => i.flag) ? "has flag" : "no flag");
      const total = items.reduce((a, i) => a + i.weight, 0);
      if (total > 150 && items.length >= 3) throw new RangeError(`total weight ${total} too large`);
    }),
    { seed: 11, maxExamples: 300 },
  );
}

/** target(): a sum over 1850 that only the target phase reaches (two labels), then shrinking. */
export function targeted(): Recording {
  return recordRun(
    "targeted",
    "the sum stays at most 1850",
    property(st.lists(st.integers({ min: 0, max: 100 }), { maxSize: 20 }), (xs) => {
      const sum = xs.reduce((a, b) => a + b, 0);
      target(sum, "sum");
      target(xs.length, "length");
      if (sum > 1850) throw new Error(`sum ${sum} is over 1850`);
    }),
    { seed: 3, maxExamples: 1000 },
  );
}

/** A property that holds: generation statistics only (invalid cases from filter, labels, sizes). */
export function passing(): Recording {
  return recordRun(
    "passing",
    "reverse twice is identity",
    property(st.lists(st.integers().filter((n) => n % 7 !== 0)), (xs) => {
      event(`length ${Math.min(xs.length, 5)}${xs.length >= 5 ? "+" : ""}`);
      const r = xs.slice().reverse().reverse();
      if (r.length !== xs.length) throw new Error("lost elements");
    }),
    { seed: 3, maxExamples: 400 },
  );
}

/**
 * A state machine: the LRU cache of test/engine/stateful/lru-machine.ts. With this seed generation runs several
 * sequences before one fails, and about forty shrink targets take it from a dozen steps down to four.
 */
export function lruMachine(): Recording {
  return recordRun("lru-machine", "the cache keeps the same keys as its model", machine(LruMachine, lruSpec), {
    seed: 5,
  });
}

/**
 * Schedule exploration (simTest): a config reload racing its readers. The property shrinks the workload to two
 * readers 10 ms apart, and the failing seed's schedule shrinks to one decision that differs from FIFO (the
 * reload starts before the first reader), with events at t = 0, 10 and 20 ms.
 */
export function scheduleReload(): Promise<Recording> {
  return recordAsyncRun(
    "schedule-reload",
    "readers never see a missing config",
    property(
      st.integers({ min: 2, max: 4 }),
      st.sampledFrom([10, 25, 100]),
      simTest({ seeds: 16 }, (readers: number, latency: number) => reloadWhileReading(readers, latency)),
    ),
    { seed: 1 },
  );
}

/** Seed 001's replicated log: two writers lose an append even in FIFO order, every event at t = 0. */
export function scheduleReplicate(): Promise<Recording> {
  return recordAsyncRun(
    "schedule-replicate",
    "the log keeps every append",
    property(
      st.integers({ min: 1, max: 4 }),
      st.lists(st.text({ alphabet: "abc", minSize: 1, maxSize: 3 }), { minSize: 1, maxSize: 3 }),
      st.sampledFrom([0, 1, 10]),
      simTest({ seeds: 8 }, (writers: number, payloads: string[], delay: number) =>
        replicate(writers, payloads, delay),
      ),
    ),
    { seed: 3 },
  );
}

export const ALL: readonly (() => Recording | Promise<Recording>)[] = [
  sortedPair,
  mixed,
  passing,
  lruMachine,
  scheduleReload,
  scheduleReplicate,
  longString,
];

/** The events of one engine run, whether the property passes or fails (a failure is expected, not thrown). */
export function recordEvents(run: (onEvent: (e: EngineEvent) => void) => void): EngineEvent[] {
  const events: EngineEvent[] = [];
  try {
    run((e) => events.push(e));
  } catch (e) {
    if (!(e instanceof PropertyFailure)) throw e;
  }
  return events;
}
