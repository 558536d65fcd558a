// The property driver under concurrency and with async bodies that never settle: each run sees only its own
// test case (event, note, assume, target, data.draw) however its awaits interleave with other runs', a call
// from a case that has ended is refused, and a hanging async body fails its case after `timeout` ms.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  assume,
  check,
  event,
  InvalidArgument,
  note,
  property,
  PropertyFailure,
  st,
  target,
} from "../../../src/engine/index.ts";
import type { EngineEvent, Property, Settings, RunStatistics } from "../../../src/engine/index.ts";
import { resolveSettings } from "../../../src/engine/property/runnerLayer.ts";
import { failureOf } from "../helpers.ts";

const QUIET: Settings = { database: null, deadline: null };

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The result event's statistics (for passing runs, where there is no PropertyFailure to read them from). */
async function statisticsOf(prop: Property, settings: Settings): Promise<RunStatistics> {
  let stats: RunStatistics | undefined;
  const tap = (e: EngineEvent) => {
    if (e.type === "result") stats = e.statistics;
  };
  await check(prop, { ...QUIET, ...settings, onEvent: tap });
  assert.ok(stats !== undefined);
  return stats;
}

/**
 * A property that labels everything it records with `name` and awaits between each step, so that several of
 * them running at once interleave at every await. It fails when its drawn values add up to `limit` or more.
 */
function labelled(name: string, limit: number): Property {
  return property(st.integers({ min: 0, max: 100 }), st.data(), async (n, data) => {
    event(name);
    await tick();
    note(`${name}:${n}`);
    await tick();
    const m = data.draw(st.integers({ min: 0, max: 100 }), name);
    await tick();
    assume(m !== 99);
    target(n, name);
    event(`${name}-after`);
    if (n + m >= limit) throw new Error(`${name} failed`);
  });
}

/** Every note, draw label and event in the failure's report belongs to `name`. */
function assertOwn(f: PropertyFailure, name: string): void {
  const notes = [...f.message.matchAll(/^ {2}note: (.*)$/gm)].map((m) => m[1]);
  assert.ok(notes.length > 0, f.message);
  for (const n of notes) assert.ok(n.startsWith(`${name}:`), `${name} reported someone else's note ${n}\n${f.message}`);
  const draws = [...f.message.matchAll(/^ {2}draw \d+ \((.*)\): /gm)].map((m) => m[1]);
  assert.deepEqual(draws, [name], f.message);
  assert.deepEqual(Object.keys(f.statistics.events).sort(), [name, `${name}-after`].sort());
  assert.match(f.message, new RegExp(`Error: ${name} failed`));
}

test(
  "concurrent async properties (Promise.all of check) each see only their own events, notes and draws",
  { timeout: 60_000 },
  async () => {
    const names = ["alpha", "beta", "gamma"];
    const failures = await Promise.all(
      names.map((name, i) => failureOf(() => check(labelled(name, 60 + i), { ...QUIET, seed: 7 + i }))),
    );
    failures.forEach((f, i) => {
      assertOwn(f, names[i]);
      // Shrunk to the boundary: the minimal sum is exactly the limit.
      const [n] = f.args as [number];
      const drawn = Number(/draw 1 \(.*\): (\d+)/.exec(f.message)?.[1]);
      assert.equal(n + drawn, 60 + i, f.message);
    });
  },
);

test(
  "plain functions returning promises (not async functions) are kept apart too, from their first case",
  { timeout: 60_000 },
  async () => {
    const plain = (name: string, limit: number) =>
      property(st.integers({ min: 0, max: 100 }), st.data(), (n, data) =>
        tick()
          .then(() => {
            event(name);
            note(`${name}:${n}`);
            return tick();
          })
          .then(() => {
            const m = data.draw(st.integers({ min: 0, max: 100 }), name);
            event(`${name}-after`);
            if (n + m >= limit) throw new Error(`${name} failed`);
          }),
      );
    const failures = await Promise.all([
      failureOf(() => check(plain("p", 40), QUIET)),
      failureOf(() => check(plain("q", 50), QUIET)),
    ]);
    assertOwn(failures[0], "p");
    assertOwn(failures[1], "q");
  },
);

