// The pasteable replay: a failure's message ends with `Replay: { replay: "<blob>" }`; settings.replay or
// SHRINKSCOPE_REPLAY runs exactly that case once (no generation, no shrinking, no database) and reports its
// failure, or says it passes now; a blob of another property, another format, or damaged is a clear error.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  check,
  find,
  InMemoryDatabase,
  InvalidArgument,
  machine,
  property,
  PropertyFailure,
  st,
  Unsatisfiable,
  assume,
} from "../../../src/engine/index.ts";
import type { Settings } from "../../../src/engine/index.ts";
import { decodeCompact, encodeCompact } from "../../../src/engine/databases/compactEncoding.ts";
import type { StoredChoice } from "../../../src/engine/databases/exampleDatabase.ts";
import { failure, failureOf, logged, withEnv } from "../helpers.ts";

const QUIET: Settings = { database: null, deadline: null };
const LINE = /\nReplay: \{ replay: "(v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]*)" \}$/;

function blobOf(f: PropertyFailure): string {
  const m = LINE.exec(f.message);
  assert.ok(m, `the message does not end with a Replay line:\n${f.message}`);
  return m[1]!;
}

/** A database that records every call. */
function spyDatabase(): { db: InMemoryDatabase; calls: string[] } {
  const db = new InMemoryDatabase();
  const calls: string[] = [];
  for (const m of ["fetch", "save", "delete"] as const) {
    const original = db[m].bind(db) as (...a: unknown[]) => unknown;
    (db as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
      calls.push(m);
      return original(...a);
    };
  }
  return { db, calls };
}

test("a failure's message ends with a Replay line, and the replay runs exactly that case once", () => {
  for (const seed of [1, 2, 3]) {
    const body = (a: number, xs: string[]) => {
      if (a > 10 && xs.length > 1) throw new Error(`boom ${a}`);
    };
    const f = failure(() => check(property(st.integers(), st.lists(st.text()), body, { ...QUIET, seed })));
    assert.equal(f.repro, `11, ["", ""]`);
    const blob = blobOf(f);
    const seen: unknown[][] = [];
    const { db, calls } = spyDatabase();
    const replayed = failure(() =>
      check(
        property(
          st.integers(),
          st.lists(st.text()),
          (a, xs) => {
            seen.push([a, xs]);
            body(a, xs);
          },
          { database: db, deadline: null },
        ),
        { replay: blob },
      ),
    );
    assert.deepEqual(seen, [[11, ["", ""]]], "one call, on the minimal example");
    assert.deepEqual(calls, [], "no database read or write");
    assert.equal(replayed.repro, f.repro);
    assert.match(
      replayed.message,
      /^Property failed on the replayed case \(run once: no generation, no shrinking, no database\)/,
    );
    assert.match(replayed.message, /Error: boom 11/);
    assert.equal(blobOf(replayed), blob, "the replayed failure prints the same line");
    assert.equal(replayed.statistics.shrinkCalls, 0);
  }
});

test("SHRINKSCOPE_REPLAY replays the case the same way, and wins over the property's own settings", () => {
  const make = (calls: number[]) =>
    property(
      st.integers({ min: 0, max: 1000 }),
      (n) => {
        calls.push(n);
        if (n >= 500) throw new Error("too big");
      },
      { ...QUIET, maxExamples: 1000 },
    );
  const f = failure(() => check(make([])));
  assert.equal(f.repro, "500");
  const calls: number[] = [];
  const again = withEnv({ SHRINKSCOPE_REPLAY: blobOf(f) }, () => failure(() => check(make(calls), { seed: 99 })));
  assert.deepEqual(calls, [500]);
  assert.equal(again.repro, "500");
});

