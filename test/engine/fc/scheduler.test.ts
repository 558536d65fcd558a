/**
 * fc.scheduler(): the release order of a predicate's promises is the case's choices — one integer per release, 0 the
 * oldest task — so a race is found, replayed and shrunk toward first-in-first-out; and fast-check's scheduler API
 * (schedule, scheduleFunction, scheduleSequence, the waits, count, report, act) and fc.scheduledModelRun behave as
 * fast-check's.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "../../../src/engine/fc.ts";
import { configure } from "../../../src/engine/index.ts";
import { failureOf } from "../helpers.ts";

configure({ database: null });

test("a lost update between two read-then-write calls is found, in first-in-first-out order, with the tasks' log", async () => {
  const f = await failureOf(() =>
    fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        let value = 0;
        const read = s.scheduleFunction(async function read() {
          return value;
        });
        const write = s.scheduleFunction(async function write(v: number) {
          value = v;
        });
        const increment = async () => write((await read()) + 1);
        await s.waitFor(Promise.all([increment(), increment()]));
        if (value !== 2) throw new Error(`lost an update: ${value}`);
      }),
    ),
  );
  assert.match(f.message, /lost an update: 1/);
  assert.doesNotMatch(f.message, /\(scheduler\): [1-9]/, "every release the oldest task: FIFO");
  assert.match(f.message, /\[task\$\{1\}\] function::read\(\) resolved with value 0/);
  assert.match(f.message, /\[task\$\{4\}\] function::write\(1\) resolved/);
});

test("a bug that needs another order shrinks to the one deviation it needs", async () => {
  const f = await failureOf(() =>
    fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.nat(3), async (s, extra) => {
        const order: string[] = [];
        const tasks = ["a", "b", ...Array.from({ length: extra }, (_, i) => `x${i}`)].map((label) =>
          s.schedule(Promise.resolve(label), label).then((v) => void order.push(v)),
        );
        await s.waitAll();
        await Promise.all(tasks);
        if (order.indexOf("b") < order.indexOf("a")) throw new Error(`b before a: ${order.join(",")}`);
      }),
    ),
  );
  assert.deepEqual(f.args.slice(1), [0], "no extra task");
  assert.match(f.message, /draw 1 \(scheduler\): 1\n/, "first release: b, the second oldest");
  assert.match(f.message, /b before a: b,a/);
});

test("scheduleSequence runs its items one after another, each scheduled once the one before is done", async () => {
  await fc.assert(
    fc.asyncProperty(fc.scheduler(), async (s) => {
      const log: string[] = [];
      const seq = s.scheduleSequence([
        async function first() {
          log.push("first");
        },
        { label: "second", builder: async () => void log.push("second") },
      ]);
      assert.equal(s.count(), 1, "only the first item waits at first");
      await s.waitAll();
      assert.deepEqual(await seq.task, { done: true, faulty: false });
      assert.deepEqual(log, ["first", "second"]);
      const faulty = s.scheduleSequence([
        { label: "fails", builder: () => Promise.reject(new Error("no")) },
        { label: "never", builder: async () => void log.push("never") },
      ]);
      await s.waitAll();
      assert.deepEqual(await faulty.task, { done: false, faulty: true });
      assert.equal(log.includes("never"), false);
    }),
    { numRuns: 10 },
  );
});

test("waits, count, report and act", async () => {
  let acts = 0;
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.scheduler({
        act: async (f) => {
          acts++;
          await f();
        },
      }),
      async (s) => {
        cases++;
        await assert.rejects(s.waitOne(), /No task scheduled/);
        const a = s.schedule(Promise.resolve(1), "one", { m: 1 });
        void s.schedule(Promise.reject(new Error("two")), "two").catch(() => {});
        assert.equal(s.count(), 2);
        await s.waitNext(1);
        assert.equal(s.count(), 1);
        await s.waitIdle();
        assert.equal(s.count(), 0);
        assert.equal(await a, 1);
        const report = s.report();
        assert.deepEqual(report.map((r) => [r.label, r.status]).sort(), [
          ["one", "resolved"],
          ["two", "rejected"],
        ]);
        assert.deepEqual(report.find((r) => r.label === "one")?.metadata, { m: 1 });
        // A task scheduled while a wait is parked wakes it.
        const later = new Promise((r) => setTimeout(r, 1)).then(() => s.schedule(Promise.resolve("late")));
        assert.equal(await s.waitFor(later.then((p) => p)), "late");
      },
    ),
    { numRuns: 5 },
  );
  assert.ok(cases > 0);
  assert.equal(acts, 4 * cases, "act wrapped every wait for a release, four a case (the one with none waiting too)");
});

test("fc.scheduledModelRun runs the commands through the scheduler and finds a race in the real system", async () => {
  type Model = { count: number };
  /** A counter whose increment reads, yields to the scheduler, then writes: two at once lose one. */
  class Counter {
    value = 0;
    constructor(readonly s: fc.Scheduler) {}
    async increment() {
      const v = this.value;
      await this.s.schedule(Promise.resolve(), "yield");
      this.value = v + 1;
    }
  }
  const inc: fc.AsyncCommand<Model, Counter, true> = {
    check: async () => true,
    run: async (m, r) => {
      m.count++;
      void r.increment(); // not awaited: the next command may start before it ends
    },
    toString: () => "inc",
  };
  const f = await failureOf(() =>
    fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.commands([fc.constant(inc)], { maxCommands: 4 }), async (s, cmds) => {
        const real = new Counter(s);
        const model = { count: 0 };
        await fc.scheduledModelRun(s, () => ({ model, real }), cmds);
        await s.waitAll();
        assert.equal(real.value, model.count);
      }),
    ),
  );
  assert.equal([...(f.args[1] as Iterable<unknown>)].length, 2, "two increments at once are the fewest that lose one");
  assert.match(f.message, /sequence::run@inc resolved/);
});

test("misuse says what is wrong", () => {
  assert.throws(() => fc.scheduler({ act: 5 as never }), /fc\.scheduler: act must be a function/);
  assert.throws(() => fc.scheduler({ speed: 1 } as never), /unknown constraint "speed"/);
  assert.rejects(
    fc.scheduledModelRun({} as never, () => ({ model: {}, real: {} }), []),
    /fc\.scheduledModelRun/,
  );
});

test("an act whose result is a thenable that returns nothing from then() (React's) is still waited for", async () => {
  // Pinned from bench:migration: React's act returns such a thenable; chaining it directly made waitOne resolve at
  // once, and the next case rendered inside an act scope still open (an empty <div />).
  const log: string[] = [];
  const reactLikeAct = (f: () => Promise<void>) => ({
    then(resolve: () => void, reject: (e: unknown) => void): void {
      f().then(() => setTimeout(() => (log.push("act done"), resolve()), 5), reject);
    },
  });
  await fc.assert(
    fc.asyncProperty(fc.scheduler({ act: reactLikeAct as never }), async (s) => {
      void s.schedule(Promise.resolve(1));
      await s.waitOne();
      log.push("after waitOne");
    }),
    { numRuns: 3 },
  );
  assert.ok(log.length > 0);
  for (let i = 0; i < log.length; i += 2) assert.deepEqual(log.slice(i, i + 2), ["act done", "after waitOne"]);
});