test("concurrent passing async properties count only their own events", { timeout: 60_000 }, async () => {
  const body = (name: string) =>
    property(st.integers(), async () => {
      event(name);
      await sleep(0);
      event(`${name}-after`);
    });
  const [a, b] = await Promise.all([
    statisticsOf(body("a"), { maxExamples: 40, seed: 1 }),
    statisticsOf(body("b"), { maxExamples: 40, seed: 2 }),
  ]);
  assert.deepEqual(Object.keys(a.events).sort(), ["a", "a-after"]);
  assert.deepEqual(Object.keys(b.events).sort(), ["b", "b-after"]);
  assert.equal(a.events.a, a.examples);
  assert.equal(a.events["a-after"], a.examples);
  assert.equal(b.events["b-after"], b.examples);
});

test("the same property run twice at once: each run keeps its own cases", { timeout: 60_000 }, async () => {
  const prop = labelled("same", 50);
  const [x, y] = await Promise.all([failureOf(() => prop()), failureOf(() => check(prop, { seed: 3 }))]);
  assertOwn(x, "same");
  assertOwn(y, "same");
});

test("assume() after an await rejects its own case only", { timeout: 60_000 }, async () => {
  // "picky" rejects every case after its first await; "plain" must still count all its cases valid.
  const picky = property(st.integers(), async () => {
    await tick();
    assume(false);
  });
  const plain = property(st.integers(), async () => {
    await tick();
    event("plain");
  });
  const [gaveUp, stats] = await Promise.allSettled([check(picky, QUIET), statisticsOf(plain, { maxExamples: 30 })]);
  assert.equal(gaveUp.status, "rejected");
  assert.equal(stats.status, "fulfilled");
  assert.equal(stats.value.valid, 30);
  assert.equal(stats.value.invalid, 0);
});

test(
  "a synchronous property run inside an async body's continuation records into its own cases, then the outer case resumes",
  { timeout: 60_000 },
  async () => {
    let innerEvents: Record<string, number> = {};
    const outer = property(st.integers({ min: 0, max: 10 }), async (n) => {
      await tick();
      note(`outer-before:${n}`);
      check(
        property(st.booleans(), () => event("inner")),
        {
          ...QUIET,
          onEvent: (e) => {
            if (e.type === "result") innerEvents = e.statistics.events;
          },
        },
      );
      await tick();
      note(`outer-after:${n}`);
      event("outer");
      if (n >= 3) throw new Error("outer failed");
    });
    const f = await failureOf(() => check(outer, QUIET));
    assert.deepEqual(f.args, [3]);
    assert.match(f.message, /note: outer-before:3\n {2}note: outer-after:3\n/);
    assert.deepEqual(Object.keys(f.statistics.events), ["outer"]);
    assert.deepEqual(Object.keys(innerEvents), ["inner"]);
  },
);

test(
  "an async property awaited inside another async property keeps both cases apart",
  { timeout: 60_000 },
  async () => {
    const outer = property(st.integers({ min: 0, max: 10 }), async (n) => {
      event("outer");
      const inner = await statisticsOf(
        property(st.integers(), async () => {
          await tick();
          event("inner");
        }),
        { maxExamples: 5 },
      );
      assert.deepEqual(Object.keys(inner.events), ["inner"]);
      note(`outer:${n}`);
      if (n >= 2) throw new Error("outer failed");
    });
    const f = await failureOf(() => check(outer, QUIET));
    assert.deepEqual(f.args, [2]);
    assert.deepEqual(Object.keys(f.statistics.events), ["outer"]);
    assert.match(f.message, /note: outer:2/);
  },
);

test(
  "a call from a case that has ended (a leaked timer or an un-awaited promise) throws instead of landing in another run",
  { timeout: 60_000 },
  async () => {
    const late: unknown[] = [];
    // A synchronous property leaks a timer that calls note() and data.draw() later, while another property runs.
    check(
      property(st.data(), (data) => {
        setTimeout(() => {
          for (const call of [() => note("leaked"), () => event("leaked"), () => data.draw(st.integers())]) {
            try {
              call();
              late.push("no error");
            } catch (e) {
              late.push(e);
            }
          }
        }, 5);
      }),
      { ...QUIET, maxExamples: 1 },
    );
    const f = await failureOf(() =>
      check(
        property(st.integers({ min: 0, max: 10 }), async (n) => {
          note(`mine:${n}`);
          await sleep(2);
          if (n >= 1) throw new Error("mine");
        }),
        QUIET,
      ),
    );
    await sleep(20);
    assert.equal(late.length, 3);
    for (const e of late)
      assert.ok(
        e instanceof Error && /after its test case ended|outside a running property/.test(e.message),
        String(e),
      );
    assert.doesNotMatch(f.message, /leaked/);
    assert.equal(f.statistics.events.leaked, undefined);
  },
);

