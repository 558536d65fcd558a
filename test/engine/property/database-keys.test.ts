/**
 * Saved failures are found again only under the key they were saved with, and a key hashes the strategies'
 * class names and fields as the built engine names them (see src/engine/property/key.ts). Moving, splitting or
 * renaming engine files can change what the bundler calls a class, and then every failure a user saved is
 * silently never replayed. These keys were made by the engine before its files were arranged into rooms; the
 * built engine (ESM and CJS, as users load it) must make exactly them, and must replay a folder it saved then.
 *
 * Reads dist/: run `npm run build` first.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { tempDir } from "../helpers.ts";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const FIXTURE = "test/engine/fixtures/database-keys.mjs";

function run(...args: string[]): unknown {
  return JSON.parse(execFileSync(process.execPath, [FIXTURE, ...args], { cwd: ROOT, encoding: "utf8" }));
}

// One failing property per strategy family, then a machine and a simTest property, then the families added later, in
// the fixture's order: <shape hash>.<shape-and-text hash>#<n>.
const PINNED = [
  "8b4c86a1a0f945fc.1cd4e486f158cc8b#0", // integers()
  "89c3a7b36d399f25.e92eb1522d0b9e5e#0", // integers({ min, max, shrinkTowards })
  "06376fc9e1505cb4.c05edb728d3e7dc5#0", // floats
  "e79036b234a4c508.dd5ed1098c75620f#0", // booleans
  "e52691b885ad1109.80f6ff58fda1be8d#0", // text
  "bee1ec630fcaf700.00c048fbca54eee7#0", // bytes
  "ae1707d4beef4bdd.5ada0268f2b25eb4#0", // just
  "1d8485e0ece43522.c54a77bbba8ac99b#0", // sampledFrom
  "05e90f081b06db4a.308cc779558ca60e#0", // lists unique
  "402e8924f92c56f2.f13b29cd966b0962#0", // lists uniqueBy
  "7f534a3b131b413b.063a21e5c806037c#0", // tuples
  "3533f2b4c45b505b.386246794fbbd686#0", // records
  "9929b2533687d9a5.8d540c2421ae3520#0", // oneOf
  "75747fcb202b7ee2.ac180ab03ce4c712#0", // deferred
  "d4d500edcd8719e7.7a0c9df41f42c403#0", // recursive
  "761b174bd6dca1f5.6656e78055fb6caf#0", // data
  "0188174e865ad9dd.f5421ec758de6747#0", // map
  "9d71aac07fdeacf1.e6e43464eea63cf4#0", // filter
  "adfca8328e325ea8.63a2ec84c9de787d#0", // flatMap
  // A machine's key holds its spec, and a simTest property's its workload's text: without them, two machines of
  // one class built by one helper, or any two simTest properties at one call site, shared a key (and deleted each
  // other's saved failures). These two keys changed then; the others never did.
  "dcc489480cfebfe3.59ce7c64ab48044e#0", // a state machine (its argument strategy is the engine's own)
  "8b4c86a1a0f945fc.6eeed61069d9b04b#0", // a simTest property
  "f2c7b10025767494.171b6902e7682cb2#0", // dates
  "34612914097caf35.b24c44487174f1b5#0", // bigints
  "df933f9772fad601.d6b3b0c0c5308033#0", // fromRegex
  "74ecc7076f6b051d.f089d53c44a86a64#0", // records with optional keys
  "ae7e12d668285e00.11dcd2094a225750#0", // nullable
  "1c39c7e1512dea9d.9035725b2071c398#0", // optional
  "35a14096d12b1d25.7b320de4a8b7ea89#0", // sets
  "a2ee587c19c43672.fe92a37d44099ea2#0", // maps
  "50e41570facf1ee9.3e19a03ec9dc1314#0", // dictionaries
  "5a42c4209d1d30dd.073ab05f07c0afaf#0", // oneOf weighted
  "0fba0efbb097ed90.226560a8c6e95e08#0", // permutations
  "6cb89c7e0a05b82b.aa4455b11283279b#0", // subsequences
  "7042860d65d14a1f.60efb25fe20db3ee#0", // composite
  "45efe66bb4b56c0f.da980ef70f2d85b8#0", // uuids
  "b7684d463b2bfaae.3d0dc2d08509d8fa#0", // ipAddresses
  "a5277aa002edd893.4aae4a9874f4f8d1#0", // domains
  "6291e2585ca17e26.e9dad101c6a643da#0", // emails
  "02770e6ccff44753.416ab7349699ac29#0", // urls
  "8450b6a55abde720.e262bee52e41d870#0", // characters
  "44880509099adcf6.dae6816f358e08dd#0", // text with a characters alphabet
  "2fafc668841350dc.5ea8383cbad85f47#0", // json
  "cfeb486185873544.3d048455b879c8d8#0", // anything
  "56a889b56ef5ce8a.1bf7f11603e87d6f#0", // functions
].map((k) => `${FIXTURE}::property::${k}`);

for (const bundle of ["dist/engine.mjs", "dist/engine.cjs"]) {
  test(`the built engine (${bundle}) keys every strategy family as before`, () => {
    assert.deepEqual(run("keys", bundle), PINNED);
  });

  test(`the built engine (${bundle}) replays a failure saved before the engine's files moved`, () => {
    const dir = tempDir("saved-examples");
    fs.cpSync(path.join(ROOT, "test/engine/fixtures/saved-examples"), dir, { recursive: true });
    assert.deepEqual(run("replay", bundle, dir), [[0, 0], "0"]);
    // And the replay is the folder's doing: an empty one replays nothing.
    assert.equal(run("replay", bundle, tempDir("no-examples")), "nothing replayed");
  });
}

test("keys read the whole stack below the default stack limit, and no text in a shape passes for a function's mark", async () => {
  // Pinned from a review of the key's faster paths: a limit under 10 kept the key's file "<unknown>" (the whole
  // stack ends before the caller); text like a function's mark in an object's key changed the key.
  const { definitionKey } = await import("../../../src/engine/property/key.ts");
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 2;
    const key = definitionKey("property", [], () => {}, definitionKey);
    assert.match(key, /^<unknown>::property::/);
  } finally {
    Error.stackTraceLimit = limit;
  }
  const { shapeOf } = await import("../../../src/engine/property/key.ts");
  const tricky = { ["fn(\0" + "0\0)"]: 1, f: (x: number) => x };
  assert.ok(shapeOf(tricky, false).includes("fn(\0" + "0\0):1"), "the key's text stays as it is");
  assert.ok(shapeOf(tricky, true).includes("fn(\0" + "0\0):1"));
  assert.ok(shapeOf(tricky, true).includes("f:fn(x=>x)"), "the function's text is in the shape with texts");
});

/** A database that remembers the keys it was asked for. */
function keyRecorder(): { db: import("../../../src/engine/index.ts").ExampleDatabase; keys: string[] } {
  const keys: string[] = [];
  return { keys, db: { fetch: (k) => (keys.push(k), []), save: () => {}, delete: () => {} } };
}

