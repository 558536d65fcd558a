/**
 * The runner's parts that need no child process: the outbox's batching and shedding, jest's `expect` as the shim serves it,
 * and the registry's hook order. (runner.test.ts runs the whole runner against fixture workspaces.)
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  RUNNER_HOOK,
  type EngineEvent,
  type RunnerMessage,
  type TestCaseEvent,
  type TreeEvent,
} from "../../src/shared/protocol.ts";
import type { RunObserver } from "../../src/engine/events/observer.ts";
import { check, property, st } from "../../src/engine/index.ts";
import { expect } from "expect";
import { DEFAULT_OUTBOX, Outbox, type OutboxOptions } from "../../src/runner/outbox.ts";
import { Registry, type UserFn } from "../../src/runner/registry.ts";
import { contextFactory, frameworkApi } from "../../src/runner/shim.ts";
import { describeThrown, errorText, failureReport } from "../../src/runner/failureReport.ts";

const testCase = (id: number, choices = 0): TestCaseEvent => ({
  type: "test-case",
  id,
  origin: "generate",
  choices: Array.from({ length: choices }, () => ({
    type: "integer",
    value: 0,
    index: 0,
    forced: false,
    constraints: {},
  })),
  spans: [],
  status: "valid",
  durationMs: 0,
  events: [],
});
const tree = (newNodes: number, totalNodes: number): TreeEvent => ({
  type: "tree",
  newNodes,
  totalNodes,
  exhaustedDepths: [],
  rootExhausted: false,
});

/**
 * An outbox whose clock never triggers (flushMs huge), that sends the first case with the rest and has no time
 * budget (what it keeps does not depend on the machine's speed), recording messages; `congested` is the test's
 * to set.
 */
function outbox(options: Partial<OutboxOptions> = {}) {
  const sent: RunnerMessage[] = [];
  const state = { congested: false };
  const box = new Outbox(
    { send: (m) => void sent.push(m), congested: () => state.congested },
    { ...DEFAULT_OUTBOX, flushMs: 1e9, firstCaseAtOnce: false, costShare: 1, ...options },
  );
  return { box, sent, state };
}

const events = (sent: RunnerMessage[]) => sent.flatMap((m) => (m.type === "events" ? m.events : []));
const dropped = (sent: RunnerMessage[]) => sent.reduce((n, m) => n + (m.type === "events" ? m.dropped : 0), 0);

test("outbox: a batch keeps its first test cases and a sample of the rest, counts the others, and never drops other events", () => {
  const { box, sent } = outbox({ keepHead: 3, keepTail: 2 });
  box.event({ type: "phase", phase: "generate" });
  for (let i = 0; i < 10; i++) {
    box.event(testCase(i));
    box.event(tree(1, i + 1));
  }
  box.event({ type: "phase", phase: "shrink" });
  box.flush();
  assert.equal(sent.length, 1);
  const out = events(sent);
  // Beyond the head (0, 1, 2): 3 and 4 fill the sample; then every second case (4, 6), then every fourth (6).
  assert.deepEqual(
    out.filter((e) => e.type === "test-case").map((e) => (e as TestCaseEvent).id),
    [0, 1, 2, 6],
  );
  assert.equal(dropped(sent), 6);
  assert.deepEqual(out.filter((e) => e.type === "phase").length, 2);
  // The tree events around the dropped cases merge, totals intact.
  const trees = out.filter((e): e is TreeEvent => e.type === "tree");
  assert.equal(
    trees.reduce((n, t) => n + t.newNodes, 0),
    10,
  );
  assert.equal(trees[trees.length - 1].totalNodes, 10);
  assert.deepEqual(
    out.map((e) => e.type),
    ["phase", "test-case", "tree", "test-case", "tree", "test-case", "tree", "test-case", "tree", "phase"],
  );
});

