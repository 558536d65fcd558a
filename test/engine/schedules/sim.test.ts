// The simulated world and its primitives (world.ts, sim.ts) and explore/simTest (explore.ts, simTest.ts):
// determinism, replay, FIFO-shrinking, virtual time, faults (deadlock, a rejecting task, budgets), bad options, and
// the replicated log's recipe end to end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import {
  check,
  explore,
  InvalidArgument,
  property,
  ScheduleFailure,
  sim,
  simTest,
  st,
} from "../../../src/engine/index.ts";
import type { EngineEvent, ResultEvent, SeedReport } from "../../../src/engine/index.ts";
import { failureOf } from "../helpers.ts";
import { TraceHash } from "../../../src/engine/schedules/traceHash.ts";
import { Random } from "../../../src/engine/util/random.ts";

// ------------------------------------------------------------------------------------------------ the replicated log

async function reserveThenWrite(log: string[], payload: string, delay: number): Promise<void> {
  const index = log.length;
  await sim.sleep(delay); // virtual time: free, and a point where other tasks may run
  log[index] = payload;
}

async function replicate(writers: number, payloads: string[], delay: number, guarded = false): Promise<void> {
  const log: string[] = [];
  const lock = sim.mutex();
  const batch = async () => {
    for (const p of payloads) {
      if (guarded) await lock.runExclusive(() => reserveThenWrite(log, p, delay));
      else await reserveThenWrite(log, p, delay);
    }
  };
  await Promise.all(Array.from({ length: writers }, () => sim.spawn(batch)));
  assert.equal(log.length, writers * payloads.length, `lost ${writers * payloads.length - log.length} appends`);
}

function reported(r: SeedReport | null): SeedReport {
  assert.ok(r !== null, "expected a failing seed");
  return r;
}

test("the replicated log through explore: two writers lose an append; the report says the seed, the replay, the schedule and the trace", async () => {
  const r = reported(await explore(() => replicate(2, ["a"], 0), { seeds: 8 }));
  assert.match(String((r.error as Error).message), /lost 1 appends/);
  assert.ok(r.passedBefore.every((s) => s < r.seed));
  const text = r.render();
  assert.match(text, new RegExp(`failed at seed ${r.seed} \\(${r.passedBefore.length} seeds? passed first`));
  assert.match(text, new RegExp(`replay: explore\\(workload, \\{ seeds: \\[${r.seed}\\] \\}\\)`));
  assert.match(text, /trace hash: [0-9a-f]{16}/);
  assert.match(text, /main +rejected: AssertionError: lost 1 appends/);
  assert.ok(r.trace.length > 0 && r.trace.length <= 20);
  // One writer, or the lock held across reserve and write, never loses an append.
  assert.equal(await explore(() => replicate(1, ["a", "b", "c"], 0), { seeds: 20 }), null);
});

test("the guarded (mutex) workload passes 100+ seeds, with random and with PCT scheduling", async () => {
  assert.equal(await explore(() => replicate(3, ["a", "b"], 1, true), { seeds: 120 }), null);
  assert.equal(await explore(() => replicate(3, ["a", "b"], 0, true), { seeds: 120, strategy: "pct", depth: 3 }), null);
});

test('the replicated log through simTest and property: the property shrinks the workload to writers = 2, payloads ["a"], delay 0', async () => {
  const f = await failureOf(() =>
    check(
      property(
        st.integers({ min: 1, max: 4 }),
        st.lists(st.text({ alphabet: "abc", minSize: 1, maxSize: 3 }), { minSize: 1, maxSize: 3 }),
        st.sampledFrom([0, 1, 10]),
        simTest({ seeds: 8 }, (writers: number, payloads: string[], delay: number) =>
          replicate(writers, payloads, delay),
        ),
      ),
      { database: null, seed: 3 },
    ),
  );
  assert.deepEqual(f.args, [2, ["a"], 0]);
  assert.ok(f.cause instanceof ScheduleFailure);
  assert.match(f.message, /lost 1 appends/);
  assert.match(f.message, /explore: failed at seed \d+/);
  assert.ok((f.cause as ScheduleFailure).report.schedule.length > 0);
});

// ------------------------------------------------------------------------------------------------ determinism and replay

const WORKLOAD = `
  const { sim, explore } = require(process.argv[1]);
  async function work() {
    const log = [];
    const go = async (id) => { for (let i = 0; i < 3; i++) { log.push(id + ":" + i); await sim.sleep(sim.random() < 0.5 ? 0 : 1); } };
    await Promise.all([sim.spawn(() => go("a")), sim.spawn(() => go("b")), sim.spawn(() => go("c"))]);
    if (log.join(",") !== "a:0,b:0,c:0,a:1,b:1,c:1,a:2,b:2,c:2") throw new Error("order " + log.join(","));
  }
  explore(work, { seeds: 50, shrink: false }).then((r) => console.log(JSON.stringify(r && { seed: r.seed, hash: r.traceHash, schedule: r.schedule })));
`;

