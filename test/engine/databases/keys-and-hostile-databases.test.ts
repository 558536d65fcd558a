/**
 * The example database under attack: keys that collide (a passing property deleting another's saved
 * failure), keys that drift across harmless edits, custom databases that throw or return garbage, folders
 * that cannot be read or written, and processes racing on the same files. Whatever happens, the failure is
 * reported and no other property's failure is lost.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import nodeFs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, it, mock } from "node:test";
import { DirectoryDatabase } from "../../../src/engine/databases/directory.ts";
import { GuardedDatabase } from "../../../src/engine/databases/guarded.ts";
import { InMemoryDatabase } from "../../../src/engine/databases/inMemory.ts";
import { encodeChoices } from "../../../src/engine/databases/encoding.ts";
import type { ExampleDatabase, StoredChoice } from "../../../src/engine/databases/exampleDatabase.ts";
import { InvalidArgument } from "../../../src/engine/util/errors.ts";
import { framePosition, keyForRun, shapeOf, testNameFrom } from "../../../src/engine/property/key.ts";
import { check, find, property } from "../../../src/engine/property/property.ts";
import { PropertyFailure } from "../../../src/engine/property/errors.ts";
import type { Property } from "../../../src/engine/property/definition.ts";
import * as st from "../../../src/engine/strategies/index.ts";
import { machine } from "../../../src/engine/stateful/machine.ts";
import type { MachineSpec } from "../../../src/engine/stateful/spec.ts";
import { simTest } from "../../../src/engine/schedules/simTest.ts";
import { sim } from "../../../src/engine/schedules/sim.ts";
import { tempDir } from "../helpers.ts";

const PROJECT_ROOT = path.resolve(__dirname, "..", "..", "..");
/** An in-memory database that also records the keys each call used. */
class KeyRecordingDatabase implements ExampleDatabase {
  readonly inner = new InMemoryDatabase();
  readonly keys: string[] = [];
  fetch(key: string): StoredChoice[][] {
    this.keys.push(key);
    return this.inner.fetch(key);
  }
  save(key: string, choices: readonly StoredChoice[]): void {
    this.inner.save(key, choices);
  }
  delete(key: string, choices: readonly StoredChoice[]): void {
    this.inner.delete(key, choices);
  }
}

const quiet = { deadline: null, derandomize: true } as const;

function runsToFailure(p: Property | (() => unknown)): PropertyFailure {
  try {
    (p as () => unknown)();
  } catch (e) {
    assert.ok(e instanceof PropertyFailure, String(e));
    return e;
  }
  assert.fail("expected the property to fail");
}

/** Capture console.warn while `f` runs. */
function warningsOf(f: () => void): string[] {
  const warnings: string[] = [];
  const m = mock.method(console, "warn", (...a: unknown[]) => void warnings.push(a.map(String).join(" ")));
  try {
    f();
  } finally {
    m.mock.restore();
  }
  return warnings;
}

// ------------------------------------------------------------------------------------------------ keys