test("outbox: the sample beyond the head stays within keepTail, spread over the batch up to its newest cases", () => {
  const { box, sent } = outbox({ keepHead: 10, keepTail: 8 });
  for (let i = 0; i < 10_000; i++) box.event(testCase(i));
  box.flush();
  const ids = events(sent).map((e) => (e as TestCaseEvent).id);
  const sample = ids.slice(10);
  assert.ok(sample.length >= 4 && sample.length <= 8, `${sample.length} sampled`);
  assert.ok(sample.at(-1)! >= 10_000 - 10_000 / 4, `the newest sampled is ${sample.at(-1)}`);
  assert.equal(ids.length + dropped(sent), 10_000);
});

test("outbox: a batch sent inline (as a synchronous engine loop triggers it) ends on its newest case, sampled or not", () => {
  const { box, sent } = outbox({ keepHead: 2, keepTail: 2, flushMs: 5 });
  let id = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 100) box.event(testCase(id++));
  const batches = sent
    .map((m) =>
      m.type === "events" ? m.events.filter((e): e is TestCaseEvent => e.type === "test-case").map((e) => e.id) : [],
    )
    .filter((ids) => ids.length > 0);
  assert.ok(batches.length >= 4, `${batches.length} batches`);
  for (let k = 0; k + 1 < batches.length; k++)
    assert.equal(batches[k].at(-1)! + 1, batches[k + 1][0], `batch ${k} ends on its newest case`);
  box.flush();
  assert.equal(events(sent).length + dropped(sent), id, "every case sent or counted");
});

test("outbox: back-pressure (the channel's backlog) shrinks the head; large batches split into small messages", () => {
  const { box, sent, state } = outbox({ keepHead: 100, keepTail: 1, pressureHead: 2, maxMessageWeight: 25 });
  for (let i = 0; i < 10; i++) box.event(testCase(i, 10)); // weight 11 each
  box.flush();
  assert.equal(dropped(sent), 0);
  assert.equal(sent.length, 5, "two cases (weight 22) per message");
  state.congested = true;
  for (let i = 10; i < 20; i++) box.event(testCase(i, 10));
  box.flush();
  assert.equal(dropped(sent), 7, "head 2 + tail 1 kept of 10");
  state.congested = false;
  for (let i = 20; i < 30; i++) box.event(testCase(i, 10));
  box.flush();
  assert.equal(dropped(sent), 7, "no pressure, nothing more dropped");
  assert.deepEqual(
    events(sent)
      .map((e) => (e as TestCaseEvent).id)
      .slice(10, 13),
    [10, 11, 19],
  );
});

/** Busy for `ms` (a sink or a property that takes time). */
function spin(ms: number): void {
  const t0 = performance.now();
  while (performance.now() - t0 < ms);
}

test("outbox: its own work stays near costShare of the time — a fast producer's batches shrink, a slow one's are whole", () => {
  // A sink that costs 1 ms a message, fed as fast as a loop can: kept whole, the batches would take most of the time.
  let sinkMs = 0;
  const sent: RunnerMessage[] = [];
  const box = new Outbox(
    { send: (m) => (sent.push(m), (sinkMs += 1), spin(1)), congested: () => false },
    { ...DEFAULT_OUTBOX, flushMs: 5, maxMessageWeight: 20, firstCaseAtOnce: false, costShare: 0.05 },
  );
  let id = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 600) box.event(testCase(id++));
  box.flush();
  const share = sinkMs / (performance.now() - t0);
  assert.ok(box.scale < 1, `the head and sample shrank (scale ${box.scale})`);
  assert.ok(share < 0.25, `the sink took ${(100 * share).toFixed(0)}% of the time (budget 5%)`);
  assert.equal(events(sent).length + dropped(sent), id, "every case sent or counted");

  // A property whose cases take 2 ms each: the outbox's work is small beside them, and nothing is dropped.
  const slow = outbox({ flushMs: 5, costShare: 0.05 });
  for (let i = 0; i < 60; i++) {
    spin(2);
    slow.box.event(testCase(i));
  }
  slow.box.flush();
  assert.equal(slow.box.scale, 1);
  assert.equal(dropped(slow.sent), 0);
  assert.equal(events(slow.sent).length, 60);

  // A short run, as fast as it goes: the outbox's work stays under the budget's free 25 ms, so every case is sent.
  const short = outbox({ flushMs: 5, costShare: 0.05 });
  for (let i = 0; i < 100; i++) short.box.event(testCase(i));
  short.box.flush();
  assert.equal(dropped(short.sent), 0);
  assert.equal(events(short.sent).length, 100);
});