test("assume, note, event, target and data.draw outside any property still throw naming the call", () => {
  assert.throws(() => note("x"), /note\(\) was called outside a running property/);
  assert.throws(() => event("x"), /event\(\) was called outside a running property/);
  assert.throws(() => assume(true), /assume\(\) was called outside a running property/);
  assert.throws(() => target(1), /target\(\) was called outside a running property/);
});

// ------------------------------------------------------------------------------------------ timeouts

function timerCount(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
}

test(
  "an async body that never settles fails its case after `timeout` ms, and shrinking goes on to the minimal hang",
  { timeout: 60_000 },
  async () => {
    const timersBefore = timerCount();
    const f = await failureOf(() =>
      check(
        property(st.integers({ min: 0, max: 1000 }), (n) => (n >= 10 ? new Promise(() => {}) : Promise.resolve())),
        { ...QUIET, timeout: 20, seed: 5 },
      ),
    );
    assert.deepEqual(f.args, [10]);
    assert.ok(f.cause instanceof Error);
    assert.equal(f.cause.name, "TimeoutError");
    assert.match(f.cause.message, /did not settle within 20 ms.*timeout/);
    assert.match(f.message, /TimeoutError: .*timeout/);
    assert.ok(f.statistics.shrinkCalls > 0);
    // No timer of the run is left behind to keep the process alive.
    assert.equal(timerCount(), timersBefore);
  },
);

test(
  "a thenable that never calls back times out too; a rejection after the timeout is not an unhandled rejection",
  { timeout: 60_000 },
  async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      const f = await failureOf(() =>
        check(
          property(st.booleans(), (b) => (b ? { then() {} } : sleep(60).then(() => Promise.reject(new Error("late"))))),
          { ...QUIET, timeout: 15 },
        ),
      );
      assert.equal((f.cause as Error).name, "TimeoutError");
      await sleep(100);
      assert.deepEqual(unhandled, []);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  },
);

test("a timed-out body that calls note() later is refused (its case has ended)", { timeout: 60_000 }, async () => {
  let late: unknown = "not called";
  await failureOf(() =>
    check(
      property(st.integers(), async () => {
        await sleep(40);
        try {
          note("too late");
          late = "no error";
        } catch (e) {
          late = e;
        }
      }),
      { ...QUIET, timeout: 10, maxExamples: 1, phases: ["generate"] },
    ),
  );
  await sleep(80);
  // The run has ended by then (so the storage may be off): either way the call is refused, never recorded.
  assert.ok(
    late instanceof Error && /after its test case ended|outside a running property/.test(late.message),
    String(late),
  );
});

test("a timed-out body resuming while its run goes on cannot record into any case", { timeout: 60_000 }, async () => {
  const late: unknown[] = [];
  const f = await failureOf(() =>
    check(
      property(st.integers({ min: 0, max: 1000 }), async (n) => {
        if (n < 10) return sleep(1);
        await sleep(25);
        try {
          note("late");
          event("late");
          late.push("no error");
        } catch (e) {
          late.push(e);
        }
      }),
      { ...QUIET, timeout: 10, seed: 2 },
    ),
  );
  await sleep(60);
  assert.deepEqual(f.args, [10]);
  assert.ok(late.length > 0);
  for (const e of late)
    assert.ok(e instanceof Error && /after its test case ended|outside a running property/.test(e.message), String(e));
  assert.ok(
    late.some((e) => /after its test case ended/.test((e as Error).message)),
    "some late calls came while the run went on",
  );
  assert.doesNotMatch(f.message, /note: late/);
  assert.equal(f.statistics.events.late, undefined);
});