describe("database keys", () => {
  it("two properties sharing a body get different keys, and the passing one keeps the other's failure", () => {
    const db = new KeyRecordingDatabase();
    let limit = 5;
    // A refactor that must not collide: one body, used by two properties in the same file.
    const body = (x: number) => assert.ok(x <= limit, `${x} > ${limit}`);
    const wide = property(st.integers({ min: 0, max: 100 }), body, { ...quiet, database: db });
    const narrow = property(st.integers({ min: 0, max: 3 }), body, { ...quiet, database: db });
    runsToFailure(wide);
    const [wideKey] = db.keys;
    assert.equal(db.inner.fetch(wideKey!).length, 1, "the failure is saved");
    narrow(); // passes; it must not replay (and so delete) the other's failure
    assert.notEqual(db.keys[1], wideKey);
    assert.equal(db.inner.fetch(wideKey!).length, 1, "the wide property's failure survives the narrow one's pass");
    limit = 1000;
  });

  it("identical inline properties in one file get different keys (an occurrence number per call site)", () => {
    const db = new KeyRecordingDatabase();
    let failing = true;
    const a = property(
      st.integers(),
      (x) => {
        if (failing && x > 3) throw new Error("a");
      },
      { ...quiet, database: db },
    );
    const b = property(
      st.integers(),
      (x) => {
        if (failing && x > 3) throw new Error("a");
      },
      { ...quiet, database: db },
    );
    runsToFailure(a);
    failing = false;
    b();
    assert.equal(db.keys.length, 2);
    assert.notEqual(db.keys[0], db.keys[1]);
    assert.match(db.keys[0]!, /#\d+$/);
    assert.equal(db.inner.fetch(db.keys[0]!).length, 1, "a's failure survives b's pass");
  });

  it("two machines of one class built by one helper get different keys: the passing one keeps the other's failure", () => {
    class Stack {
      items: number[] = [];
      push(): void {
        this.items.push(1);
      }
      pop(): void {
        this.items.pop();
      }
      bounded(): void {
        assert.ok(this.items.length < 3, "at most two items");
      }
    }
    const db = new KeyRecordingDatabase();
    // One call site for both: the spec is what tells them apart.
    const mk = (spec: MachineSpec<Stack>) => machine(Stack, spec, { ...quiet, database: db });
    const failing = mk({ rules: { push: {} }, invariants: ["bounded"] });
    const passing = mk({ rules: { pop: {} }, invariants: ["bounded"] });
    runsToFailure(failing);
    passing();
    assert.equal(new Set(db.keys).size, 2, db.keys.join("\n"));
    assert.equal(db.inner.fetch(db.keys[0]!).length, 1, "the failing machine's example survives the passing one's run");
  });

  it("two simTest properties get keys of their own workloads: the passing one keeps the other's failure", async () => {
    const db = new KeyRecordingDatabase();
    const mk = (workload: () => Promise<void>) =>
      property(st.integers({ min: 0, max: 3 }), simTest({ seeds: 2 }, workload), { ...quiet, database: db });
    const failing = mk(async () => {
      await sim.sleep(1);
      throw new Error("fails");
    });
    const passing = mk(async () => {
      await sim.sleep(2);
    });
    try {
      await failing();
      assert.fail("expected the simTest property to fail");
    } catch (e) {
      assert.ok(e instanceof PropertyFailure, String(e));
    }
    await passing();
    assert.equal(new Set(db.keys).size, 2, db.keys.join("\n"));
    assert.equal(db.inner.fetch(db.keys[0]!).length, 1, "the failing simTest's example survives the passing one's run");
  });

  it("one property run under two test names keeps two keys; the same test re-run keeps its key", () => {
    const db = new KeyRecordingDatabase();
    const p = property(st.integers(), () => {}, { ...quiet, maxExamples: 2, database: db });
    const run = p as unknown as (this: unknown, ...a: unknown[]) => void;
    run.call(undefined, { name: "a", fullName: "suite > a" });
    run.call(undefined, { name: "b", fullName: "suite > b" });
    run.call(undefined, { name: "a", fullName: "suite > a" });
    assert.match(db.keys[0]!, /::property::suite > a::[0-9a-f]{16}#0$/);
    assert.match(db.keys[1]!, /::property::suite > b::[0-9a-f]{16}#0$/);
    assert.equal(db.keys[2], db.keys[0]);
    assert.ok(
      db.keys[0]!.startsWith("test/engine/databases/keys-and-hostile-databases.test.ts::"),
      `relative to the working folder: ${db.keys[0]}`,
    );
  });

  it("find() keys differ from a property's with the same strategy, and between predicates", () => {
    const db = new KeyRecordingDatabase();
    find(st.integers(), (x) => x > 10, { database: db });
    find(st.integers(), (x) => x < -10, { database: db });
    const p = property(st.integers(), () => {}, { ...quiet, maxExamples: 1, database: db });
    p();
    assert.equal(new Set(db.keys).size, 3, db.keys.join("\n"));
    assert.match(db.keys[0]!, /::find::/);
  });

  it("the user's key setting wins and is checked: a non-empty string", () => {
    const db = new KeyRecordingDatabase();
    property(st.integers(), () => {}, { maxExamples: 1, database: db, key: "mine" })();
    check(
      property(st.integers(), () => {}),
      { maxExamples: 1, database: db, key: "also mine" },
    );
    assert.deepEqual(db.keys, ["mine", "also mine"]);
    for (const key of ["", 42, null, {}]) {
      assert.throws(
        () => property(st.integers(), () => {}, { key } as never),
        (e: unknown) =>
          e instanceof InvalidArgument && /^property: key must be a non-empty string/.test((e as Error).message),
      );
      assert.throws(
        () =>
          check(
            property(st.integers(), () => {}),
            { key } as never,
          ),
        (e: unknown) => e instanceof InvalidArgument && /^check: key/.test((e as Error).message),
      );
      assert.throws(
        () => find(st.integers(), () => true, { key } as never),
        (e: unknown) => e instanceof InvalidArgument && /^find: key/.test((e as Error).message),
      );
    }
  });

  it("a key with path separators, dots or 10,000 characters is stored under its hash and round-trips", () => {
    const dir = tempDir("redteam-db");
    const db = new DirectoryDatabase(dir, { warn: (m) => assert.fail(m) });
    const keys = ["../../etc/passwd", "a/b\\c:d", "..", "k".repeat(10_000), "\u0000nul"];
    keys.forEach((k, i) => db.save(k, [i]));
    keys.forEach((k, i) => assert.deepEqual(db.fetch(k), [[i]]));
    const folders = fs.readdirSync(dir);
    assert.equal(folders.length, keys.length);
    for (const f of folders) assert.match(f, /^[0-9a-f]{16}$/);
    assert.deepEqual(
      fs.readdirSync(path.dirname(dir)).filter((n) => n === "etc"),
      [],
    );
  });

  it("a key is stable across whitespace edits, new tests above, and re-running; the runner-style test name is used", () => {
    const dir = tempDir("redteam-db");
    const engine = JSON.stringify(path.join(PROJECT_ROOT, "src", "engine", "index.ts"));
    const prelude = `import { test } from "node:test";\nimport { property, check, st } from ${engine};\nconst keys: string[] = [];\nconst db = { fetch(k: string) { keys.push(k); return []; }, save() {}, delete() {} };\nprocess.on("exit", () => console.log("KEYS" + JSON.stringify(keys)));\n`;
    const named = `test("named", property(st.lists(st.integers()), (xs) => { xs.sort(); }, { database: db, maxExamples: 1 }));\n`;
    const nameless = `test("nameless", () => check(property(st.text(), (s) => { s.trim(); }), { database: db, maxExamples: 1 }));\n`;
    const v1 = prelude + named + nameless;
    // Reformatted, and a new test above each, one with the same strategies.
    const v2 =
      prelude +
      `test("new", property(st.lists(st.integers()), (ys) => { ys.reverse(); }, { database: db, maxExamples: 1 }));\n\n\n` +
      named.replace("(xs) => {", "(xs) =>   {\n   ").replace(/, \{ database/, ",\n  { database") +
      `test("new 2", () => check(property(st.booleans(), (b) => {}), { database: db, maxExamples: 1 }));\n` +
      nameless.replace("(s) => { s.trim(); }", "(s) => {\n  s.trim();\n}");
    const keysOf = (source: string): string[] => {
      fs.writeFileSync(path.join(dir, "props.test.ts"), source);
      const env = { ...process.env };
      delete env.NODE_TEST_CONTEXT;
      const r = spawnSync(process.execPath, ["--import", pathToFileURL(require.resolve("tsx")).href, "props.test.ts"], {
        cwd: dir,
        env,
        encoding: "utf8",
      });
      const line = r.stdout.split("\n").find((l) => l.includes("KEYS["));
      assert.ok(line, r.stdout + r.stderr);
      return JSON.parse(line.slice(line.indexOf("KEYS") + 4)) as string[];
    };
    const before = keysOf(v1);
    assert.equal(before.length, 2);
    assert.match(before[0]!, /^props\.test\.ts::property::named::[0-9a-f]{16}#0$/);
    assert.match(before[1]!, /^props\.test\.ts::property::[0-9a-f]{16}\.[0-9a-f]{16}#0$/);
    assert.deepEqual(keysOf(v1), before, "re-running");
    const edited = keysOf(v2);
    assert.equal(edited.length, 4);
    assert.deepEqual([edited[1], edited[3]], before);
  });
});

describe("the key's parts", () => {
  it("a call site's file, line and column are read from each form of stack line (the key's file depends on it)", () => {
    const cases: [string, ReturnType<typeof framePosition>][] = [
      [
        "    at Object.<anonymous> (file:///home/u/app/sum.test.mjs:5:3)",
        { file: "file:///home/u/app/sum.test.mjs", line: "5", column: "3" },
      ],
      [
        "    at file:///home/u/app/sum.test.mjs:12:10",
        { file: "file:///home/u/app/sum.test.mjs", line: "12", column: "10" },
      ],
      [
        "    at Suite.<anonymous> (/home/u/app/test/sum.test.js:7:21)",
        { file: "/home/u/app/test/sum.test.js", line: "7", column: "21" },
      ],
      ["    at C:\\work\\app\\sum.test.ts:3:1", { file: "C:\\work\\app\\sum.test.ts", line: "3", column: "1" }],
      [
        "    at async t (/home/u/app/a b/sum.test.ts:1:2)",
        { file: "/home/u/app/a b/sum.test.ts", line: "1", column: "2" },
      ],
      // A folder with parentheses in its name keeps only what follows the last one, as the key always had.
      ["    at f (/home/u/My (1)/sum.test.ts:4:5)", { file: "/sum.test.ts", line: "4", column: "5" }],
      ["    at async Promise.all (index 0)", undefined],
      ["    at new Promise (<anonymous>)", undefined],
    ];
    for (const [line, want] of cases) assert.deepEqual(framePosition(line), want, line);
  });

  it("test names: mocha's this, node:test's t, vitest's task with its suites, jest's expect state", () => {
    assert.equal(testNameFrom({ test: { fullTitle: () => "outer inner" } }, []), "outer inner");
    assert.equal(testNameFrom(undefined, [{ name: "inner", fullName: "outer > inner" }]), "outer > inner");
    // Node before 20.16: a bare name is not unique in a file, so it does not name the key.
    assert.equal(testNameFrom(undefined, [{ name: "inner" }]), undefined);
    const file = { name: "a.test.ts", type: "suite" };
    const task = { name: "t", file, suite: { name: "inner", suite: { name: "outer", suite: file } } };
    assert.equal(testNameFrom(undefined, [{ task }]), "outer > inner > t");
    const g = globalThis as Record<string, unknown>;
    const saved = g.expect;
    g.expect = { getState: () => ({ currentTestName: "jest name" }) };
    try {
      assert.equal(testNameFrom(undefined, []), "jest name");
    } finally {
      if (saved === undefined) delete g.expect;
      else g.expect = saved;
    }
    assert.equal(testNameFrom(undefined, []), undefined);
    // Hostile values never throw.
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("no");
        },
      },
    );
    assert.equal(testNameFrom(hostile, [hostile]), undefined);
  });

  it("keys not made by property()/find() (a user's key) are never rewritten", () => {
    assert.equal(keyForRun("mine", "some test"), "mine");
  });

  it("the shape tells strategies apart, ignores function text unless asked, survives cycles, never forces a thunk", () => {
    assert.notEqual(shapeOf([st.integers({ min: 0 })], false), shapeOf([st.integers({ min: 1 })], false));
    assert.notEqual(shapeOf([st.lists(st.integers())], false), shapeOf([st.lists(st.booleans())], false));
    assert.equal(shapeOf([st.integers().map((x) => x + 1)], false), shapeOf([st.integers().map((x) => x * 2)], false));
    assert.notEqual(shapeOf([st.integers().map((x) => x + 1)], true), shapeOf([st.integers().map((x) => x * 2)], true));
    let forced = 0;
    const pair = st.tuples(
      st.integers(),
      st.deferred(() => (forced++, st.integers())),
    );
    const before = shapeOf([pair], true);
    assert.equal(forced, 0, "the thunk is not called by the walk");
    find(pair, () => true, { database: null });
    assert.equal(forced, 1);
    assert.equal(shapeOf([pair], true), before, "same shape after the deferred strategy resolved");
    // recursive: its deferred self resolves to the strategy itself, a cycle.
    const rec = st.recursive<unknown>(st.integers(), (self) => st.lists(self, { minSize: 1, maxSize: 1 }));
    const recBefore = shapeOf([rec], false);
    assert.match(recBefore, /Recursive/);
    find(rec, (v) => Array.isArray(v), { database: null });
    assert.equal(shapeOf([rec], false), recBefore);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    let getterCalls = 0;
    const withGetter = Object.defineProperty({}, "g", { enumerable: true, get: () => ++getterCalls });
    assert.match(
      shapeOf(
        [st.just(cyclic), st.just(withGetter), st.sampledFrom(Array.from({ length: 100_000 }, (_, i) => i))],
        false,
      ),
      /@\d/,
    );
    assert.equal(getterCalls, 0, "getters are not called");
  });

  it("a strategy's shape is the same after it has drawn: what it keeps while drawing is not part of its key", () => {
    const strategies = [
      st.text(), // its alphabet's table of simplest characters is made by the first draw
      st.dates(),
      st.dates({ min: new Date(0), max: new Date(10 ** 12) }),
      st.bigints({ min: -(2n ** 70n), max: 2n ** 70n }),
      st.fromRegex(/^(a|b)+\b.$/),
      st.subsequences([1, 2, 3, 4], { minSize: 1 }),
      st.sets(st.integers()),
      st.dictionaries(st.text(), st.integers()),
      st.records({ id: st.integers() }, { optional: { note: st.text() } }),
      st.emails(),
      st.urls(),
      st.characters({ categories: ["Lu"] }),
      st.json(),
      st.anything(),
      st.functions({ returns: st.integers() }),
    ];
    for (const s of strategies) {
      const before = [shapeOf([s], false), shapeOf([s], true)];
      check(
        property(s, () => {}),
        { database: null, deadline: null, seed: 1, maxExamples: 200 },
      );
      assert.deepEqual([shapeOf([s], false), shapeOf([s], true)], before, before[0].slice(0, 60));
    }
  });
});

// ------------------------------------------------------------------------------------------------ custom databases

describe("custom databases", () => {
  it("are checked for fetch, save and delete when settings are validated, naming the missing method", () => {
    const partial = { fetch: () => [] };
    for (const make of [
      () => property(st.integers(), () => {}, { database: partial as never }),
      () =>
        check(
          property(st.integers(), () => {}),
          { database: partial as never },
        ),
      () => find(st.integers(), () => true, { database: partial as never }),
    ]) {
      assert.throws(
        make,
        (e: unknown) =>
          e instanceof InvalidArgument && /database must be .*no save, delete method/.test((e as Error).message),
      );
    }
    assert.throws(
      () => property(st.integers(), () => {}, { database: 42 as never }),
      /property: database must be a folder path/,
    );
  });

  const failing = (database: ExampleDatabase) =>
    property(st.integers(), (x) => assert.ok(x < 10, "x < 10"), { ...quiet, database });

  it("a database whose fetch, save and delete throw: warnings, and the failure is still reported", () => {
    const boom = (what: string) => () => {
      throw new Error(`${what}: EIO`);
    };
    const db: ExampleDatabase = { fetch: boom("fetch"), save: boom("save"), delete: boom("delete") };
    let failure: PropertyFailure | undefined;
    const warnings = warningsOf(() => (failure = runsToFailure(failing(db))));
    assert.deepEqual(failure?.args, [10]);
    assert.ok(
      warnings.some((w) => /^Shrinkscope: custom database fetch failed.*fetch: EIO/.test(w)),
      warnings.join("\n"),
    );
    assert.ok(
      warnings.some((w) => /^Shrinkscope: custom database save failed .*save: EIO/.test(w)),
      warnings.join("\n"),
    );
  });

  it("delete that throws while replaying a fixed failure: a warning, and the run passes", () => {
    const db: ExampleDatabase = {
      fetch: () => [[0]],
      save: () => {},
      delete: () => {
        throw new Error("read-only");
      },
    };
    const warnings = warningsOf(() => property(st.integers(), () => {}, { ...quiet, database: db })());
    assert.ok(
      warnings.some((w) => /custom database delete failed .*read-only/.test(w)),
      warnings.join("\n"),
    );
  });

  it("garbage from fetch is skipped entry by entry with a warning; good entries are still replayed", () => {
    const garbage: unknown[] = [null, 7, [{}], [1n], [undefined], "[20]", [20]];
    const db: ExampleDatabase = { fetch: () => garbage as StoredChoice[][], save: () => {}, delete: () => {} };
    let failure: PropertyFailure | undefined;
    const warnings = warningsOf(
      () =>
        (failure = runsToFailure(
          property(st.integers(), (x) => assert.ok(x < 20, "x < 20"), { ...quiet, database: db, phases: ["reuse"] }),
        )),
    );
    assert.deepEqual(failure?.args, [20], "the one valid saved example was replayed");
    assert.equal(
      warnings.filter((w) => /custom database fetch: skipping entry/.test(w)).length,
      6,
      warnings.join("\n"),
    );
    for (const notArray of [{}, "x", 3, undefined]) {
      const w = warningsOf(() =>
        property(st.integers(), () => {}, {
          ...quiet,
          maxExamples: 1,
          database: { fetch: () => notArray as never, save() {}, delete() {} },
        })(),
      );
      assert.equal(w.length, 1);
      assert.match(w[0]!, /custom database fetch returned .*not an array/);
    }
  });

  it("an asynchronous database: fetch's promise is refused with a warning; a rejected save warns instead of crashing", async () => {
    const warnings: string[] = [];
    const m = mock.method(console, "warn", (...a: unknown[]) => void warnings.push(a.map(String).join(" ")));
    try {
      const db = {
        fetch: async () => [[10]],
        save: async () => {
          throw new Error("disk full");
        },
        delete: async () => {},
      };
      const failure = runsToFailure(failing(db as never));
      assert.deepEqual(failure.args, [10]);
      await new Promise((r) => setImmediate(r));
      assert.ok(
        warnings.some((w) => /fetch returned a promise/.test(w)),
        warnings.join("\n"),
      );
      assert.ok(
        warnings.some((w) => /custom database save failed .*disk full/.test(w)),
        warnings.join("\n"),
      );
    } finally {
      m.mock.restore();
    }
  });

  it("GuardedDatabase hands good data through untouched", () => {
    const inner = new InMemoryDatabase();
    const warnings: string[] = [];
    const g = new GuardedDatabase(inner, "test database", { warn: (m) => void warnings.push(m) });
    const bytes = new Uint8Array([1, 2]);
    g.save("k", [1, -0, "s", true, bytes]);
    const [got] = g.fetch("k");
    assert.equal(got!.length, 5);
    assert.ok(Object.is(got![1], -0));
    g.delete("k", [1, -0, "s", true, bytes]);
    assert.deepEqual(g.fetch("k"), []);
    assert.deepEqual(warnings, []);
  });
});

describe('database: ""', () => {
  let cwd = "";
  beforeEach(() => {
    cwd = process.cwd();
    process.chdir(tempDir("redteam-db"));
  });
  afterEach(() => process.chdir(cwd));

  it("turns the database off, as the extension's setting does: nothing is written, nothing claims to be saved", () => {
    for (const database of ["", "   "]) {
      const failure = runsToFailure(
        property(st.integers(), (x) => assert.ok(x < 10, "x < 10"), { ...quiet, database }),
      );
      assert.deepEqual(fs.readdirSync(process.cwd()), [], "no example folders in the working folder");
      assert.doesNotMatch(failure.message, /saved in the database/);
    }
  });
});

// ------------------------------------------------------------------------------------------------ the folder

describe("DirectoryDatabase against a hostile file system", () => {
  function recording(dir: string): { db: DirectoryDatabase; warnings: string[] } {
    const warnings: string[] = [];
    return { db: new DirectoryDatabase(dir, { warn: (m) => warnings.push(m) }), warnings };
  }

  // The properties' assertions in this file carry their own messages: without one, Node's assert reads the test's
  // source through the fs functions mocked here to write its message, and that search can spin without end.
  function withFsMock<T>(
    name: "openSync" | "readdirSync" | "writeFileSync",
    impl: (...a: never[]) => unknown,
    f: () => T,
  ): T {
    const m = mock.method(nodeFs, name, impl as never);
    syncBuiltinESMExports();
    try {
      return f();
    } finally {
      m.mock.restore();
      syncBuiltinESMExports();
    }
  }

  const errno = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });

  it("a database path under a regular file (ENOTDIR): warnings; the property's failure is reported", () => {
    const file = path.join(tempDir("redteam-db"), "a-file");
    fs.writeFileSync(file, "x");
    const dir = path.join(file, "examples");
    let failure: PropertyFailure | undefined;
    const warnings = warningsOf(
      () =>
        (failure = runsToFailure(
          property(st.integers(), (x) => assert.ok(x < 10, "x < 10"), { ...quiet, database: dir }),
        )),
    );
    assert.deepEqual(failure?.args, [10]);
    assert.ok(
      warnings.some((w) => w.includes("cannot read example database") && w.includes(dir)),
      warnings.join("\n"),
    );
    assert.ok(
      warnings.some((w) => w.includes("could not save example")),
      warnings.join("\n"),
    );
  });

  it("a file where a key's folder should be: fetch and save warn, nothing throws", () => {
    const dir = tempDir("redteam-db");
    const { db, warnings } = recording(dir);
    db.save("k", [1]);
    const keyDir = path.join(dir, fs.readdirSync(dir)[0]!);
    fs.rmSync(keyDir, { recursive: true });
    fs.writeFileSync(keyDir, "not a folder");
    assert.deepEqual(db.fetch("k"), []);
    db.save("k", [2]);
    db.delete("k", [1]);
    assert.equal(warnings.length, 2, warnings.join("\n"));
    assert.match(warnings[0]!, /cannot read example folder/);
    assert.match(warnings[1]!, /could not save example/);
  });

  it("an unreadable folder (EACCES; root ignores chmod, so simulated): a warning, no examples", () => {
    const dir = tempDir("redteam-db");
    const { db, warnings } = recording(dir);
    db.save("k", [1]);
    const real = nodeFs.readdirSync;
    const got = withFsMock(
      "readdirSync",
      ((p: fs.PathLike, o?: never) =>
        String(p).startsWith(dir)
          ? (() => {
              throw errno("EACCES");
            })()
          : real(p, o)) as never,
      () => db.fetch("k"),
    );
    assert.deepEqual(got, []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /cannot read example folder .*EACCES/);
  });

  it("an example file that cannot be opened (EACCES) is not called corrupt", () => {
    const dir = tempDir("redteam-db");
    const { db, warnings } = recording(dir);
    db.save("k", [1]);
    const real = nodeFs.openSync;
    const got = withFsMock(
      "openSync",
      ((p: fs.PathLike, flags?: fs.OpenMode) =>
        String(p).endsWith(".json")
          ? (() => {
              throw errno("EACCES");
            })()
          : real(p, flags ?? "r")) as never,
      () => db.fetch("k"),
    );
    assert.deepEqual(got, []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^Shrinkscope: cannot read example file .*EACCES/);
  });

  it("a disk that is full (ENOSPC) or read-only (EROFS): save warns, the failure is reported", () => {
    for (const code of ["ENOSPC", "EROFS"]) {
      const dir = tempDir("redteam-db");
      let failure: PropertyFailure | undefined;
      const warnings = warningsOf(() =>
        withFsMock(
          "writeFileSync",
          (() => {
            throw errno(code);
          }) as never,
          () =>
            (failure = runsToFailure(
              property(st.integers(), (x) => assert.ok(x < 10, "x < 10"), { ...quiet, database: dir }),
            )),
        ),
      );
      assert.deepEqual(failure?.args, [10]);
      assert.ok(
        warnings.some((w) => w.includes("could not save example") && w.includes(code)),
        warnings.join("\n"),
      );
    }
  });

  it("a file deleted by another process between readdir and open is not reported as corrupt", () => {
    const dir = tempDir("redteam-db");
    const { db, warnings } = recording(dir);
    db.save("k", [1]);
    db.save("k", [2]);
    const real = nodeFs.readdirSync;
    // readdir still lists a file another process has just removed.
    const got = withFsMock(
      "readdirSync",
      ((p: fs.PathLike, o?: never) => [...(real(p, o) as string[]), "0000000000000000.json"]) as never,
      () => db.fetch("k"),
    );
    assert.equal(got.length, 2);
    assert.deepEqual(warnings, []);
  });

  it("a delete does not remove an example another process saved again after this one fetched it", () => {
    const dir = tempDir("redteam-db");
    const a = recording(dir);
    const b = recording(dir);
    b.db.save("k", [5]);
    const file = path.join(
      dir,
      fs.readdirSync(dir)[0]!,
      fs.readdirSync(path.join(dir, fs.readdirSync(dir)[0]!)).find((n) => n.endsWith(".json"))!,
    );
    fs.utimesSync(file, 1_000, 1_000);
    assert.deepEqual(a.db.fetch("k"), [[5]]); // A replays it...
    b.db.save("k", [5]); // ...while B fails on it again and saves it
    a.db.delete("k", [5]); // A's replay passed (say it fixed the bug locally): its delete must not take B's failure
    assert.deepEqual(b.db.fetch("k"), [[5]]);
    // Without a save in between, the delete goes through.
    assert.deepEqual(a.db.fetch("k"), [[5]]);
    a.db.delete("k", [5]);
    assert.deepEqual(b.db.fetch("k"), []);
    assert.deepEqual([...a.warnings, ...b.warnings], []);
  });

  it(
    "several processes saving, deleting and fetching one key at once: never a warning",
    { timeout: 60_000 },
    async () => {
      const dir = tempDir("redteam-db");
      const script = path.join(dir, "churn.ts");
      fs.writeFileSync(
        script,
        `import { DirectoryDatabase } from ${JSON.stringify(path.join(PROJECT_ROOT, "src", "engine", "databases", "directory.ts"))};
const db = new DirectoryDatabase(process.argv[2]!, { warn: (m) => { console.error(m); process.exitCode = 1; } });
const end = Date.now() + 1500;
for (let i = 0; Date.now() < end; i++) { db.save("shared", [i % 4, "x".repeat(2000)]); db.fetch("shared"); db.delete("shared", [(i + 2) % 4, "x".repeat(2000)]); }
`,
      );
      const examples = path.join(dir, "examples");
      const children = Array.from({ length: 3 }, () => {
        const child = spawn(process.execPath, ["--import", "tsx", script, examples], {
          cwd: PROJECT_ROOT,
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        return new Promise<{ code: number | null; stderr: string }>((resolve) =>
          child.on("close", (code) => resolve({ code, stderr })),
        );
      });
      for (const { code, stderr } of await Promise.all(children)) assert.equal(code, 0, stderr);
      const { db, warnings } = recording(examples);
      for (const choices of db.fetch("shared")) assert.equal(encodeChoices(choices).length > 2000, true);
      assert.deepEqual(warnings, []);
    },
  );
});

describe("custom databases that return or throw hostile values", () => {
  // Its own body text, so these properties' keys (and derandomized seeds) do not shift the other tests' keys.
  const fail = (database: unknown) =>
    property(st.integers(), (x) => assert.ok(x < 10, "hostile database"), {
      ...quiet,
      database: database as ExampleDatabase,
    });
  const withFetch = (fetch: () => unknown) => ({ fetch, save() {}, delete() {} });
  /** The run ends with the property's own failure, and every warning is a Shrinkscope database warning. */
  function stillFails(database: unknown, warned: RegExp): string[] {
    let failure: PropertyFailure | undefined;
    const warnings = warningsOf(() => (failure = runsToFailure(fail(database))));
    assert.deepEqual(failure?.args, [10]);
    assert.ok(
      warnings.some((w) => warned.test(w)),
      warnings.join("\n"),
    );
    return warnings;
  }

  it("fetch returning a Proxy array whose traps throw, or a revoked Proxy: a warning, the failure is reported", () => {
    const trapped = new Proxy([[1]], {
      get(t, k) {
        if (k === "length" || k === "forEach") throw new Error("proxy get");
        return Reflect.get(t, k);
      },
    });
    stillFails(
      withFetch(() => trapped),
      /custom database fetch failed.*proxy get/,
    );
    const r = Proxy.revocable([], {});
    r.revoke();
    stillFails(
      withFetch(() => r.proxy),
      /custom database fetch failed/,
    );
  });

  it("fetch returning arrays with throwing index getters: that entry is skipped, the others are replayed", () => {
    const badEntry = [1];
    Object.defineProperty(badEntry, 0, {
      get() {
        throw new Error("idx getter");
      },
    });
    stillFails(
      withFetch(() => [badEntry]),
      /skipping entry 0.*idx getter/,
    );
    const outer: unknown[] = [[1], [20]];
    Object.defineProperty(outer, 0, {
      get() {
        throw new Error("outer getter");
      },
    });
    let failure: PropertyFailure | undefined;
    const warnings = warningsOf(
      () =>
        (failure = runsToFailure(
          property(st.integers(), (x) => assert.ok(x < 20, "x < 20"), {
            ...quiet,
            database: withFetch(() => outer) as ExampleDatabase,
            phases: ["reuse"],
          }),
        )),
    );
    assert.deepEqual(failure?.args, [20], "entry 1 was still replayed");
    assert.ok(
      warnings.some((w) => /skipping entry 0.*outer getter/.test(w)),
      warnings.join("\n"),
    );
  });

  it("the engine gets fresh arrays and bytes, never the objects fetch returned", () => {
    const warnings: string[] = [];
    const bytes = new Uint8Array([7]);
    const entry: StoredChoice[] = [1, bytes];
    const outer = [entry];
    const g = new GuardedDatabase(withFetch(() => outer) as ExampleDatabase, "custom database", {
      warn: (m) => void warnings.push(m),
    });
    const got = g.fetch("k")[0];
    assert.notEqual(got, entry);
    assert.notEqual(got![1], bytes);
    assert.deepEqual(got, [1, new Uint8Array([7])]);
    assert.equal(warnings.length, 0, warnings.join("\n"));
    // A Proxy posing as a Uint8Array (instanceof passes) is not one.
    const fake = new Proxy(new Uint8Array([1]), {});
    assert.deepEqual(
      new GuardedDatabase(withFetch(() => [[fake]]) as ExampleDatabase, "custom database", {
        warn: (m: string) => void warnings.push(m),
      }).fetch("k"),
      [],
    );
    assert.match(warnings.join("\n"), /skipping entry 0: choice 0/);
  });

  it("a huge sparse array from fetch is read only up to a cap, with a bounded number of warnings", () => {
    const warnings: string[] = [];
    const g = new GuardedDatabase(withFetch(() => new Array(2 ** 32 - 1)) as ExampleDatabase, "custom database", {
      warn: (m) => void warnings.push(m),
    });
    assert.deepEqual(g.fetch("k"), []);
    assert.ok(warnings.length <= 12, warnings.join("\n"));
    assert.ok(
      warnings.some((w) => /only the first/.test(w)),
      warnings.join("\n"),
    );
  });

  it("fetch returning a thenable whose then getter or then call throws: a warning, not a hang or a crash", () => {
    const thenGetter = {
      get then() {
        throw new Error("then getter");
      },
    };
    stillFails(
      withFetch(() => thenGetter),
      /custom database fetch/,
    );
    const thenThrows = {
      then() {
        throw new Error("then call");
      },
    };
    stillFails(
      withFetch(() => thenThrows),
      /fetch must be synchronous/,
    );
  });

  it("thrown values that cannot be printed (null prototype, throwing toString, throwing message getter) are warnings", () => {
    const nullProto = () => {
      throw Object.create(null);
    };
    const badToString = () => {
      throw {
        toString() {
          throw new Error("ts");
        },
      };
    };
    const badMessage = () => {
      const e = new Error("x");
      Object.defineProperty(e, "message", {
        get() {
          throw new Error("msg getter");
        },
      });
      throw e;
    };
    const revoked = () => {
      const r = Proxy.revocable({}, {});
      r.revoke();
      throw r.proxy;
    };
    for (const thrower of [nullProto, badToString, badMessage, revoked]) {
      stillFails({ fetch: thrower, save() {}, delete() {} }, /custom database fetch failed/);
      stillFails({ fetch: () => [], save: thrower, delete() {} }, /custom database save failed/);
      const warnings = warningsOf(() =>
        property(st.integers(), (x) => void x, {
          ...quiet,
          database: { fetch: () => [[1]], save() {}, delete: thrower },
        })(),
      );
      assert.ok(
        warnings.some((w) => /custom database delete failed/.test(w)),
        warnings.join("\n"),
      );
    }
  });

  it("an async save rejecting with an unprintable value warns; the process does not crash", () => {
    const engine = JSON.stringify(path.join(PROJECT_ROOT, "src", "engine", "index.ts"));
    const script = [
      `import { property, check, st, PropertyFailure } from ${engine};`,
      `const ok = (x: number) => { if (x > 10) throw new Error("big"); };`,
      `const rejectWith = (v: () => unknown) => ({ fetch: () => [], save: async () => { throw v(); }, delete() {} });`,
      `const bad: (() => unknown)[] = [() => Object.create(null), () => ({ toString() { throw new Error("ts"); } }), () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; }];`,
      `for (const v of bad) {`,
      `  try { check(property(st.integers(), ok), { database: rejectWith(v), deadline: null }); console.log("NO FAILURE"); }`,
      `  catch (e) { console.log(e instanceof PropertyFailure ? "FAILURE" : "OTHER " + String(e)); }`,
      `}`,
      `setTimeout(() => console.log("ALIVE"), 50);`,
    ].join("\n");
    const dir = tempDir("redteam-db");
    fs.writeFileSync(path.join(dir, "crash.mts"), script);
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const r = spawnSync(process.execPath, ["--import", pathToFileURL(require.resolve("tsx")).href, "crash.mts"], {
      cwd: dir,
      env,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(r.stdout.trim().split("\n"), ["FAILURE", "FAILURE", "FAILURE", "ALIVE"], r.stdout + r.stderr);
    assert.equal((r.stderr.match(/custom database save failed/g) ?? []).length, 3, r.stderr);
  });
});

describe("the key of huge values inside strategies", () => {
  it("a 2^32-1-element sparse array, a big Map and Set in st.just: the key is made at once (bounded walk), and sizes tell them apart", () => {
    // Pinned: the shape walked every element, so property(st.just(new Array(2 ** 32 - 1)), …) never returned.
    const sparse = shapeOf(st.just(new Array(2 ** 32 - 1)), false);
    assert.match(sparse, /\[4294967295:/);
    assert.ok(sparse.length < 100_000, `shape of ${sparse.length} characters`);
    const map = (n: number) => new Map(Array.from({ length: n }, (_, i) => [i, i]));
    assert.notEqual(shapeOf(st.just(map(200_000)), false), shapeOf(st.just(map(200_001)), false));
    assert.notEqual(
      shapeOf(st.just(new Set(map(50_000).keys())), false),
      shapeOf(st.just(new Set(map(50_001).keys())), false),
    );
    check(
      property(st.just(new Array(2 ** 32 - 1)), (a) => assert.equal(a.length, 2 ** 32 - 1)),
      { database: null, maxExamples: 2 },
    );
  });
});
