import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import nodeFs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import * as path from "node:path";
import { describe, it, mock } from "node:test";
import { DirectoryDatabase } from "../../../src/engine/databases/directory.ts";
import { InMemoryDatabase } from "../../../src/engine/databases/inMemory.ts";
import { decodeChoices, encodeChoices } from "../../../src/engine/databases/encoding.ts";
import type { ExampleDatabase, StoredChoice } from "../../../src/engine/databases/exampleDatabase.ts";
import { tempDir } from "../helpers.ts";

const PROJECT_ROOT = path.resolve(__dirname, "..", "..", "..");
function keyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex").slice(0, 16);
}

/** A DirectoryDatabase that records its warnings instead of printing them. */
function recordingDb(dir: string): { db: DirectoryDatabase; warnings: string[] } {
  const warnings: string[] = [];
  return { db: new DirectoryDatabase(dir, { warn: (m) => warnings.push(m) }), warnings };
}

function jsonFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((name) => name.endsWith(".json"));
}

/** Element-wise equality that tells -0 from 0, matches NaN, and compares bytes by value and type. */
function assertSameChoices(actual: readonly StoredChoice[], expected: readonly StoredChoice[]): void {
  assert.equal(actual.length, expected.length, "length");
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const e = expected[i];
    if (e instanceof Uint8Array) {
      assert.ok(a instanceof Uint8Array, `choice ${i} should be a Uint8Array`);
      assert.deepEqual([...a], [...e], `choice ${i} bytes`);
    } else {
      assert.ok(Object.is(a, e), `choice ${i}: expected ${String(e)}, got ${String(a)}`);
    }
  }
}

const allBytes = Uint8Array.from({ length: 256 }, (_, i) => i);
const TRICKY: StoredChoice[] = [
  0,
  -0,
  NaN,
  Infinity,
  -Infinity,
  1e-308,
  5e-324,
  -5e-324,
  Number.MAX_VALUE,
  Number.MAX_SAFE_INTEGER + 2,
  0.1 + 0.2,
  -123.456,
  true,
  false,
  "",
  "\ud800",
  "\udfff",
  "a\udc00b\ud83d",
  "😀👨‍👩‍👧",
  'quote " backslash \\ newline \n nul \u0000',
  allBytes,
  new Uint8Array(0),
  new Uint8Array([0]),
  new Uint8Array([255, 254]),
];