test("determinism: the same workload and seed give the same trace hash in this process and in another one", async () => {
  const runHere = async () => {
    const work = async () => {
      const log: string[] = [];
      const go = async (id: string) => {
        for (let i = 0; i < 3; i++) {
          log.push(`${id}:${i}`);
          await sim.sleep(sim.random() < 0.5 ? 0 : 1);
        }
      };
      await Promise.all([sim.spawn(() => go("a")), sim.spawn(() => go("b")), sim.spawn(() => go("c"))]);
      if (log.join(",") !== "a:0,b:0,c:0,a:1,b:1,c:1,a:2,b:2,c:2") throw new Error(`order ${log.join(",")}`);
    };
    const r = reported(await explore(work, { seeds: 50, shrink: false }));
    return { seed: r.seed, hash: r.traceHash, schedule: r.schedule };
  };
  const a = await runHere();
  const b = await runHere();
  assert.deepEqual(a, b);
  // Another process, through the built-in CommonJS entry of the sources (tsx), computes the same.
  const child = spawnSync(
    process.execPath,
    ["--import", "tsx", "-e", WORKLOAD, path.resolve(__dirname, "../../../src/engine/index.ts")],
    { encoding: "utf8" },
  );
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout.trim()), a);
});

test("replay: the report's seed fails again with the seed's own schedule, and its shrunk schedule reproduces its hash", async () => {
  const w = () => replicate(3, ["a", "b"], 1);
  const r = reported(await explore(w, { seeds: 10 }));
  const again = reported(await explore(w, { seeds: [r.seed], shrink: false }));
  assert.equal(again.seed, r.seed);
  assert.deepEqual(again.schedule, r.seedSchedule);
  const exact = reported(await explore(w, { schedule: [...r.schedule] }));
  assert.equal(exact.traceHash, r.traceHash);
  assert.deepEqual(exact.schedule, r.schedule);
});

test("FIFO-shrinking: a bug that needs one task to overtake one other ends with exactly one non-FIFO decision", async () => {
  // Five tasks started in order; the bug: task 4 starts before task 2. FIFO passes; random seeds make many
  // deviations, of which one matters.
  const work = async () => {
    const order: number[] = [];
    const tasks = [1, 2, 3, 4, 5].map((i) =>
      sim.spawn(async () => {
        order.push(i);
        await sim.sleep(0);
        order.push(i * 10);
      }),
    );
    await Promise.all(tasks);
    assert.ok(order.indexOf(4) > order.indexOf(2), `task 4 started before task 2: ${order.join(",")}`);
  };
  assert.equal(await explore(work, { schedule: [] }), null, "FIFO passes");
  let checked = 0;
  for (const from of [0, 100, 200]) {
    const seeds = Array.from({ length: 40 }, (_, i) => from + i);
    const r = reported(await explore(work, { seeds }));
    assert.ok(r.seedSchedule.filter((d) => d !== 0).length >= 1);
    assert.equal(
      r.schedule.filter((d) => d !== 0).length,
      1,
      `seed ${r.seed}: schedule ${r.schedule.join(",")} (from ${r.seedSchedule.join(",")})`,
    );
    assert.match(r.render(), /1 differs from FIFO/);
    assert.match(r.render(), /ran task \d+ \(start\) before task \d+ \(start\)/);
    checked++;
  }
  assert.equal(checked, 3);
});

// ------------------------------------------------------------------------------------------------ virtual time and timers

test("virtual time: an hour of sleeps, timers and Date.now run on the simulated clock", async () => {
  let seen: { now: number; date: number; fired: string[] } | undefined;
  const before = Date.now();
  const r = await explore(
    async () => {
      const fired: string[] = [];
      const start = Date.now();
      setTimeout(() => fired.push("timeout 1500"), 1500);
      const t = setTimeout(() => fired.push("cancelled"), 10);
      clearTimeout(t);
      for (let i = 0; i < 3600; i++) await sim.sleep(1000);
      seen = { now: sim.now(), date: Date.now() - start, fired };
    },
    { seeds: 1 },
  );
  assert.equal(r, null);
  assert.deepEqual(seen, { now: 3_600_000, date: 3_600_000, fired: ["timeout 1500"] });
  // Outside the simulation the clock is the real one again (virtual time did not leak: not an hour later).
  assert.ok(Date.now() - before < 3_600_000);
  assert.equal(globalThis.setTimeout.name, "setTimeout");
});

// ------------------------------------------------------------------------------------------------ faults