test("outbox: the run's first test case is sent at once, the next ones when their batch is due", () => {
  const { box, sent } = outbox({ firstCaseAtOnce: true });
  box.event({ type: "phase", phase: "generate" });
  assert.equal(sent.length, 0, "a phase waits for its batch");
  box.event(testCase(0));
  assert.deepEqual(
    events(sent).map((e) => e.type),
    ["phase", "test-case"],
    "the first case, and what came before it, at once",
  );
  for (let i = 1; i < 5; i++) box.event(testCase(i));
  assert.equal(sent.length, 1, "later cases wait for the batch");
  box.flush();
  assert.deepEqual(
    events(sent)
      .filter((e) => e.type === "test-case")
      .map((e) => (e as TestCaseEvent).id),
    [0, 1, 2, 3, 4],
  );
});

test("outbox: flushes inline by size and by age (a synchronous property never lets a timer fire)", () => {
  const bySize = outbox({ maxBatch: 4 });
  for (let i = 0; i < 9; i++) bySize.box.event(testCase(i));
  assert.equal(bySize.sent.length, 2);
  const byAge = outbox({ flushMs: 10 });
  const t0 = performance.now();
  while (performance.now() - t0 < 100) byAge.box.event(tree(0, 0)); // busy, like an engine loop
  assert.ok(byAge.sent.length >= 4, `flushed ${byAge.sent.length} times in 100 ms`);
});

test("outbox: output and events stay in order; consecutive writes to a stream coalesce; the excess is counted", () => {
  const { box, sent } = outbox({ maxLogChars: 10 });
  box.log("stdout", "a");
  box.log("stdout", "b");
  box.event(testCase(0));
  box.log("stderr", "c");
  box.log("stderr", "0123456789");
  box.flush();
  assert.deepEqual(
    sent.map((m) => (m.type === "log" ? `${m.stream}:${m.text}` : m.type)),
    ["stdout:ab", "events", "stderr:c", "stderr:[shrinkscope: 10 characters of output were not forwarded]\n"],
  );
});

/** Run a failing list property with the runner's hook installed (as the bundled runner does), its tap being `hook`. */
function runHooked(hook: { onEvent: (e: EngineEvent) => void; observer?: RunObserver }): void {
  const key = Symbol.for(RUNNER_HOOK);
  (globalThis as Record<symbol, unknown>)[key] = { settings: hook };
  try {
    assert.throws(() =>
      check(
        property(st.lists(st.integers({ min: 0, max: 1000 })), (xs) => {
          if (xs.length > 3 && xs[0]! > 500) throw new Error("long, and starts high");
        }),
        { seed: 7, database: null, maxExamples: 3000 },
      ),
    );
  } finally {
    delete (globalThis as Record<symbol, unknown>)[key];
  }
}

/** Messages without what differs between two runs of the same seed: times. */
const timeless = (sent: RunnerMessage[]) =>
  JSON.parse(JSON.stringify(sent, (k, v) => (k === "durationMs" || k === "timeMs" ? 0 : v)));