test("a replay whose case passes now says so (unless quiet), and the test passes", () => {
  let fixed = false;
  const p = property(
    st.lists(st.integers()),
    (xs) => {
      if (!fixed && xs.length > 2) throw new Error("long");
    },
    QUIET,
  );
  const blob = blobOf(failure(() => check(p)));
  fixed = true;
  let calls = 0;
  const lines = logged(() =>
    check(
      property(
        st.lists(st.integers()),
        () => {
          calls++;
        },
        QUIET,
      ),
      { replay: blob },
    ),
  );
  assert.equal(calls, 1);
  assert.deepEqual(lines, ["Shrinkscope: the replayed case passes now: [0, 0, 0]"]);
  const quiet = logged(() =>
    check(
      property(st.lists(st.integers()), () => {}, QUIET),
      { replay: blob, verbosity: "quiet" },
    ),
  );
  assert.deepEqual(quiet, []);
});

test("a blob of another property, another format version, or a damaged one is InvalidArgument, and nothing runs", () => {
  const blob = blobOf(failure(() => check(property(st.integers(), (n) => assert.ok(n < 5), QUIET))));
  let calls = 0;
  const other = property(st.booleans(), () => void calls++, QUIET);
  assert.throws(
    () => check(other, { replay: blob }),
    (e: unknown) => {
      assert.ok(e instanceof InvalidArgument);
      assert.match(e.message, /this replay was made by another property/);
      return true;
    },
  );
  const [, fingerprint, payload] = blob.split(".");
  assert.throws(
    () => check(other, { replay: `v2.${fingerprint}.${payload}` }),
    /written in format v2, and this version of Shrinkscope reads v1 only/,
  );
  assert.throws(() => check(other, { replay: "not a replay" }), /check: replay: "not a replay" is not a replay/);
  assert.throws(() => check(other, { replay: `v1.${fingerprint}.${payload}*` }), /is not a replay|not base64url/);
  assert.throws(
    () => check(other, { replay: 42 as unknown as string }),
    /replay must be the text of a failure's "Replay:" line/,
  );
  // A cut string: the varints end in the middle.
  const cut = `v1.${fingerprint}.${encodeCompact(["hello"]).slice(0, 4)}`;
  assert.throws(() => check(other, { replay: cut }), /the replay is damaged: it ends in the middle of a string/);
  assert.throws(
    () => withEnv({ SHRINKSCOPE_REPLAY: "nonsense" }, () => check(other)),
    /SHRINKSCOPE_REPLAY: "nonsense" is not a replay/,
  );
  assert.equal(calls, 0);
});

