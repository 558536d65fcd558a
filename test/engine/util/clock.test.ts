// The engine keeps its own clock while a property's body fakes time (found in the vitest fixture: a body calling
// vi.advanceTimersByTime(250) under vi.useFakeTimers() made a one-second run report 23.3 s, and the deadline,
// the shrink budget and the database's timestamps followed the fake clock). @sinonjs/fake-timers is what
// jest and vitest use underneath.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import FakeTimers from "@sinonjs/fake-timers";
import { check, property, st } from "../../../src/engine/index.ts";
import type { EngineEvent } from "../../../src/engine/index.ts";
import { DirectoryDatabase } from "../../../src/engine/databases/directory.ts";
import { failure } from "../helpers.ts";

const HOUR = 3_600_000;

/** Run `run` with every clock faked (Date, performance, hrtime, timers) from time 0 — installed after the engine loaded. */
function withFakeTime<T>(run: (clock: ReturnType<typeof FakeTimers.install>) => T): T {
  const clock = FakeTimers.install({ now: 0 });
  try {
    return run(clock);
  } finally {
    clock.uninstall();
  }
}

test("a body that advances fake timers by an hour per call: no false deadline, a full shrink, the run's real time", () => {
  const events: EngineEvent[] = [];
  const f = withFakeTime((clock) =>
    failure(() =>
      check(
        property(st.integers({ min: 0, max: 1000 }), (n) => {
          clock.tick(HOUR);
          if (n > 10) throw new Error("too big");
        }),
        { database: null, deadline: 200, seed: 7, onEvent: (e) => events.push(e) },
      ),
    ),
  );
  assert.equal((f.cause as Error).message, "too big", "the body's own error, not DeadlineExceeded");
  assert.deepEqual(f.args, [11], "the shrinker's time budget was not spent by the fake clock");
  const result = events.at(-1);
  assert.ok(result?.type === "result");
  assert.ok(
    result.statistics.timeMs < HOUR,
    `the run's time is real, not the fake clock's: ${result.statistics.timeMs} ms`,
  );
});

test("an example saved again while Date is faked to 1970 keeps a real date (the editor says how old it is)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-clock-"));
  const db = new DirectoryDatabase(dir);
  db.save("clock", [1, 2, 3]);
  withFakeTime(() => db.save("clock", [1, 2, 3]));
  const [saved] = db.fetch("clock");
  const yearAgo = Date.now() - 365 * 24 * HOUR;
  assert.ok(
    (db.savedAt(saved) ?? 0) > yearAgo,
    `dated by the fake clock: ${new Date(db.savedAt(saved) ?? 0).toISOString()}`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
});