test("outbox as the engine's observer: it projects only the test cases it keeps, and sends exactly what the event tap path sends", () => {
  const options = { keepHead: 20, keepTail: 5, maxBatch: 400 };
  const viaEvents = outbox(options);
  runHooked({ onEvent: (e) => viaEvents.box.event(e) });
  viaEvents.box.flush();

  const viaObserver = outbox(options);
  let cases = 0;
  let projected = 0;
  const inner = viaObserver.box.observer();
  const counting: RunObserver = {
    ...inner,
    concluded(c) {
      cases++;
      inner.concluded({
        ...c,
        status: c.status,
        choiceCount: c.choiceCount,
        spanCount: c.spanCount,
        event: () => (projected++, c.event()),
        keep: (reuse) => c.keep(reuse),
      });
    },
  };
  runHooked({ onEvent: () => assert.fail("an engine that knows observers uses the observer"), observer: counting });
  viaObserver.box.flush();

  assert.deepEqual(timeless(viaObserver.sent), timeless(viaEvents.sent));
  assert.ok(dropped(viaObserver.sent) > cases / 2, `most cases dropped (${dropped(viaObserver.sent)} of ${cases})`);
  assert.ok(
    projected < cases - dropped(viaObserver.sent) + 1,
    `only kept cases projected at once (${projected} of ${cases})`,
  );
});

const throwsAt = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (e: Error) => {
    assert.equal(e.constructor.name, "JestAssertionError");
    assert.match(e.message, pattern);
    // The first frame is the caller's line, not the matcher's: the engine tells failures apart by it.
    assert.match(
      e.stack!.split("\n").find((l) => l.includes(" at "))!,
      /parts\.test\.ts/,
    );
    return true;
  });

test("expect (jest's, in the bundled runner): matchers, .not, expect.extend, messages, and stacks that start at the caller", async () => {
  expect.extend({
    toBeEven(received: number) {
      return { pass: received % 2 === 0, message: () => `expected ${received} to be even` };
    },
  });
  (expect(4) as unknown as { toBeEven(): void }).toBeEven();
  throwsAt(() => (expect(3) as unknown as { toBeEven(): void }).toBeEven(), /expected 3 to be even/);
  expect({ a: 1, b: undefined }).toEqual({ a: 1 });
  expect([1, { x: [2] }]).toStrictEqual([1, { x: [2] }]);
  expect({ a: 1, b: { c: 2 } }).toMatchObject({ b: { c: 2 } });
  expect(0.1 + 0.2).toBeCloseTo(0.3);
  expect("hello").toMatch(/ell/);
  expect([1, 2, 3]).toContain(2);
  expect({ a: { b: 1 } }).toHaveProperty("a.b", 1);
  expect(() => {
    throw new TypeError("bad input");
  }).toThrow(TypeError);
  expect({ when: new Date(0) }).toEqual({ when: expect.any(Date) });
  expect(3).not.toBe(4);
  await expect(Promise.resolve(5)).resolves.toBe(5);
  await expect(Promise.reject(new Error("no"))).rejects.toThrow("no");
  throwsAt(() => expect(1).toBe(2), /expect\(received\)\.toBe\(expected\).*\n\nExpected: 2\nReceived: 1/);
  throwsAt(() => expect([1]).not.toContain(1), /not\.toContain/);
  throwsAt(() => expect(() => {}).toThrow(), /Received function did not throw/);
  await assert.rejects(
    async () => expect(Promise.resolve(1)).rejects.toBe(1),
    /Received promise resolved instead of rejected/,
  );
});

