// The schedule explorer (world.ts, sim.ts, explore.ts) attacked: bad options and arguments, workloads of every shape,
// faults that must be reported rather than hung on, explorations at the same time, nested and leaked, the
// determinism of the trace hash, and failures that must not be lost. Each test that names a bug failed before
// its fix.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { setTimeout as sleepFor } from "node:timers/promises";
import {
  assume,
  check,
  explore,
  InvalidArgument,
  property,
  ScheduleFailure,
  sim,
  simTest,
  st,
} from "../../../src/engine/index.ts";
import type { ExploreOptions, SeedReport } from "../../../src/engine/index.ts";
import { failureOf } from "../helpers.ts";

function reported(r: SeedReport | null): SeedReport {
  assert.ok(r !== null, "expected a failing seed");
  return r;
}

/** The report of a workload expected to fail at its first seed. */
async function failing(workload: () => unknown, options: ExploreOptions = { seeds: 1 }): Promise<SeedReport> {
  return reported(await explore(workload, options));
}

function messageOf(r: SeedReport): string {
  return r.error instanceof Error ? r.error.message : String(r.error);
}

function invalidArgument(pattern: RegExp): (e: unknown) => boolean {
  return (e: unknown) => {
    assert.ok(
      e instanceof InvalidArgument,
      `expected an InvalidArgument, got ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`,
    );
    assert.match(e.message, pattern);
    return true;
  };
}

// ------------------------------------------------------------------------------------------------ bad input