test("a deadlock is reported naming the waiting tasks, never a hang", async () => {
  const r = reported(
    await explore(
      async () => {
        const a = sim.mutex();
        const b = sim.mutex();
        const one = sim.spawn(
          () =>
            a.runExclusive(async () => {
              await sim.sleep(1);
              await b.runExclusive(async () => {});
            }),
          "one",
        );
        const two = sim.spawn(
          () =>
            b.runExclusive(async () => {
              await sim.sleep(1);
              await a.runExclusive(async () => {});
            }),
          "two",
        );
        await Promise.all([one, two]);
      },
      { seeds: 1 },
    ),
  );
  assert.equal((r.error as Error).name, "SimulationError");
  assert.match(
    (r.error as Error).message,
    /deadlock at t=1 ms: .*task 2 \(one\) waits for mutex#2.*task 3 \(two\) waits for mutex#1/,
  );
});

test("a rejection inside a spawned task fails the seed even when nobody awaits it, and names the task in the trace", async () => {
  const r = reported(
    await explore(
      async () => {
        void sim.spawn(async () => {
          await sim.sleep(5);
          throw new Error("worker broke");
        }, "worker");
        await sim.sleep(1);
      },
      { seeds: 1 },
    ),
  );
  assert.equal((r.error as Error).message, "worker broke");
  assert.match(r.render(), /task 2 \(worker\) +rejected: Error: worker broke/);
});

test("a workload that never finishes ends at the virtual-time or step budget with a clear error", async () => {
  const forever = async () => {
    for (;;) await sim.sleep(1000);
  };
  const r = reported(await explore(forever, { seeds: 1, maxTime: 60_000 }));
  assert.match(
    (r.error as Error).message,
    /did not finish within 60000 ms of virtual time \(the maxTime option of explore\)/,
  );
  const busy = async () => {
    for (;;) await sim.sleep(0);
  };
  const r2 = reported(await explore(busy, { seeds: 1, maxSteps: 500 }));
  assert.match((r2.error as Error).message, /did not finish within 500 scheduling steps/);
});

test("bad options throw InvalidArgument naming explore or simTest; the primitives outside a workload name themselves", async () => {
  const bad = async (f: () => unknown, api: string, pattern: RegExp) => {
    let thrown: unknown;
    try {
      await f();
    } catch (e) {
      thrown = e;
    }
    assert.ok(
      thrown instanceof InvalidArgument && thrown.message.startsWith(`${api}: `) && pattern.test(thrown.message),
      String(thrown),
    );
  };
  const w = async () => {};
  await bad(() => explore(w, { seeds: 0 }), "explore", /seeds must be a count/);
  await bad(() => explore(w, { seeds: [] }), "explore", /non-empty list/);
  await bad(() => explore(w, { seeds: 3, strategy: "dfs" as never }), "explore", /strategy must be "random" or "pct"/);
  await bad(() => explore(w, { seeds: 3, sedes: 3 } as never), "explore", /unknown option "sedes"/);
  await bad(() => explore(w, { seeds: 3, depth: 0 }), "explore", /depth must be an integer ≥ 1/);
  await bad(() => explore("nope" as never, { seeds: 3 }), "explore", /workload must be a function/);
  await bad(() => simTest({ seeds: -1 }, w), "simTest", /seeds must be a count/);
  await bad(() => simTest({ seeds: 2 }, 5 as never), "simTest", /body must be a function/);
  assert.throws(
    () => sim.sleep(1),
    /sim\.sleep works only inside a simulated workload \(run it with explore\(\.\.\.\) or simTest\(\.\.\.\)\)/,
  );
  assert.throws(() => sim.spawn(async () => {}), /sim\.spawn works only inside/);
  assert.throws(() => sim.mutex(), /sim\.mutex works only inside/);
  assert.throws(() => sim.now(), /sim\.now works only inside/);
});

test("a simTest property never trips the wall-clock deadline: an example is many simulated runs", async () => {
  // 400 seeds of a 6-task workload per example: far more than the default 200 ms deadline of wall time.
  await check(
    property(
      st.integers({ min: 1, max: 2 }),
      simTest({ seeds: 400 }, (n: number) => replicate(n, ["a", "b", "c"], 1, true)),
    ),
    { database: null, seed: 1, maxExamples: 3 },
  );
});

test("a simTest property runs with no deadline, even one it was given, and a plain property beside it keeps its own", async () => {
  const deadlineOf = async (body: (n: number) => unknown) => {
    const events: EngineEvent[] = [];
    await check(property(st.integers({ min: 1, max: 2 }), body), {
      database: null,
      seed: 1,
      maxExamples: 2,
      deadline: 50,
      onEvent: (e) => events.push(e),
    });
    const start = events.find((e) => e.type === "run-start");
    return start?.type === "run-start" ? start.settings.deadline : "no run-start event";
  };
  assert.equal(await deadlineOf(simTest({ seeds: 2 }, (n: number) => replicate(n, ["a"], 1, true))), null);
  assert.equal(await deadlineOf(() => {}), 50);
});