describe("encodeChoices / decodeChoices", () => {
  it("round-trips tricky values exactly", () => {
    assertSameChoices(decodeChoices(encodeChoices(TRICKY)), TRICKY);
  });

  it("writes the versioned, tagged format", () => {
    const parsed = JSON.parse(encodeChoices([5, -0, NaN, true, "x", new Uint8Array([1, 2, 3])]));
    assert.deepEqual(parsed, {
      format: "shrinkscope-choices",
      version: 1,
      choices: [{ n: 5 }, { n: "-0" }, { n: "NaN" }, { b: true }, { s: "x" }, { y: "AQID" }],
    });
  });

  it("escapes lone surrogates so the file is valid UTF-8", () => {
    const text = encodeChoices(["\ud800"]);
    assert.ok(text.includes("\\ud800"));
    assert.equal(Buffer.from(text, "utf8").toString("utf8"), text);
  });

  it("encodes a Uint8Array view with an offset, not its whole buffer", () => {
    const view = new Uint8Array([9, 1, 2, 9]).subarray(1, 3);
    assertSameChoices(decodeChoices(encodeChoices([view])), [new Uint8Array([1, 2])]);
  });

  it("returns plain Uint8Arrays, not Buffers", () => {
    const [bytes] = decodeChoices(encodeChoices([new Uint8Array([1])]));
    assert.equal(Object.getPrototypeOf(bytes), Uint8Array.prototype);
  });

  it("rejects unencodable values", () => {
    assert.throws(() => encodeChoices([1, {} as unknown as StoredChoice]), /choice 1/);
  });

  const wrap = (choices: unknown): string => JSON.stringify({ format: "shrinkscope-choices", version: 1, choices });
  const malformed: [string, string, RegExp][] = [
    ["truncated JSON", encodeChoices([1, 2]).slice(0, -3), /invalid JSON/],
    ["empty text", "", /invalid JSON/],
    ["a JSON array", "[]", /expected a JSON object, got an array/],
    ["JSON null", "null", /expected a JSON object, got null/],
    ["wrong format", JSON.stringify({ format: "other", version: 1, choices: [] }), /"format"/],
    ["missing format", JSON.stringify({ version: 1, choices: [] }), /"format"/],
    [
      "wrong version",
      JSON.stringify({ format: "shrinkscope-choices", version: 2, choices: [] }),
      /unsupported version 2/,
    ],
    [
      "string version",
      JSON.stringify({ format: "shrinkscope-choices", version: "1", choices: [] }),
      /unsupported version "1"/,
    ],
    ["missing version", JSON.stringify({ format: "shrinkscope-choices", choices: [] }), /unsupported version/],
    [
      "extra field",
      JSON.stringify({ format: "shrinkscope-choices", version: 1, choices: [], x: 1 }),
      /unexpected field.*"x"/,
    ],
    ["choices not an array", wrap({}), /"choices" must be an array/],
    ["missing choices", JSON.stringify({ format: "shrinkscope-choices", version: 1 }), /"choices" must be an array/],
    ["bare value", wrap([5]), /choices\[0\] must be an object/],
    ["null choice", wrap([{ n: 1 }, null]), /choices\[1\] must be an object/],
    ["unknown tag", wrap([{ q: 1 }]), /choices\[0\]: unknown tag "q"/],
    ["two tags", wrap([{ n: 1, b: true }]), /choices\[0\] must have exactly one tag/],
    ["no tags", wrap([{}]), /exactly one tag/],
    ["bad special number", wrap([{ n: "nan" }]), /choices\[0\]: "n" must be/],
    ["numeric string", wrap([{ n: "5" }]), /"n" must be/],
    ["overflowing literal", '{"format":"shrinkscope-choices","version":1,"choices":[{"n":1e400}]}', /out of range/],
    ["non-boolean b", wrap([{ b: 1 }]), /"b" must be a boolean/],
    ["non-string s", wrap([{ s: 5 }]), /"s" must be a string/],
    ["non-string y", wrap([{ y: [1] }]), /"y" must be a base64 string/],
    ["bad base64 chars", wrap([{ y: "AQ!D" }]), /"y" is not valid base64/],
    ["unpadded base64", wrap([{ y: "AQI" }]), /"y" is not valid base64/],
  ];
  for (const [name, text, message] of malformed) {
    it(`throws on ${name}`, () => {
      assert.throws(
        () => decodeChoices(text),
        (error: unknown) => {
          assert.ok(error instanceof Error);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }
});

/** Behaviour both implementations share. */
function contract(name: string, make: () => ExampleDatabase): void {
  describe(`${name} contract`, () => {
    it("round-trips tricky sequences", () => {
      const db = make();
      db.save("k", TRICKY);
      const fetched = db.fetch("k");
      assert.equal(fetched.length, 1);
      assertSameChoices(fetched[0]!, TRICKY);
    });

    it("stores an empty sequence", () => {
      const db = make();
      db.save("k", []);
      assert.deepEqual(db.fetch("k"), [[]]);
    });

    it("dedupes identical saves, including -0 vs 0 being distinct", () => {
      const db = make();
      db.save("k", [1, "a"]);
      db.save("k", [1, "a"]);
      db.save("k", [-0]);
      db.save("k", [0]);
      db.save("k", [-0]);
      const fetched = db.fetch("k");
      assert.equal(fetched.length, 3);
    });

    it("deletes, and deleting something absent is a no-op", () => {
      const db = make();
      db.save("k", [1]);
      db.save("k", [2]);
      db.delete("k", [1]);
      db.delete("k", [1]);
      db.delete("k", [99]);
      db.delete("never-saved", [1]);
      assert.deepEqual(db.fetch("k"), [[2]]);
      db.delete("k", [2]);
      assert.deepEqual(db.fetch("k"), []);
    });

    it("isolates keys", () => {
      const db = make();
      db.save("a", [1]);
      db.save("b", [2]);
      db.save("", [3]);
      assert.deepEqual(db.fetch("a"), [[1]]);
      assert.deepEqual(db.fetch("b"), [[2]]);
      assert.deepEqual(db.fetch(""), [[3]]);
      assert.deepEqual(db.fetch("c"), []);
    });

    it("hands out copies that do not alias stored data", () => {
      const db = make();
      const bytes = new Uint8Array([1, 2]);
      const choices: StoredChoice[] = [bytes, 5];
      db.save("k", choices);
      bytes[0] = 100;
      choices[1] = 6;
      const first = db.fetch("k")[0]!;
      assertSameChoices(first, [new Uint8Array([1, 2]), 5]);
      (first[0] as Uint8Array)[0] = 50;
      first.push(7);
      assertSameChoices(db.fetch("k")[0]!, [new Uint8Array([1, 2]), 5]);
    });
  });
}

contract("InMemoryDatabase", () => new InMemoryDatabase());
contract(
  "DirectoryDatabase",
  () => new DirectoryDatabase(tempDir("db"), { warn: (m) => assert.fail(`unexpected warning: ${m}`) }),
);

describe("InMemoryDatabase", () => {
  it("returns oldest first and warns instead of throwing on unencodable input", () => {
    const warnings: string[] = [];
    const db = new InMemoryDatabase({ warn: (m) => warnings.push(m) });
    db.save("k", [1]);
    db.save("k", [2]);
    db.save("k", [1]);
    assert.deepEqual(db.fetch("k"), [[1], [2]]);
    db.save("k", [Symbol() as unknown as StoredChoice]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /could not save/);
  });
});

describe("DirectoryDatabase", () => {
  it("uses the documented layout", () => {
    const dir = tempDir("db");
    const { db } = recordingDb(dir);
    db.save("my key", [1, "x"]);
    const keyDir = path.join(dir, keyHash("my key"));
    const choicesHash = createHash("sha256")
      .update(encodeChoices([1, "x"]), "utf8")
      .digest("hex")
      .slice(0, 16);
    assert.deepEqual(fs.readdirSync(keyDir).sort(), [`${choicesHash}.json`, "key.txt"]);
    assert.equal(fs.readFileSync(path.join(keyDir, "key.txt"), "utf8"), "my key");
    assert.equal(fs.readFileSync(path.join(keyDir, `${choicesHash}.json`), "utf8"), encodeChoices([1, "x"]));
  });

  it("stores one file for a repeated save", () => {
    const dir = tempDir("db");
    const { db } = recordingDb(dir);
    db.save("k", TRICKY);
    db.save("k", TRICKY);
    assert.equal(jsonFiles(path.join(dir, keyHash("k"))).length, 1);
    db.delete("k", TRICKY);
    assert.equal(jsonFiles(path.join(dir, keyHash("k"))).length, 0);
  });

  it("is shared between instances pointing at the same folder", () => {
    const dir = tempDir("db");
    new DirectoryDatabase(dir).save("k", [1]);
    assert.deepEqual(new DirectoryDatabase(dir).fetch("k"), [[1]]);
  });

  it("creates missing parent folders on save", () => {
    const dir = path.join(tempDir("db"), "a", "b", "examples");
    const { db, warnings } = recordingDb(dir);
    db.save("k", [true]);
    assert.deepEqual(db.fetch("k"), [[true]]);
    assert.deepEqual(warnings, []);
  });

  it(
    "a folder under /proc, where Node's recursive mkdir never returns: a save warns, and returns",
    { skip: !fs.existsSync("/proc/self") },
    () => {
      const dir = path.join("/proc/self", "shrinkscope-examples", "deeper");
      const { db, warnings } = recordingDb(dir);
      db.save("k", [true]);
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0]!,
        /^Shrinkscope: could not save example to \/proc\/self\/shrinkscope-examples\/deeper\/.*ENOENT/,
      );
    },
  );

  it("returns [] without warning for a missing folder", () => {
    const { db, warnings } = recordingDb(path.join(tempDir("db"), "does-not-exist"));
    assert.deepEqual(db.fetch("k"), []);
    db.delete("k", [1]);
    assert.deepEqual(warnings, []);
  });

  it("warns and returns [] when the database path is a file; save warns instead of throwing", () => {
    const file = path.join(tempDir("db"), "not-a-dir");
    fs.writeFileSync(file, "hello");
    const { db, warnings } = recordingDb(file);
    assert.deepEqual(db.fetch("k"), []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /not a directory/);
    assert.ok(warnings[0]!.includes(file));
    db.save("k", [1]);
    assert.equal(warnings.length, 2);
    assert.match(warnings[1]!, /^Shrinkscope: could not save example to /);
    assert.ok(warnings[1]!.includes(file));
    assert.equal(fs.readFileSync(file, "utf8"), "hello");
  });

  it(
    "warns instead of throwing when the folder is not writable",
    { skip: process.getuid?.() === 0 ? "running as root: permissions are not enforced" : false },
    () => {
      const dir = tempDir("db");
      fs.chmodSync(dir, 0o500);
      try {
        const { db, warnings } = recordingDb(dir);
        db.save("k", [1]);
        assert.equal(warnings.length, 1);
        assert.match(warnings[0]!, /could not save example/);
      } finally {
        fs.chmodSync(dir, 0o700);
      }
    },
  );

  it("skips corrupt files with a warning naming each, and still returns the valid ones", () => {
    const dir = tempDir("db");
    const { db, warnings } = recordingDb(dir);
    db.save("k", [1]);
    db.save("k", ["two"]);
    const keyDir = path.join(dir, keyHash("k"));
    const corrupt: Record<string, string | Buffer> = {
      "truncated.json": encodeChoices([1, 2, 3]).slice(0, 20),
      "version.json": JSON.stringify({ format: "shrinkscope-choices", version: 99, choices: [] }),
      "tag.json": JSON.stringify({ format: "shrinkscope-choices", version: 1, choices: [{ z: 1 }] }),
      "garbage.json": Buffer.from([0xff, 0xfe, 0x00, 0x81, 0x9c, 0x07, 0xc3]),
      "empty.json": "",
      // Valid JSON, but not valid UTF-8 inside a string: must not be accepted with U+FFFD substituted.
      "badutf8.json": Buffer.concat([
        Buffer.from('{"format":"shrinkscope-choices","version":1,"choices":[{"s":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}]}'),
      ]),
    };
    for (const [name, content] of Object.entries(corrupt)) fs.writeFileSync(path.join(keyDir, name), content);
    fs.mkdirSync(path.join(keyDir, "adirectory.json"));

    const fetched = db.fetch("k");
    assert.deepEqual(fetched.map((c) => c[0]).sort(), [1, "two"].sort());

    const expected = [...Object.keys(corrupt), "adirectory.json"];
    assert.equal(warnings.length, expected.length, warnings.join("\n"));
    for (const name of expected) {
      const file = path.join(keyDir, name);
      const warning = warnings.find((w) => w.includes(file));
      assert.ok(warning, `no warning for ${name}`);
      assert.ok(warning.startsWith(`Shrinkscope: skipping corrupt example file ${file}: `), warning);
    }
    assert.match(
      warnings.find((w) => w.includes("version.json"))!,
      /unsupported version 99/,
    );
    assert.match(
      warnings.find((w) => w.includes("tag.json"))!,
      /unknown tag "z"/,
    );
    assert.match(
      warnings.find((w) => w.includes("badutf8.json"))!,
      /not valid UTF-8/,
    );
    assert.match(
      warnings.find((w) => w.includes("truncated.json"))!,
      /invalid JSON/,
    );
  });

  it("repairs a corrupted file when the same sequence is saved again", () => {
    const dir = tempDir("db");
    const { db, warnings } = recordingDb(dir);
    db.save("k", [1, 2]);
    const keyDir = path.join(dir, keyHash("k"));
    const [name] = jsonFiles(keyDir);
    fs.writeFileSync(path.join(keyDir, name!), "{");
    db.save("k", [1, 2]);
    assert.deepEqual(db.fetch("k"), [[1, 2]]);
    assert.deepEqual(warnings, []);
  });

  it("ignores non-json files and key.txt", () => {
    const dir = tempDir("db");
    const { db, warnings } = recordingDb(dir);
    db.save("k", [1]);
    const keyDir = path.join(dir, keyHash("k"));
    fs.writeFileSync(path.join(keyDir, "notes.md"), "not an example");
    fs.writeFileSync(path.join(keyDir, ".DS_Store"), Buffer.from([0, 1, 2]));
    assert.deepEqual(db.fetch("k"), [[1]]);
    assert.deepEqual(warnings, []);
  });

  it("ignores leftover .tmp files and removes only stale ones", () => {
    const dir = tempDir("db");
    const { db, warnings } = recordingDb(dir);
    db.save("k", [1]);
    const keyDir = path.join(dir, keyHash("k"));
    const fresh = path.join(keyDir, "0123456789abcdef.json.4242.aabbccddeeff.tmp");
    const stale = path.join(keyDir, "fedcba9876543210.json.4243.aabbccddeeff.tmp");
    fs.writeFileSync(fresh, encodeChoices([2]).slice(0, 10)); // half-written
    fs.writeFileSync(stale, encodeChoices([3])); // even a complete temp file is not an example
    const twoMinutesAgo = (Date.now() - 120_000) / 1000;
    fs.utimesSync(stale, twoMinutesAgo, twoMinutesAgo);

    assert.deepEqual(db.fetch("k"), [[1]]);
    assert.deepEqual(warnings, []);
    assert.ok(fs.existsSync(fresh), "a young temp file may belong to a live writer");
    assert.ok(!fs.existsSync(stale), "a stale temp file is cleaned up");
  });

  it("leaves no temp files behind after normal saves", () => {
    const dir = tempDir("db");
    const { db } = recordingDb(dir);
    for (let i = 0; i < 20; i++) db.save("k", [i]);
    const keyDir = path.join(dir, keyHash("k"));
    assert.deepEqual(
      fs.readdirSync(keyDir).filter((n) => !n.endsWith(".json") && n !== "key.txt"),
      [],
    );
  });

  it("returns oldest first", () => {
    const dir = tempDir("db");
    const { db } = recordingDb(dir);
    db.save("k", ["old"]);
    db.save("k", ["new"]);
    const keyDir = path.join(dir, keyHash("k"));
    // Pin mtimes explicitly: two saves within one filesystem tick would otherwise tie.
    const oldFile = path.join(
      keyDir,
      `${createHash("sha256")
        .update(encodeChoices(["old"]))
        .digest("hex")
        .slice(0, 16)}.json`,
    );
    const newFile = path.join(
      keyDir,
      `${createHash("sha256")
        .update(encodeChoices(["new"]))
        .digest("hex")
        .slice(0, 16)}.json`,
    );
    fs.utimesSync(oldFile, 1_000, 1_000);
    fs.utimesSync(newFile, 2_000, 2_000);
    assert.deepEqual(db.fetch("k"), [["old"], ["new"]]);
    fs.utimesSync(oldFile, 3_000, 3_000);
    assert.deepEqual(db.fetch("k"), [["new"], ["old"]]);
  });

  it("a write that dies halfway leaves only a temp file, never a partial example", () => {
    // The deterministic companion of the kill test below: make every write stop halfway and fail, as if the
    // process died there, and check that each one was aimed at a temp file rather than a name readers trust.
    const dir = tempDir("db");
    const { db, warnings } = recordingDb(dir);
    db.save("k", ["kept"]);
    const written: string[] = [];
    const realWrite = nodeFs.writeFileSync;
    const fake = mock.method(nodeFs, "writeFileSync", (file: fs.PathOrFileDescriptor, data: string) => {
      written.push(String(file));
      realWrite(file, data.slice(0, data.length >> 1));
      throw new Error("simulated crash mid-write");
    });
    syncBuiltinESMExports(); // so ESM-style named bindings of node:fs see the mock too
    try {
      db.save("k", ["lost", "x".repeat(1000)]);
      db.save("other key", [1]); // also has to write key.txt
    } finally {
      fake.mock.restore();
      syncBuiltinESMExports();
    }
    const names = written.map((file) => path.basename(file));
    assert.ok(
      names.some((n) => n.includes(".json.")),
      `expected an example write, saw ${names.join(", ")}`,
    );
    assert.ok(
      names.some((n) => n.startsWith("key.txt.")),
      `expected a key.txt write, saw ${names.join(", ")}`,
    );
    for (const name of names) assert.match(name, /\.\d+\.[0-9a-f]+\.tmp$/, name);
    assert.equal(warnings.length, 2);
    for (const warning of warnings) assert.match(warning, /could not save example .*simulated crash/);

    warnings.length = 0;
    assert.deepEqual(db.fetch("k"), [["kept"]]);
    assert.deepEqual(db.fetch("other key"), []);
    assert.deepEqual(warnings, []);
    assert.ok(!fs.existsSync(path.join(dir, keyHash("other key"), "key.txt")), "no half-written key.txt");
  });

  it("never exposes a partially written file when writers are SIGKILLed", { timeout: 60_000 }, async () => {
    const dir = tempDir("db");
    // Several concurrent writers sharing the folders: each kill lands at a random point of its save loop,
    // so across writers it is likely that at least one dies mid-write (the run's log line reports leftover
    // temp files, the trace of exactly that). Concurrency also exercises the per-process temp file names.
    const WRITERS = 3;
    const results = await Promise.all(Array.from({ length: WRITERS }, (_, id) => runAndKillWriter(dir, id)));
    for (const { ready, signal, stderr } of results) {
      assert.ok(ready, `writer exited before writing anything:\n${stderr}`);
      assert.equal(signal, "SIGKILL", `writer should have been killed, stderr:\n${stderr}`);
    }

    const { db, warnings } = recordingDb(dir);
    let files = 0;
    let tmpFiles = 0;
    for (const key of ["key-0", "key-1", "key-2"]) {
      const keyDir = path.join(dir, keyHash(key));
      const names = fs.existsSync(keyDir) ? fs.readdirSync(keyDir) : [];
      files += names.filter((n) => n.endsWith(".json")).length;
      tmpFiles += names.filter((n) => n.endsWith(".tmp")).length;
      const fetched = db.fetch(key);
      assert.equal(fetched.length, jsonFiles(keyDir).length, `every .json file under ${key} decodes`);
      for (const choices of fetched) {
        assert.equal(choices.length, 200_000);
        const iteration = (choices[0] as string).split(":")[0];
        assert.ok((choices[199_999] as string).startsWith(`${iteration}:199999:`), "no file holds a mix of two writes");
      }
    }
    assert.deepEqual(warnings, [], "no partially-written file is visible");
    assert.ok(files >= WRITERS, "each writer saved at least one file before it was killed");
    // Not asserted (timing-dependent), but useful when judging whether the kill landed mid-write.
    console.log(`kill test: ${files} complete file(s), ${tmpFiles} leftover temp file(s)`);

    db.save("key-0", ["after the crash"]);
    assert.ok(db.fetch("key-0").some((c) => c.length === 1 && c[0] === "after the crash"));
    assert.deepEqual(warnings, []);
  });
});

/** Spawn the writer fixture, wait for its first save, then SIGKILL it ~150ms (jittered) later. */
async function runAndKillWriter(
  dir: string,
  id: number,
): Promise<{ ready: boolean; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join("test", "engine", "fixtures", "db-writer.ts"), dir, String(id)],
    { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));

  // Start the kill timer once the first save is on disk, so it measures writing, not tsx start-up.
  const ready = await new Promise<boolean>((resolve) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("ready\n")) resolve(true);
    });
    void exited.then(() => resolve(false));
  });
  if (ready) {
    // Jitter so the kill does not land at the same phase of the loop on every run.
    await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 100));
    child.kill("SIGKILL");
  }
  return { ready, signal: await exited, stderr };
}