test("registry: beforeAll/beforeEach outermost first, after hooks innermost first, even after a failure", async () => {
  const log: string[] = [];
  const r = new Registry(contextFactory);
  const hook =
    (name: string): UserFn =>
    () =>
      void log.push(name);
  r.hook("beforeAll", hook("root beforeAll"), "jest");
  r.describe(
    "a",
    () => {
      r.hook("beforeAll", hook("a beforeAll"), "jest");
      r.hook("beforeEach", hook("a beforeEach"), "jest");
      r.hook("afterEach", hook("a afterEach"), "jest");
      r.hook("afterAll", hook("a afterAll"), "jest");
      r.describe(
        "b",
        () => {
          r.hook("beforeEach", (done: () => void) => void (log.push("b beforeEach"), setTimeout(done, 1)), "mocha");
          r.test(
            "fails",
            () => {
              log.push("test");
              throw new Error("nope");
            },
            "jest",
            new Error(),
          );
          r.test("other", hook("other"), "jest", new Error());
        },
        "jest",
      );
    },
    "jest",
  );
  r.hook("afterAll", hook("root afterAll"), "jest");
  assert.deepEqual(r.paths(), [
    ["a", "b", "fails"],
    ["a", "b", "other"],
  ]);
  const entry = r.find(["a", "b", "fails"]);
  assert.ok(entry);
  const failure = await r.run(entry);
  assert.equal((failure?.error as Error).message, "nope");
  assert.equal(failure?.where, "test");
  assert.deepEqual(log, [
    "root beforeAll",
    "a beforeAll",
    "a beforeEach",
    "b beforeEach",
    "test",
    "a afterEach",
    "a afterAll",
    "root afterAll",
  ]);
  assert.equal(r.find(["b", "fails"]), undefined);
});

test("registry: a failing beforeEach skips the test and is reported as the hook's", async () => {
  const r = new Registry(contextFactory);
  let ran = false;
  r.hook(
    "beforeEach",
    () => {
      throw new Error("setup broke");
    },
    "vitest",
  );
  r.test("t", () => void (ran = true), "vitest", new Error());
  const failure = await r.run(r.find(["t"])!);
  assert.equal(failure?.where, "beforeEach");
  assert.equal(ran, false);
});

test("shim: each framework's argument shapes, modifiers and .each titles register by name", () => {
  const r = new Registry(contextFactory);
  const vitest = frameworkApi(r, "vitest") as Record<string, (...a: unknown[]) => unknown> & {
    test: { each: (t: unknown[]) => (...a: unknown[]) => void; skip: (...a: unknown[]) => void };
  };
  const nodeTest = frameworkApi(r, "node-test") as unknown as ((...a: unknown[]) => void) &
    Record<string, (...a: unknown[]) => void>;
  vitest.describe("math", () => {
    vitest.test.each([
      [1, 2],
      [3, 4],
    ])("adds %i + %i", () => {});
    vitest.test.each([{ a: "x" }])("object $a", () => {});
    vitest.test.skip("skipped but runnable", () => {});
    vitest.it("with options", { timeout: 10 }, () => {});
  });
  nodeTest(function namedByFunction() {});
  nodeTest.describe("suite", { concurrency: 1 }, () => nodeTest.it("inner", () => {}));
  assert.deepEqual(r.paths(), [
    ["math", "adds 1 + 2"],
    ["math", "adds 3 + 4"],
    ["math", "object 'x'"],
    ["math", "skipped but runnable"],
    ["math", "with options"],
    ["namedByFunction"],
    ["suite", "inner"],
  ]);
});

test("report: a failure whose cause (or thrown value) cannot be read is still reported, with its repro and seed", () => {
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  class Hostile extends Error {
    override get name(): string {
      throw new Error("name getter");
    }
    override get stack(): string {
      throw new Error("stack getter");
    }
  }
  const entry = {
    name: "t",
    fn: undefined,
    suite: new Registry(contextFactory).root,
    flavor: "vitest",
    declaredAt: new Error("declared"),
  } as const;
  for (const cause of [revoked, new Hostile("boom"), undefined]) {
    const failure = Object.assign(new Error("Property failed"), {
      name: "PropertyFailure",
      repro: "1, 2",
      seed: 7,
      cause,
    });
    const report = failureReport({ error: failure, where: "test" }, entry, "/w/t.test.ts", "/w", "/runner");
    assert.equal(report.repro, "1, 2");
    assert.equal(report.seed, 7);
    assert.equal(typeof report.error.message, "string");
  }
  const plain = failureReport({ error: revoked, where: "test" }, entry, "/w/t.test.ts", "/w", "/runner");
  assert.equal(plain.error.name, "thrown value");
  assert.match(errorText(new Hostile("boom")), /Error: boom/);
  assert.equal(describeThrown(new Hostile("x")).name, "Error");
});