test("a blob whose choices do not fit what the property draws is InvalidArgument, never a misleading run", () => {
  const f = failure(() => check(property(st.booleans(), (b) => assert.ok(!b), QUIET)));
  const fingerprint = blobOf(f).split(".")[1];
  let calls = 0;
  const p = property(st.booleans(), () => void calls++, QUIET);
  // An integer where a boolean is drawn.
  assert.throws(
    () => check(p, { replay: `v1.${fingerprint}.${encodeCompact([5])}` }),
    /the replay does not fit this property \(1 of its 1 choices do not fit/,
  );
  // More choices than the property draws.
  assert.throws(
    () => check(p, { replay: `v1.${fingerprint}.${encodeCompact([true, false])}` }),
    /this property drew 1 choices where the replay holds 2/,
  );
  // Fewer.
  assert.throws(
    () => check(p, { replay: `v1.${fingerprint}.` }),
    /this property drew 1 choices where the replay holds 0/,
  );
  assert.equal(calls, 3, "each ran its one case, and none was reported as a pass or a failure");
});

test("a replayed case that assume() rejects now is Unsatisfiable, not a pass", () => {
  let rejecting = false;
  const make = () =>
    property(
      st.integers(),
      (n) => {
        assume(!rejecting);
        if (n > 3) throw new Error("big");
      },
      QUIET,
    );
  const blob = blobOf(failure(() => check(make())));
  rejecting = true;
  assert.throws(
    () => check(make(), { replay: blob }),
    (e: unknown) => {
      assert.ok(e instanceof Unsatisfiable);
      assert.match(
        e.message,
        /The replayed case was rejected by assume\(\) or a filter, so it tests nothing now \(arguments: 4;/,
      );
      return true;
    },
  );
});

test("async bodies, machines and st.data() replay too", async () => {
  const asyncBody = async (xs: number[]) => {
    await Promise.resolve();
    if (xs.reduce((a, b) => a + b, 0) > 10) throw new Error("sum");
  };
  const f = await failureOf(() => check(property(st.lists(st.integers()), asyncBody, QUIET)));
  const again = await failureOf(() =>
    check(property(st.lists(st.integers()), asyncBody, QUIET), { replay: blobOf(f) }),
  );
  assert.equal(again.repro, f.repro);

  const drawn = property(
    st.data(),
    (data) => {
      const n = data.draw(st.integers({ min: 0, max: 100 }), "n");
      if (n > 50) throw new Error("over 50");
    },
    QUIET,
  );
  const d = failure(() => check(drawn));
  const dAgain = failure(() => check(drawn, { replay: blobOf(d) }));
  assert.match(dAgain.message, /draw 1 \(n\): 51/);

  class Counter {
    n = 0;
    inc(): void {
      this.n++;
    }
    small(): void {
      assert.ok(this.n < 3);
    }
  }
  const spec = { rules: { inc: {} }, invariants: ["small" as const] };
  const m = failure(() => check(machine(Counter, spec, QUIET)));
  const mAgain = failure(() => check(machine(Counter, spec, QUIET), { replay: blobOf(m) }));
  assert.equal(mAgain.repro, m.repro);
  assert.match(mAgain.message, /^Machine failed on the replayed case/);
  // Another machine's blob is another property's.
  class Other {
    n = 0;
    noop(): void {}
  }
  assert.throws(
    () => check(machine(Other, { rules: { noop: {} } }, QUIET), { replay: blobOf(m) }),
    /made by another property/,
  );
});

test("find() takes no replay: in its settings it is InvalidArgument, from the environment it is ignored", () => {
  assert.throws(
    () => find(st.integers(), (n) => n > 3, { replay: "v1.00000000." }),
    /find: replay runs one failing case of a property/,
  );
  const found = withEnv({ SHRINKSCOPE_REPLAY: "v1.00000000." }, () => find(st.integers(), (n) => n > 3, QUIET));
  assert.equal(found, 4);
});

test("configure() and registerProfile() refuse a replay: it belongs to one property", async () => {
  const { configure, registerProfile } = await import("../../../src/engine/index.ts");
  assert.throws(() => configure({ replay: "v1.00000000." }), /configure: replay belongs to one property/);
  assert.throws(
    () => registerProfile("x", { replay: "v1.00000000." }),
    /registerProfile: replay belongs to one property/,
  );
});

test("the compact encoding keeps every choice exactly", () => {
  const samples: StoredChoice[][] = [
    [],
    [0, 1, -1, 127, 128, -128, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 60, -0, NaN, Infinity, -Infinity, 0.1, 5e-324],
    [true, false, "", "abc", "\u{1F600}", "\uD800", "\uDFFFx", "é".repeat(300)],
    [new Uint8Array([]), new Uint8Array([0, 255, 128]), new Uint8Array(1000).fill(7)],
  ];
  for (const choices of samples) {
    const text = encodeCompact(choices);
    assert.match(text, /^[A-Za-z0-9_-]*$/);
    const back = decodeCompact(text);
    assert.equal(back.length, choices.length);
    back.forEach((v, i) => {
      const want = choices[i]!;
      if (want instanceof Uint8Array) assert.deepEqual([...(v as Uint8Array)], [...want]);
      else assert.ok(Object.is(v, want), `choice ${i}: ${String(v)} !== ${String(want)}`);
    });
  }
  // Small integers and booleans take two bytes: ten of them fit in 27 characters.
  assert.ok(encodeCompact([1, 2, 3, 4, 5, true, false, 0, 7, 9]).length <= 27);
  assert.throws(() => decodeCompact(encodeCompact([1]) + "B"), /unknown tag|ends in the middle/);
  assert.throws(() => decodeCompact("AQA"), /a negative integer is written as 0/);
});