describe("when a replayed failure was saved", () => {
  it("a failure replayed from the directory database reports the day it was saved; a generated one does not", async () => {
    const { check, property, st } = await import("../../../src/engine/index.ts");
    const { PropertyFailure } = await import("../../../src/engine/property/errors.ts");
    const dir = tempDir("db");
    const results: { savedAt?: number }[] = [];
    const prop = property(st.integers(), (n) => {
      if (n > 10) throw new Error("big");
    });
    const run = () => {
      try {
        check(prop, { database: dir, deadline: null, onEvent: (e) => e.type === "result" && results.push(e) });
      } catch (e) {
        if (!(e instanceof PropertyFailure)) throw e;
      }
    };
    run();
    assert.equal(results[0]?.savedAt, undefined, "generated, not replayed");
    const [keyDir] = fs.readdirSync(dir);
    const [file] = fs.readdirSync(path.join(dir, keyDir!)).filter((n) => n.endsWith(".json"));
    const saved = new Date("2026-11-02T09:30:00Z");
    fs.utimesSync(path.join(dir, keyDir!, file!), saved, saved);
    run();
    assert.equal(results[1]?.savedAt, saved.getTime());
  });

  it("a custom database's savedAt that throws or answers garbage shows no date and changes nothing else", async () => {
    const { check, property, st } = await import("../../../src/engine/index.ts");
    const { PropertyFailure } = await import("../../../src/engine/property/errors.ts");
    for (const answer of [
      () => {
        throw new Error("boom");
      },
      () => "yesterday",
      () => Number.NaN,
    ]) {
      const inner = new InMemoryDatabase();
      const db = {
        fetch: (k: string) => inner.fetch(k),
        save: (k: string, c: readonly StoredChoice[]) => inner.save(k, c),
        delete: (k: string, c: readonly StoredChoice[]) => inner.delete(k, c),
        savedAt: answer,
      };
      const results: { savedAt?: number; repro?: string }[] = [];
      for (let i = 0; i < 2; i++) {
        try {
          check(
            property(st.integers(), (n) => {
              if (n > 10) throw new Error("big");
            }),
            { database: db, deadline: null, onEvent: (e) => e.type === "result" && results.push(e) },
          );
        } catch (e) {
          if (!(e instanceof PropertyFailure)) throw e;
        }
      }
      assert.equal(results.length, 2);
      assert.ok(!("savedAt" in results[1]!), "no date");
      assert.equal(results[1]!.repro, "11");
    }
  });
});
