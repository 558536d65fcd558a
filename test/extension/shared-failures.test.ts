/**
 * The editor's "failed elsewhere": what it reads from a shared database (a real redis-server) after another
 * machine's run saved a failure, how a saved key is matched to a test found in the source, the diagnostic's
 * text, and that an unreachable or hung server gives a bounded error instead of a hang. Also: the URL a run
 * passes on (the setting, else VS Code's environment).
 */
import assert from "node:assert/strict";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { check, property } from "../../src/engine/property/property.ts";
import { PropertyFailure } from "../../src/engine/property/errors.ts";
import { RedisDatabase } from "../../src/engine/databases/redis/database.ts";
import * as st from "../../src/engine/strategies/index.ts";
import { runConfigFrom, sharedDatabaseUrl } from "../../src/extension/runConfig.ts";
import {
  matchesTest,
  readSharedFailures,
  sharedFailureMessage,
  testNameOfKey,
} from "../../src/extension/sharedFailures.ts";
import { startRedis, type RedisServer } from "../engine/databases/redis-server.ts";

const PROJECT_ROOT = path.resolve(__dirname, "..", "..");
let redis: RedisServer;
const opened: RedisDatabase[] = [];
before(async () => {
  redis = await startRedis();
});
after(async () => {
  for (const db of opened) await db.close();
  await redis.stop();
});

describe("keys and tests", () => {
  it("a key's test name, for the file it belongs to", () => {
    assert.equal(
      testNameOfKey("test/a.test.ts::property::sums > adds::0123456789abcdef#0", "test/a.test.ts"),
      "sums > adds",
    );
    assert.equal(
      testNameOfKey("test/a.test.ts::property::a :: b::0123456789abcdef#2", "test/a.test.ts"),
      "a :: b",
      "a name with :: in it",
    );
    assert.equal(
      testNameOfKey("test/a.test.ts::property::0123456789abcdef.0123456789abcdef#0", "test/a.test.ts"),
      undefined,
      "nameless",
    );
    assert.equal(
      testNameOfKey("test/ab.test.ts::property::x::0123456789abcdef#0", "test/a.test.ts"),
      null,
      "another file",
    );
  });

  it("matched to a discovered test by the runners' ways of joining suite and test names", () => {
    assert.ok(matchesTest("sums > adds", ["sums", "adds"]), "node:test, vitest");
    assert.ok(matchesTest("sums adds", ["sums", "adds"]), "jest, mocha");
    assert.ok(!matchesTest("sums > adds", ["adds"]));
    assert.ok(!matchesTest(undefined, ["adds"]));
  });
});

describe("reading the shared database", () => {
  it("another machine's failure, with its printed example and error, newest first; the diagnostic's text", async () => {
    redis.cli("FLUSHALL");
    const db = new RedisDatabase(redis.url);
    opened.push(db);
    // The run on the other machine: a named test's property fails and is saved (and noted) under its key.
    const key = "test/math.test.ts::property::sums > adds::0123456789abcdef#0";
    assert.throws(
      () =>
        check(
          property(st.integers(), (x) => {
            if (x > 1000) throw new RangeError("too big");
          }),
          { database: db, deadline: null, key, seed: 1 },
        ),
      PropertyFailure,
    );
    const found = await readSharedFailures(redis.url, "test/math.test.ts", { project: PROJECT_ROOT });
    assert.equal(found.length, 1);
    const f = found[0];
    assert.equal(f.testName, "sums > adds");
    assert.equal(f.repro, "1001");
    assert.equal(f.error, "RangeError: too big");
    assert.ok(f.savedAt !== undefined && Math.abs(f.savedAt - Date.now()) < 60_000);
    const text = sharedFailureMessage(f, `redis://user:secret@127.0.0.1:${redis.port}`);
    assert.match(
      text,
      /^Failed elsewhere \(saved on \d{4}-\d\d-\d\d \d\d:\d\d UTC in the shared database redis:\/\/user:\*\*\*@127\.0\.0\.1:\d+\)\.\nMinimal example: 1001\nRangeError: too big\nRun property replays it first\.$/,
    );
    assert.deepEqual(
      await readSharedFailures(redis.url, "test/other.test.ts", { project: PROJECT_ROOT }),
      [],
      "another file has none",
    );
  });

  it("an unreachable server, or a hung one, is a bounded error naming the cause", async () => {
    const gone = await startRedis();
    await gone.stop();
    await assert.rejects(
      readSharedFailures(gone.url, "x.ts", { project: PROJECT_ROOT, timeoutMs: 2000 }),
      /ECONNREFUSED/,
    );
    redis.pause();
    const t0 = Date.now();
    try {
      await assert.rejects(
        readSharedFailures(redis.url, "x.ts", { project: PROJECT_ROOT, timeoutMs: 500 }),
        /no answer within 500 ms/,
      );
    } finally {
      redis.resume();
    }
    assert.ok(Date.now() - t0 < 5000);
  });
});

describe("the URL a run passes on", () => {
  it("shrinkscope.sharedDatabaseUrl, else SHRINKSCOPE_DATABASE_URL from VS Code's environment; only redis:// URLs", () => {
    const reader =
      (v: unknown) =>
      <T>(key: string, fallback: T): T =>
        key === "sharedDatabaseUrl" ? (v as T) : fallback;
    assert.equal(sharedDatabaseUrl(reader("redis://a:1"), {}), "redis://a:1");
    assert.equal(sharedDatabaseUrl(reader(""), { SHRINKSCOPE_DATABASE_URL: "redis://b:2" }), "redis://b:2");
    assert.equal(
      sharedDatabaseUrl(reader(" redis://a:1 "), { SHRINKSCOPE_DATABASE_URL: "redis://b:2" }),
      "redis://a:1",
      "the setting wins",
    );
    assert.equal(sharedDatabaseUrl(reader("localhost:6379"), {}), undefined);
    assert.equal(runConfigFrom(reader("redis://a:1"), os.tmpdir(), {}).settings.sharedDatabase, "redis://a:1");
    assert.equal("sharedDatabase" in runConfigFrom(reader(""), os.tmpdir(), {}).settings, false);
  });
});