test("a run without a database makes no key: it walks no strategy (CI's default), and a run with one does", async () => {
  const { check, property, st } = await import("../../../src/engine/index.ts");
  let walked = 0;
  const watched = new Proxy({}, { ownKeys: (t) => (walked++, Reflect.ownKeys(t)) });
  const prop = property(st.just(watched), () => {});
  check(prop, { database: null, derandomize: true, maxExamples: 5, deadline: null });
  check(prop, { database: null, seed: 3, maxExamples: 5, deadline: null });
  assert.equal(walked, 0, "no key was made for runs without a database");
  const { db, keys } = keyRecorder();
  check(prop, { database: db, maxExamples: 5, deadline: null });
  assert.ok(walked > 0, "the key walks the strategies once a database asks for it");
  assert.match(keys[0]!, /^test\/engine\/property\/database-keys\.test\.ts::property::/);
});

test("a run without a database does not look up the test's name for a key; a run with one does", async () => {
  const { check, property, st } = await import("../../../src/engine/index.ts");
  const g = globalThis as { expect?: unknown };
  const before = g.expect;
  let asked = 0;
  g.expect = { getState: () => (asked++, { currentTestName: "the running test" }) };
  try {
    const prop = property(st.integers(), () => {});
    check(prop, { database: null, maxExamples: 3, deadline: null });
    assert.equal(asked, 0, "no key is read, so no name is looked up");
    const { db, keys } = keyRecorder();
    check(prop, { database: db, maxExamples: 3, deadline: null });
    assert.equal(asked, 1);
    assert.match(keys[0]!, /::property::the running test::/);
  } finally {
    g.expect = before;
  }
});