test(
  "the timeout uses the real timers: fake timers installed by the test neither fire it nor freeze it",
  { timeout: 60_000 },
  async () => {
    // What jest/vitest/sinon fake timers do: replace the global functions and node:timers' exports. This fake
    // fires every callback at once, as a test advancing its fake clock would.
    const nodeTimers = (await import("node:timers")) as unknown as { default: Record<string, unknown> };
    const saved = { global: globalThis.setTimeout, module: nodeTimers.default.setTimeout };
    const fired: number[] = [];
    const fake = ((fn: () => void, ms: number) => {
      fired.push(ms);
      queueMicrotask(fn);
      return 0;
    }) as unknown as typeof setTimeout;
    const realWait = saved.global;
    globalThis.setTimeout = fake;
    nodeTimers.default.setTimeout = fake;
    try {
      await check(
        property(st.integers(), async () => {
          await new Promise((resolve) => realWait(resolve, 2));
        }),
        { ...QUIET, timeout: 500, maxExamples: 3 },
      );
    } finally {
      globalThis.setTimeout = saved.global;
      nodeTimers.default.setTimeout = saved.module;
    }
    assert.deepEqual(fired, []);
  },
);

test("timeout: the default is tied to the deadline (10 × deadline, 60 s without one); explicit values and null are kept", () => {
  assert.equal(resolveSettings("k", { database: null }).timeout, 2000);
  assert.equal(resolveSettings("k", { database: null, deadline: 50 }).timeout, 500);
  assert.equal(resolveSettings("k", { database: null, deadline: null }).timeout, 60_000);
  assert.equal(resolveSettings("k", { database: null, timeout: 123 }).timeout, 123);
  assert.equal(resolveSettings("k", { database: null, timeout: null }).timeout, null);
});

test("timeout is validated like the other settings", () => {
  for (const bad of [0, -1, Number.NaN, "100", Infinity]) {
    assert.throws(
      () => property(st.integers(), () => {}, { timeout: bad as number }),
      (e: unknown) =>
        e instanceof InvalidArgument &&
        /property: timeout must be a positive number of milliseconds or null/.test(e.message),
    );
    assert.throws(
      () =>
        check(
          property(st.integers(), () => {}),
          { timeout: bad as number },
        ),
      (e: unknown) => e instanceof InvalidArgument && /^check: timeout/.test(e.message),
    );
  }
  check(
    property(st.integers(), () => {}),
    { ...QUIET, timeout: null, maxExamples: 2 },
  );
});

test("a synchronous body is never timed out (the deadline covers it)", () => {
  check(
    property(st.integers(), () => {
      const end = performance.now() + 3;
      while (performance.now() < end);
    }),
    { ...QUIET, timeout: 1, maxExamples: 3 },
  );
});

test(
  "a call leaked by an ended plain-function case cannot land in the next run's plain-function case (no store on either)",
  { timeout: 60_000 },
  async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const late: unknown[] = [];
    // Run A: a plain function returning a promise; it leaves a continuation behind that records later.
    await check(
      property(st.integers(), (n) => {
        void gate.then(() => {
          for (const call of [
            () => note(`leaked ${n}`),
            () => event("leaked"),
            () => target(1, "leaked"),
            () => assume(false),
          ]) {
            try {
              call();
              late.push("no error");
            } catch (e) {
              late.push(e);
            }
          }
        });
        return Promise.resolve();
      }),
      { ...QUIET, maxExamples: 1, phases: ["generate"] },
    );
    // Run B: also a plain function returning a promise; A's continuation runs while B's case is pending.
    const f = await failureOf(() =>
      check(
        property(
          st.integers(),
          () =>
            new Promise<void>((_, reject) => {
              release();
              setImmediate(() => reject(new Error("B's own failure")));
            }),
        ),
        { ...QUIET, examples: [[1]] },
      ),
    );
    assert.ok(late.length >= 4);
    for (const e of late)
      assert.ok(
        e instanceof Error &&
          !(e instanceof InvalidArgument) &&
          /after its test case ended|outside a running property/.test(e.message),
        String(e),
      );
    assert.doesNotMatch(f.message, /leaked/);
    assert.equal(f.statistics.events.leaked, undefined);
  },
);