test("PCT finds an ordering bug of depth 2 among tasks that random scheduling rarely hits", async () => {
  // The bug needs task 1's second step to come after every other task's last one.
  const work = async () => {
    let last = "";
    const steps = (name: string, n: number) =>
      sim.spawn(async () => {
        for (let i = 0; i < n; i++) {
          last = `${name}${i}`;
          await sim.sleep(0);
        }
      });
    await Promise.all([steps("a", 2), ...["b", "c", "d", "e"].map((x) => steps(x, 4))]);
    assert.notEqual(last, "a1", "a finished last");
  };
  const pct = await explore(work, { seeds: 60, strategy: "pct" });
  assert.ok(pct !== null, "PCT finds it within 60 seeds");
});

test("with events on, a simTest failure's result carries its schedule: seed, shrunk decisions, every event by task, deviations", async () => {
  const events: EngineEvent[] = [];
  await failureOf(() =>
    check(
      property(
        st.integers({ min: 1, max: 3 }),
        simTest({ seeds: 8 }, (n: number) => replicate(n, ["a"], 0)),
      ),
      { database: null, seed: 3, onEvent: (e) => events.push(e) },
    ),
  );
  const result = events.find((e): e is ResultEvent => e.type === "result")!;
  const s = result.schedule!;
  assert.ok(s, "the result event has the schedule");
  assert.deepEqual(s.tasks, ["main", "task 2", "task 3"]);
  assert.ok(s.events.length > 0 && s.events.every((e) => s.tasks.includes(e.task)));
  assert.equal(s.truncated, 0);
  assert.equal(s.deviations.length, s.schedule.filter((d) => d !== 0).length);
  assert.match(s.text, new RegExp(`failed at seed ${s.seed}`));
  assert.match(s.traceHash, /^[0-9a-f]{16}$/);
});

test("consecutive seeds explore different schedules: seeds 0..99 do not all make the same first decision (pinned: they did)", async () => {
  const firsts: Record<string, number> = {};
  for (let seed = 0; seed < 100; seed++) {
    let first = 0;
    await explore(
      async () => {
        const order: number[] = [];
        await Promise.all([1, 2].map((i) => sim.spawn(async () => void order.push(i))));
        first = order[0]!;
      },
      { seeds: [seed] },
    );
    firsts[first] = (firsts[first] ?? 0) + 1;
  }
  assert.ok((firsts[1] ?? 0) >= 25 && (firsts[2] ?? 0) >= 25, JSON.stringify(firsts));
});

test("the report prints as its text (util.inspect), and its replay line gives the seed with the exact schedule", async () => {
  const { inspect } = await import("node:util");
  const r = reported(await explore(() => replicate(2, ["a"], 0), { seeds: 8 }));
  assert.equal(inspect(r), r.render());
  assert.match(r.render(), new RegExp(`explore\\(workload, \\{ seeds: \\[${r.seed}\\], schedule: \\[`));
});

test("the trace hash is 64-bit FNV-1a over the trace's code points, as BigInt arithmetic gives it (pinned)", () => {
  // Kept in 16-bit limbs (traceHash.ts) instead of a BigInt per character: the value must be the one reports and
  // saved seeds have always printed.
  const reference = (texts: string[]): string => {
    let h = 0xcbf29ce484222325n;
    for (const t of texts)
      for (const ch of t) {
        h ^= BigInt(ch.codePointAt(0)!);
        h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
      }
    return h.toString(16).padStart(16, "0");
  };
  const random = new Random(7);
  for (let i = 0; i < 500; i++) {
    const texts: string[] = [];
    for (let j = 0; j <= i % 5; j++) {
      let s = "";
      for (let k = random.int(0, 30); k > 0; k--) {
        const kind = random.int(0, 3);
        s +=
          kind === 0
            ? String.fromCharCode(random.int(32, 126))
            : kind === 1
              ? String.fromCodePoint(random.int(0, 0xd7ff))
              : kind === 2
                ? String.fromCodePoint(random.int(0x10000, 0x10ffff))
                : String.fromCharCode(random.int(0xd800, 0xdfff)); // a lone surrogate
      }
      texts.push(s);
    }
    const hash = new TraceHash();
    for (const t of texts) hash.add(t);
    assert.equal(hash.hex, reference(texts), JSON.stringify(texts));
  }
  const one = new TraceHash();
  one.add("0|main|start\n");
  assert.equal(one.hex, reference(["0|main|start\n"]));
  assert.equal(new TraceHash().hex, "cbf29ce484222325");
});