test("keys made when first read count identical properties in the order they were constructed", async () => {
  const { check, property, st } = await import("../../../src/engine/index.ts");
  // Three properties alike but for their call sites: eager keys numbered them #0, #1, #2 at construction.
  const make = [
    () => property(st.integers(), (n) => void n),
    () => property(st.integers(), (n) => void n),
    () => property(st.integers(), (n) => void n),
  ];
  const props = make.map((f) => f());
  const { db, keys } = keyRecorder();
  // Read in another order, each key is still its construction's; a second round of the same sites, too.
  for (const i of [2, 0, 1]) check(props[i]!, { database: db, maxExamples: 1, deadline: null });
  const again = make.map((f) => f());
  check(again[1]!, { database: db, maxExamples: 1, deadline: null });
  const n = (k: string) => /#(\d+)$/.exec(k)?.[1];
  assert.deepEqual(keys.map(n), ["2", "0", "1", "1"]);
  assert.equal(new Set(keys.map((k) => k.replace(/#\d+$/, ""))).size, 1, "the same key but for the number");
});

test("a key made after the stack formatter changed is the one its construction would have made", async () => {
  const { check, property, st } = await import("../../../src/engine/index.ts");
  const prop = property(st.booleans(), (b) => void b);
  const original = Error.prepareStackTrace;
  const { db, keys } = keyRecorder();
  try {
    // A tool installed after the property was made (a source-map hook, a test framework's) formats stacks its way.
    Error.prepareStackTrace = () => "    at elsewhere (/nowhere/else.js:1:1)";
    check(prop, { database: db, maxExamples: 1, deadline: null });
    assert.equal(new Error().stack, "    at elsewhere (/nowhere/else.js:1:1)", "the tool's formatter is back in force");
  } finally {
    Error.prepareStackTrace = original;
  }
  assert.match(keys[0]!, /^test\/engine\/property\/database-keys\.test\.ts::property::/);
});

test("a derandomised run's seed comes from the property's body, the same on every run and without its key", async () => {
  const { check, property, st } = await import("../../../src/engine/index.ts");
  const seeds: number[] = [];
  const settings: import("../../../src/engine/index.ts").Settings = {
    database: null,
    derandomize: true,
    maxExamples: 1,
    deadline: null,
    onEvent: (e) => void (e.type === "run-start" && seeds.push(e.seed)),
  };
  const a = () => property(st.integers(), (n: number) => void n, settings);
  check(a());
  check(a());
  check(property(st.integers(), (n: number) => void (n + 1), settings));
  assert.equal(seeds[0], seeds[1], "the same property, the same seed");
  assert.notEqual(seeds[0], seeds[2], "another body, another seed");
  // The seed is the low 32 bits of the string hash of the kind and the body's text, whitespace removed: CI runs the
  // same cases after a reformat, and a change of how the seed is computed must keep it (the hash is made without
  // making the text, strippedHash).
  const { stringHash } = await import("../../../src/engine/core/fingerprints.ts");
  const body = (n: number) => {
    // a body over more than one line
    return void (n * 2);
  };
  check(property(st.integers(), body, settings));
  const text = Function.prototype.toString.call(body).replace(/\s+/g, "");
  assert.equal(seeds[3], stringHash(`property\0${text}`) % 0x100000000);
  // A key made first (a run with a database lets the body go): the seed is the same one.
  const once = property(st.integers(), body, settings);
  check(once, { database: keyRecorder().db, derandomize: false, seed: 1 });
  check(once);
  assert.equal(seeds[5], seeds[3], "the seed after the key was made");
});