test("every bad option of explore and simTest is an InvalidArgument naming the call, before anything runs", async () => {
  const rows: [string, unknown, RegExp][] = [
    ["null", null, /options must be an object/],
    ["a number", 5, /options must be an object/],
    ["seeds NaN", { seeds: NaN }, /seeds must be a count/],
    ["seeds Infinity", { seeds: Infinity }, /seeds must be a count/],
    ["seeds negative", { seeds: -3 }, /seeds must be a count/],
    ["seeds fractional", { seeds: 1.5 }, /seeds must be a count/],
    ["seeds too many", { seeds: 2e6 }, /seeds must be a count from 1 to 1,000,000/],
    ["seeds a string", { seeds: "8" }, /seeds must be a count/],
    ["seeds [NaN]", { seeds: [NaN] }, /seeds must be a count or a non-empty list of integers/],
    ["seeds [1.5]", { seeds: [1.5] }, /non-empty list of integers/],
    // every() skips holes: these ran seed `undefined`, and the report said "failed at seed undefined".
    ["seeds with a hole", { seeds: [, 1] }, /non-empty list of integers/],
    ["seeds all holes", { seeds: new Array(3) }, /non-empty list of integers/],
    ["strategy misspelled", { seeds: 2, strategy: "PCT" }, /strategy must be "random" or "pct"/],
    ["depth 0", { seeds: 2, strategy: "pct", depth: 0 }, /depth must be an integer ≥ 1/],
    ["depth NaN", { seeds: 2, strategy: "pct", depth: NaN }, /depth must be an integer ≥ 1/],
    // Was a RangeError ("Invalid array length") from inside the PCT chooser, and simTest accepted it.
    [
      "depth huge",
      { seeds: 2, strategy: "pct", depth: 2 ** 40 },
      /depth must be an integer ≥ 1 and at most 1000, got number 1099511627776/,
    ],
    // Was silently ignored: the exploration ran the random strategy the user did not ask about.
    ["depth without pct", { seeds: 2, depth: 3 }, /depth applies only to strategy: "pct"/],
    ["schedule a string", { schedule: "0,1" }, /schedule must be a list of integers ≥ 0/],
    ["schedule negative", { schedule: [0, -1] }, /schedule must be a list of integers ≥ 0/],
    ["schedule with a hole", { schedule: [, 1] }, /schedule must be a list of integers ≥ 0/],
    ["shrink a string", { seeds: 2, shrink: "no" }, /shrink must be a boolean/],
    ["maxSteps 0", { seeds: 2, maxSteps: 0 }, /maxSteps must be an integer ≥ 1/],
    ["maxSteps Infinity", { seeds: 2, maxSteps: Infinity }, /maxSteps must be an integer ≥ 1/],
    ["maxTime NaN", { seeds: 2, maxTime: NaN }, /maxTime must be an integer ≥ 1/],
    ["maxTime a string", { seeds: 2, maxTime: "10" }, /maxTime must be an integer ≥ 1/],
    ["an unknown option", { seeds: 2, maxstep: 3 }, /unknown option "maxstep"/],
    ["act not a function", { seeds: 2, act: true }, /act must be a function \(React's act/],
  ];
  let ran = 0;
  const workload = async () => void ran++;
  for (const [name, options, pattern] of rows) {
    await assert.rejects(
      async () => explore(workload, options as ExploreOptions),
      invalidArgument(new RegExp(`^explore: .*${pattern.source}`)),
      `explore: ${name}`,
    );
    assert.throws(
      () => simTest(options as ExploreOptions, workload),
      invalidArgument(new RegExp(`^simTest: .*${pattern.source}`)),
      `simTest: ${name}`,
    );
  }
  assert.equal(ran, 0, "no workload ran");
});

test("simTest reads its options once: a seeds list changed afterwards does not change what each example explores", async () => {
  const seeds = [0, 1, 2];
  const seen: number[] = [];
  const body = simTest({ seeds }, async () => void seen.push(sim.now()));
  seeds.length = 0; // emptied after the call: the exploration keeps its own copy of the seeds
  await body();
  assert.equal(seen.length, 3);
});

test("the primitives' bad arguments fail the seed with an error naming the primitive", async () => {
  const rows: [string, () => unknown, RegExp][] = [
    ["sleep NaN", () => sim.sleep(NaN), /^sim\.sleep: ms must be a finite number ≥ 0, got NaN/],
    ["sleep -1", () => sim.sleep(-1), /^sim\.sleep: ms must be a finite number ≥ 0, got -1/],
    ["sleep Infinity", () => sim.sleep(Infinity), /^sim\.sleep: ms must be a finite number ≥ 0/],
    ["sleep a string", () => sim.sleep("5" as never), /^sim\.sleep: ms must be a finite number/],
    ["spawn a number", () => sim.spawn(5 as never), /^sim\.spawn: expects a function, got number/],
    // Was accepted: a timeout that never fires, reported as the run's virtual-time budget.
    [
      "timeout Infinity",
      () => sim.timeout(sim.sleep(1), Infinity),
      /^sim\.timeout: ms must be a finite number ≥ 0, got Infinity/,
    ],
    // Was "promise.then is not a function", naming nothing.
    [
      "timeout of a function",
      () => sim.timeout((() => sim.sleep(1)) as never, 5),
      /^sim\.timeout: expects a promise, got function/,
    ],
  ];
  for (const [name, misuse, pattern] of rows) {
    const r = await failing(async () => {
      await misuse();
    });
    assert.match(messageOf(r), pattern, name);
  }
});

test("workloads of every shape: sync, returning a non-promise, throwing synchronously, throwing undefined or a string", async () => {
  assert.equal(await explore(() => 42, { seeds: 3 }), null, "a synchronous workload that returns passes");
  assert.equal(await explore(() => ({ then: 5 }), { seeds: 3 }), null, "an object with a non-function then is a value");
  const sync = await failing(() => {
    throw new Error("sync throw");
  });
  assert.equal(messageOf(sync), "sync throw");
  // The trace says what happened: it does not end on "start".
  assert.match(sync.render(), /main +rejected: Error: sync throw/);
  for (const thrown of [undefined, "a string", 0, null]) {
    const r = await failing(async () => {
      await sim.sleep(1);
      throw thrown;
    });
    assert.equal(r.error, thrown);
    await assert.rejects(
      simTest({ seeds: 1 }, async () => {
        throw thrown;
      }),
      (e: unknown) => e instanceof ScheduleFailure && e.report.error === thrown,
    );
  }
});

test("a thrown Proxy whose every trap throws still comes back as a ScheduleFailure with its report", async () => {
  const hostile = new Proxy(
    {},
    {
      get() {
        throw new Error("get trap");
      },
      getPrototypeOf() {
        throw new Error("getPrototypeOf trap");
      },
      has() {
        throw new Error("has trap");
      },
    },
  );
  // The ScheduleFailure's constructor asked `error instanceof Error`, which threw: the property saw the
  // trap's error and the seed and schedule were lost.
  const run = simTest({ seeds: 2 }, async () => {
    await sim.sleep(1);
    throw hostile;
  });
  await assert.rejects(
    run,
    (e: unknown) =>
      e instanceof ScheduleFailure &&
      e.report.seed === 0 &&
      e.report.error === hostile &&
      /an error that cannot be printed/.test(e.message),
  );
});

test("virtual timers take their arguments as Node's timers do", async () => {
  const fired: string[] = [];
  const r = await explore(
    async () => {
      // Node converts the delay with `* 1` and runs anything outside [1, 2^31 − 1] after 1 ms: "100" waited
      // 0 ms here, and setTimeout(b, 0) ran before setTimeout(a, 1), which Node never does.
      setTimeout(() => fired.push(`"100" at ${sim.now()}`), "100" as never);
      setTimeout(() => fired.push(`a at ${sim.now()}`), 1);
      setTimeout(() => fired.push(`b at ${sim.now()}`), 0);
      setTimeout(() => fired.push(`NaN at ${sim.now()}`), NaN);
      setTimeout(() => fired.push(`Infinity at ${sim.now()}`), Infinity);
      // Node's timers have distinct numeric ids, and clearTimeout takes the id: virtual timers need them too,
      // or clearing by id would clear nothing and the timer would fire anyway.
      const id = +setTimeout(() => fired.push("cleared by id"), 5);
      const other = +setTimeout(() => fired.push(`other at ${sim.now()}`), 5);
      assert.notEqual(id, other);
      clearTimeout(id);
      // A callback that is not a function is Node's TypeError at once (it was silently never called).
      assert.throws(
        () => setTimeout(undefined as never, 5),
        (e: unknown) => e instanceof TypeError && (e as { code?: string }).code === "ERR_INVALID_ARG_TYPE",
      );
      await sim.sleep(0.5);
      // Node's Date.now is whole milliseconds.
      assert.ok(Number.isInteger(Date.now()), `Date.now() = ${Date.now()}`);
      await sim.sleep(200);
    },
    // FIFO: timers due at the same instant run in the order they were made, as in Node (other seeds explore
    // the other orders of such ties).
    { schedule: [] },
  );
  assert.equal(r, null, r?.render());
  assert.deepEqual(fired, ["a at 1", "b at 1", "NaN at 1", "Infinity at 1", "other at 5", '"100" at 100']);
});

// ------------------------------------------------------------------------------------------------ faults

test("a deadlock among three tasks and three mutexes names each task and what it waits for", async () => {
  const r = await failing(async () => {
    const locks = [sim.mutex(), sim.mutex(), sim.mutex()];
    const grab = (i: number) =>
      sim.spawn(async () => {
        const first = await locks[i]!.acquire();
        await sim.sleep(1);
        await locks[(i + 1) % 3]!.acquire();
        first();
      }, `philosopher ${i}`);
    await Promise.all([grab(0), grab(1), grab(2)]);
  });
  assert.match(messageOf(r), /deadlock at t=1 ms/);
  for (const [task, lock] of [
    ["task 2 \\(philosopher 0\\)", 2],
    ["task 3 \\(philosopher 1\\)", 3],
    ["task 4 \\(philosopher 2\\)", 1],
  ]) {
    assert.match(messageOf(r), new RegExp(`${task} waits for mutex#${lock}`));
  }
});

test("waits the simulation cannot see end are reported as a deadlock that says so, never a hang or a pass", async () => {
  // It said "main waits for another task's promise", with no other task in the workload.
  const r = await failing(async () => {
    await sim.sleep(1);
    await new Promise(() => {});
  });
  assert.match(
    messageOf(r),
    /^deadlock at t=1 ms: every task is waiting and nothing is scheduled, also after 8 real turns of the event loop — main waits for a promise outside the simulation's primitives \(another task's result, real I\/O, setImmediate, or a promise never settled\)/,
  );
  // Real I/O is given a few real turns: it either moves the run on or ends as a deadlock that says so, never a hang.
  const io = await explore(
    async () => {
      await sim.sleep(1);
      await fs.promises.readFile(__filename);
    },
    { seeds: 1 },
  );
  if (io !== null) assert.match(messageOf(io), /^deadlock at t=1 ms: .*main waits for a promise outside/);
  let own: Promise<void> | undefined;
  const self = await failing(async () => {
    own = sim.spawn(async () => {
      await sim.sleep(1);
      await own;
    }, "selfish");
    await own;
  });
  assert.match(messageOf(self), /task 2 \(selfish\) waits for a promise/);
  const event = await failing(() => sim.event().wait());
  assert.match(messageOf(event), /main waits for event#1/);
  const channel = await failing(() => sim.channel().receive());
  assert.match(messageOf(channel), /main waits for channel#1/);
});

test("a deadlock among thousands of tasks names the first few and counts the rest", async () => {
  const r = await failing(async () => {
    const never = sim.event();
    await Promise.all(Array.from({ length: 5000 }, () => sim.spawn(() => never.wait())));
  });
  // The message listed all 5001 tasks: about 200 KB in one error.
  assert.ok(messageOf(r).length < 1000, `${messageOf(r).length} characters`);
  assert.match(
    messageOf(r),
    /main waits for a promise .*; task 2 waits for event#1; .*task 10 waits for event#1; and 4991 more waiting/,
  );
});

test("a mutex released twice does not let two tasks in", async () => {
  const r = await explore(
    async () => {
      const lock = sim.mutex();
      let inside = 0;
      const worker = async () => {
        const release = await lock.acquire();
        inside++;
        assert.equal(inside, 1, "two tasks inside the lock");
        await sim.sleep(1);
        inside--;
        release();
        release();
      };
      await Promise.all([1, 2, 3, 4].map(() => sim.spawn(worker)));
    },
    { seeds: 30 },
  );
  assert.equal(r, null, r?.render());
});

test("a setInterval never cleared ends at the step budget with an error saying the workload had returned and what kept running", async () => {
  const r = await failing(
    async () => {
      setInterval(() => {}, 10);
    },
    { seeds: 1, maxSteps: 1000 },
  );
  // It said only "did not finish within 1000 scheduling steps", though the workload had returned at t=0.
  assert.match(
    messageOf(r),
    /did not finish within 1000 scheduling steps .*: main returned at t=0 ms, but this was still scheduled: main's interval 10 ms \(a setInterval never cleared, or a task that never stops\?\)/,
  );
});

test("a workload that spawns ten thousand tasks runs to the end (a scheduling step does not scan every waiting task)", async () => {
  let done = 0;
  const r = await explore(
    async () => {
      await Promise.all(
        Array.from({ length: 10_000 }, (_, i) =>
          sim.spawn(async () => {
            await sim.sleep(i % 7);
            done++;
          }),
        ),
      );
    },
    { seeds: 1 },
  );
  assert.equal(r, null, r?.render());
  assert.equal(done, 10_000);
});

test("a failing schedule longer than the engine's choice budget is still shrunk to its one deviation", async () => {
  // Two tasks of 3000 steps each: one overtaking anywhere makes b finish first. The seed's schedule has
  // thousands of deviations; past 8192 choices the shrinker's replay overran, and the report kept them all.
  const work = async () => {
    const finished: string[] = [];
    const run = (name: string) =>
      sim.spawn(async () => {
        for (let i = 0; i < 3000; i++) await sim.sleep(0);
        finished.push(name);
      });
    await Promise.all([run("a"), run("b")]);
    assert.equal(finished[0], "a", "b finished first");
  };
  const r = await failing(work, { seeds: 4 });
  assert.ok(r.seedSchedule.filter((d) => d !== 0).length > 100);
  assert.equal(
    r.schedule.filter((d) => d !== 0).length,
    1,
    `${r.schedule.filter((d) => d !== 0).length} deviations left`,
  );
});

// ------------------------------------------------------------------------------------------------ leaks and concurrency

/** A workload whose failure depends on sim.random, timer ties and mutex handoffs. */
async function tangled(): Promise<void> {
  const log: string[] = [];
  const lock = sim.mutex();
  const go = async (id: string) => {
    for (let i = 0; i < 3; i++) {
      await lock.runExclusive(async () => {
        log.push(id);
        await sim.sleep(sim.random() < 0.5 ? 0 : 1);
      });
      setTimeout(() => log.push(`t${id}`), 1);
    }
  };
  await Promise.all(["a", "b", "c"].map((id) => sim.spawn(() => go(id))));
  assert.ok(!log.join("").startsWith("abc"), log.join(""));
}

test("determinism: same workload and seed give the same report, sequentially and with explorations running at once", async () => {
  const key = (r: SeedReport | null) => {
    const s = reported(r);
    return { seed: s.seed, hash: s.traceHash, schedule: s.schedule };
  };
  const alone = key(await explore(tangled, { seeds: 50 }));
  assert.deepEqual(key(await explore(tangled, { seeds: 50 })), alone);
  const together = await Promise.all([
    explore(tangled, { seeds: 50 }),
    explore(tangled, { seeds: 50 }),
    explore(tangled, { seeds: 50, strategy: "pct" }),
  ]);
  assert.deepEqual(key(together[0]), alone);
  assert.deepEqual(key(together[1]), alone);
});

test("the timer globals are the ones found before, after explorations that ran at once, failed or threw", async () => {
  const original = {
    setTimeout: globalThis.setTimeout,
    setInterval: globalThis.setInterval,
    clearTimeout: globalThis.clearTimeout,
    dateNow: Date.now,
  };
  const settled = await Promise.allSettled([
    explore(tangled, { seeds: 20 }),
    explore(async () => sim.sleep(5), { seeds: 5 }),
    explore(async () => {}, { seeds: 0 }),
  ]);
  assert.deepEqual(
    settled.map((s) => s.status),
    ["fulfilled", "fulfilled", "rejected"],
  );
  assert.equal(globalThis.setTimeout, original.setTimeout);
  assert.equal(globalThis.clearTimeout, original.clearTimeout);
  assert.equal(Date.now, original.dateNow);
  // Timers a test framework or the user installed stay installed when an exploration ends, not replaced by
  // Node's own (captured when the engine loaded).
  const fakeNow = () => 1234;
  const fakeSetTimeout = Object.assign(
    (...a: Parameters<typeof setTimeout>) => original.setTimeout(...a),
    original.setTimeout,
  );
  try {
    Date.now = fakeNow;
    globalThis.setTimeout = fakeSetTimeout as typeof setTimeout;
    const seenInside: number[] = [];
    await explore(async () => void seenInside.push(Date.now()), { seeds: 1 });
    assert.deepEqual(seenInside, [Date.UTC(2000, 0, 1)], "inside a simulated task the clock is the virtual one");
    assert.equal(Date.now, fakeNow);
    assert.equal(globalThis.setTimeout, fakeSetTimeout);
    // and one installed while an exploration runs is not taken away when it ends
    Date.now = original.dateNow;
    globalThis.setTimeout = original.setTimeout;
    await explore(
      async () => {
        await sim.sleep(1);
        Date.now = fakeNow;
      },
      { seeds: 1 },
    );
    assert.equal(Date.now, fakeNow);
  } finally {
    Date.now = original.dateNow;
    globalThis.setTimeout = original.setTimeout;
  }
});

test("util.promisify(setTimeout) works while an exploration runs: on the real clock outside it, on the virtual one inside", async () => {
  let inside: number | undefined;
  const running = explore(
    async () => {
      for (let i = 0; i < 20; i++) await sim.sleep(1);
      await promisify(setTimeout)(500);
      inside = sim.now();
    },
    { seeds: 1 },
  );
  // Taken while the exploration runs: it threw "The "callback" argument must be of type function" (the
  // wrapper had no promisified form).
  const wait = promisify(setTimeout);
  assert.equal(await wait(1, "value"), "value");
  assert.equal(await running, null);
  assert.equal(inside, 520);
});

test("explore inside a workload is refused naming explore (not a deadlock of the outer run)", async () => {
  const r = await failing(async () => {
    await explore(async () => sim.sleep(1), { seeds: 2 });
  });
  assert.ok(r.error instanceof InvalidArgument, String(r.error));
  assert.match(messageOf(r), /^explore: cannot run inside a simulated workload/);
  const t = await failing(() => simTest({ seeds: 1 }, async () => {})());
  assert.match(messageOf(t), /^explore: cannot run inside a simulated workload/);
});

test("a primitive called from a callback that outlived its run throws instead of waiting on a world that is gone", async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let leaked: Promise<{ now: number; sleep: string }> | undefined;
  const tryCall = (f: () => unknown) => {
    try {
      f();
      return "no error";
    } catch (e) {
      return (e as Error).message;
    }
  };
  assert.equal(
    await explore(
      async () => {
        // The continuation keeps this task's context; the gate opens after the run has ended.
        leaked = gate.then(() => ({ now: Date.now(), sleep: tryCall(() => sim.sleep(1)) }));
      },
      { seeds: 1 },
    ),
    null,
  );
  // Opened while another exploration runs (so the virtual clock is installed): a leak would see the
  // ended run's frozen clock (2000-01-01), and its sim.sleep would wait forever on the ended world.
  const r = await explore(
    async () => {
      open();
      const seen = await leaked!;
      assert.ok(seen.now > Date.UTC(2020, 0, 1), `the leaked callback saw Date.now() = ${seen.now}`);
      assert.match(seen.sleep, /^sim\.sleep: its run has ended/);
    },
    { seeds: 1 },
  );
  assert.equal(r, null, r?.render());
});

test("a mutex kept between runs fails the run that reuses it, naming it, instead of deadlocking a later seed", async () => {
  let kept: ReturnType<typeof sim.mutex> | undefined;
  const r = await failing(
    async () => {
      kept ??= sim.mutex();
      await kept.acquire(); // never released: seed 1 must not wait on seed 0's lock
      await sim.sleep(1);
    },
    { seeds: 3 },
  );
  assert.equal(r.seed, 1);
  assert.match(
    messageOf(r),
    /^mutex\.acquire: mutex#1 belongs to another run \(kept between runs, in a variable outside the workload\?\)/,
  );
});

test("simTest properties in node:test subtests running concurrently each report what they report alone", async (t) => {
  const prop = () =>
    property(
      st.integers({ min: 1, max: 3 }),
      simTest({ seeds: 10 }, (n: number) => tangledN(n)),
    );
  const alone = await failureOf(() => check(prop(), { database: null, seed: 5 }));
  const outcomes: unknown[] = [];
  await t.test("group", { concurrency: 3 }, async (g) => {
    await Promise.all(
      [1, 2, 3].map((i) =>
        g.test(`property ${i}`, async () => {
          const f = await failureOf(() => check(prop(), { database: null, seed: 5 }));
          outcomes.push([f.args, (f.cause as ScheduleFailure).report.traceHash]);
        }),
      ),
    );
  });
  const expected = [alone.args, (alone.cause as ScheduleFailure).report.traceHash];
  assert.deepEqual(outcomes, [expected, expected, expected]);
});

async function tangledN(n: number): Promise<void> {
  const lock = sim.mutex();
  let count = 0;
  await Promise.all(
    Array.from({ length: n }, () =>
      sim.spawn(async () => {
        const seen = count;
        await lock.runExclusive(() => sim.sleep(sim.random() < 0.5 ? 0 : 1));
        count = seen + 1;
      }),
    ),
  );
  assert.equal(count, n, `lost ${n - count} increments`);
}

// ------------------------------------------------------------------------------------------------ no silent pass, no lost failure

test("a workload that behaves differently on the same seed is reported as flaky, not as a seed that replays", async () => {
  let calls = 0;
  const r = await failing(
    async () => {
      await sim.sleep(1);
      if (calls++ === 0) throw new Error("only the first time");
    },
    { seeds: 3 },
  );
  // It was reported as an ordinary failure at seed 0 with "replay: explore(workload, { seeds: [0] })",
  // which passes.
  assert.equal(r.flaky, true);
  assert.match(r.render(), /flaky: seed 0 failed, then passed when run again with the same seed/);
});

test("a workload waiting on real work the seed does not order is given real turns, and its report says what it waited on", async () => {
  // React's act() resolves on a real setImmediate: it read as a deadlock at t=0 on every seed.
  const realTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(
    await explore(
      async () => {
        await realTurn();
        await sim.sleep(1);
      },
      { seeds: 3 },
    ),
    null,
  );
  // A failure after such a wait names it, and the kind of work, instead of a guess.
  const r = await failing(
    async () => {
      await realTurn();
      await realTurn(); // made while the world takes its own turn: it needs one more
      await sim.sleep(1);
      throw new Error("after a real turn");
    },
    { seeds: 2 },
  );
  const text = r.render();
  assert.match(text, /outside the simulation: real asynchronous work the seed does not order/);
  assert.match(
    text,
    /at t=0 ms nothing was scheduled and main had not finished; real work moved the run on after \d real turns?\n/,
  );
  assert.deepEqual(r.outside, ["main started setImmediate ×2 (first at t=0 ms)"]);
  // A workload that never waits outside the simulation has no such line.
  const plain = await failing(
    async () => {
      await sim.sleep(1);
      throw new Error("plain");
    },
    { seeds: 1 },
  );
  assert.doesNotMatch(plain.render(), /outside the simulation/);
});

test("a spawned task's rejection and main's own failure are both in the report", async () => {
  const r = await failing(async () => {
    void sim.spawn(async () => {
      throw new Error("worker broke");
    }, "worker");
    await sim.sleep(1);
    throw new Error("main's assertion");
  });
  assert.equal(messageOf(r), "main's assertion");
  // The worker's error was dropped: only its trace line, if still in the tail, said it happened.
  assert.equal(r.alsoFailed.length, 1);
  assert.equal((r.alsoFailed[0]!.error as Error).message, "worker broke");
  assert.match(r.render(), /also: task 2 \(worker\) rejected: Error: worker broke/);
  // The same error reached main through Promise.all: one failure, not two.
  const once = await failing(async () => {
    await Promise.all([
      sim.spawn(async () => {
        throw new Error("shared");
      }),
    ]);
  });
  assert.equal(once.alsoFailed.length, 0);
});

test("a task that failed before the run hit its budget is the reported error, with the budget beside it", async () => {
  const r = await failing(
    async () => {
      void sim.spawn(async () => {
        await sim.sleep(5);
        throw new Error("heartbeat's worker broke");
      }, "worker");
      for (;;) await sim.sleep(1000);
    },
    { seeds: 1, maxTime: 60_000 },
  );
  // The budget's SimulationError was reported and the worker's error lost.
  assert.equal(messageOf(r), "heartbeat's worker broke");
  assert.match(r.render(), /also: SimulationError: the workload did not finish within 60000 ms of virtual time/);
});

test("an error thrown in a simulated setTimeout callback fails the seed, naming the timer", async () => {
  const r = await failing(async () => {
    setTimeout(() => {
      throw new Error("in the timer");
    }, 5);
    await sim.sleep(10);
  });
  assert.equal(messageOf(r), "in the timer");
  assert.match(r.render(), /\[t=5\] main +threw in setTimeout 5 ms: Error: in the timer/);
});

test("an unhandled rejection inside a workload fails the seed, naming it in the trace", async () => {
  // node:test's own listener would fail this test too (as it did before the fix, while explore passed):
  // explore's report is what is pinned here, so only its listener listens.
  const others = process.listeners("unhandledRejection");
  process.removeAllListeners("unhandledRejection");
  try {
    const r = await failing(async () => {
      void Promise.reject(new Error("nobody caught me"));
      await sim.sleep(1);
    });
    assert.equal(messageOf(r), "nobody caught me");
    assert.match(r.render(), /main +unhandled rejection: Error: nobody caught me/);
    const timer = await failing(async () => {
      setTimeout(async () => {
        throw new Error("async timer callback");
      }, 1);
      await sim.sleep(5);
    });
    assert.equal(messageOf(timer), "async timer callback");
  } finally {
    for (const listener of others) process.on("unhandledRejection", listener);
  }
});

const REJECTIONS = `
  const { sim, explore } = require(process.argv[1]);
  explore(async () => { void Promise.reject(new Error("inside")); await sim.sleep(1); }, { seeds: 1 }).then((r) => {
    console.log("inside: " + (r && r.error.message));
    const running = explore(async () => { for (let i = 0; i < 10; i++) await sim.sleep(1); }, { seeds: 1 });
    void Promise.reject(new Error("outside the simulation"));
    return running.then(() => console.log("the outside rejection was swallowed"));
  });
`;

test("in a process with no listener of its own, a rejection outside any workload still ends it, as Node's default does", () => {
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", "-e", REJECTIONS, path.resolve(__dirname, "../../../src/engine/index.ts")],
    { encoding: "utf8" },
  );
  assert.match(child.stdout, /^inside: inside$/m);
  assert.doesNotMatch(child.stdout, /swallowed/);
  assert.notEqual(child.status, 0);
  assert.match(child.stderr, /outside the simulation/);
});

test("assume() in a simTest workload discards the case, as in any body, instead of failing it", async () => {
  let ran = 0;
  await check(
    property(
      st.integers({ min: 0, max: 20 }),
      simTest({ seeds: 2 }, async (n: number) => {
        await sim.sleep(1);
        assume(n % 2 === 0);
        ran++;
        assert.equal(n % 2, 0);
      }),
    ),
    { database: null, seed: 3, maxExamples: 20 },
  );
  assert.ok(ran > 0);
  // A property whose every case is discarded gives up, as anywhere else.
  await assert.rejects(
    async () =>
      check(
        property(
          st.integers(),
          simTest({ seeds: 1 }, async () => {
            await sim.sleep(1);
            assume(false);
          }),
        ),
        { database: null, seed: 3, maxExamples: 5 },
      ),
    (e: unknown) => e instanceof Error && (e.name === "FailedHealthCheck" || e.name === "Unsatisfiable"),
  );
});

test("a schedule failure's report shows the assertion whole, and a labelled sleep names its step", async () => {
  const r = reported(
    await explore(
      async () => {
        let x = 0;
        await Promise.all([
          sim.spawn(async () => {
            await sim.sleep(0, "write a");
            x = 1;
          }),
          sim.spawn(async () => {
            await sim.sleep(0, "write b");
            x = 2;
          }),
        ]);
        assert.strictEqual(x, 2);
      },
      { seeds: 20 },
    ),
  );
  const text = r.render();
  assert.match(text, /^error: AssertionError: Expected values to be strictly equal:$/m);
  assert.match(text, /^ {2}1 !== 2$/m, text);
  assert.match(text, /wake: write (a|b) \(slept 0 ms\)/);
  assert.throws(() => sim.sleep(1, 5 as unknown as string), /sim\.sleep: label must be a string, got number/);
});

test("a lock-order deadlock between tasks main does not await fails the seed, naming the blocked tasks", async () => {
  const r = reported(
    await explore(
      async () => {
        const a = sim.mutex();
        const b = sim.mutex();
        void sim.spawn(async () => {
          await a.acquire();
          await sim.sleep(1);
          await b.acquire();
        }, "ab");
        void sim.spawn(async () => {
          await b.acquire();
          await sim.sleep(1);
          await a.acquire();
        }, "ba");
      },
      { seeds: 5 },
    ),
  );
  assert.match(
    String((r.error as Error).message),
    /^deadlock at t=1 ms: main finished, but tasks it did not await are blocked for good — task 2 \(ab\) waits for mutex#\d+; task 3 \(ba\) waits for mutex#\d+$/,
  );
});

test("await setTimeout(ms) from node:timers/promises runs on the virtual clock in a task, and on the real one outside", async () => {
  const r = await explore(
    async () => {
      const t0 = sim.now();
      await sleepFor(10);
      assert.equal(sim.now() - t0, 10);
    },
    { seeds: 3 },
  );
  assert.equal(r, null, r?.render());
  const t0 = performance.now();
  assert.equal(await sleepFor(5, "value"), "value");
  assert.ok(performance.now() - t0 >= 4);
});

test("a workload that fails at random is labelled flaky, not shrunk as if it replayed", async () => {
  // A deterministic stand-in for Math.random, outside the simulation's control: fails about one run in three.
  let state = 12345;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let flaky = 0;
  for (let i = 0; i < 10; i++) {
    const r = reported(
      await explore(
        async () => {
          await sim.sleep(1);
          if (random() < 0.3) throw new Error("fails at random");
        },
        { seeds: 50 },
      ),
    );
    if (r.flaky) flaky++;
  }
  assert.equal(flaky, 10);
});
