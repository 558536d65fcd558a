// A failure always comes back: whatever the body throws (undefined, a revoked Proxy, an error whose getters
// throw, a thenable whose `then` getter throws) and whatever printing the arguments does, the PropertyFailure
// carries the failure, the seed and the arguments (with a degraded repro where printing failed), and the
// current-case context is restored. Misuse found while a case runs (InvalidArgument) ends the run at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  check,
  event,
  find,
  InMemoryDatabase,
  InvalidArgument,
  note,
  property,
  PropertyFailure,
  st,
  target,
} from "../../../src/engine/index.ts";
import type { EngineEvent, Settings } from "../../../src/engine/index.ts";
import { describeFailure, printArgs } from "../../../src/engine/property/failureMessage.ts";
import { errorOrigin } from "../../../src/engine/property/origin.ts";
import { failure, failureOf, tempDir } from "../helpers.ts";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const QUIET: Settings = { database: null, deadline: null };

/** After any run, the current-case context is back to "no property running". */
function assertContextRestored(): void {
  assert.throws(() => note("x"), /note\(\) was called outside a running property/);
  assert.throws(() => event("x"), /event\(\) was called outside a running property/);
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function deepObject(depth: number): unknown {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = { v };
  return v;
}

// ------------------------------------------------------------------------------------------ undefined

const throwsUndefined: [string, (n: number) => unknown][] = [
  [
    "a synchronous `throw undefined` is a failure, not a pass",
    (n) => {
      if (n >= 5) throw undefined;
    },
  ],
  [
    "an async rejection with undefined is a failure whose cause is the value thrown",
    async (n) => {
      if (n >= 5) throw undefined;
    },
  ],
];
for (const [name, body] of throwsUndefined) {
  test(name, async () => {
    const f = await failureOf(() => check(property(st.integers({ min: 0, max: 100 }), body), QUIET));
    assert.deepEqual(f.args, [5]);
    assert.equal(f.cause, undefined);
    assert.match(f.message, /undefined \(thrown value, not an Error\)/);
    assertContextRestored();
  });
}

test("throwing null, or a revoked Proxy, is a failure too", async () => {
  const nul = await failureOf(() =>
    check(
      property(st.integers({ min: 0 }), (n) => {
        if (n >= 3) throw null;
      }),
      QUIET,
    ),
  );
  assert.deepEqual(nul.args, [3]);
  const proxy = revokedProxy();
  for (const body of [
    (n: number) => {
      if (n >= 3) throw proxy;
    },
    async (n: number) => {
      if (n >= 3) throw proxy;
    },
  ]) {
    const f = await failureOf(() => check(property(st.integers({ min: 0 }), body), QUIET));
    assert.deepEqual(f.args, [3]);
    assert.equal(f.cause, proxy);
    assert.match(f.message, /Minimal failing arguments/);
    assert.match(f.message, /Seed: \d+/);
    assertContextRestored();
  }
});

// ------------------------------------------------------------------------------------------ throwing errors

class Hostile extends Error {
  override get name(): string {
    throw new Error("name getter");
  }
  override get message(): string {
    throw new Error("message getter");
  }
  override get stack(): string {
    throw new Error("stack getter");
  }
}

test("an error whose name, message and stack getters throw still comes back as the cause", async () => {
  for (const body of [
    (n: number) => {
      if (n >= 4) throw new Hostile();
    },
    async (n: number) => {
      if (n >= 4) throw new Hostile();
    },
  ]) {
    const events: EngineEvent[] = [];
    const f = await failureOf(() =>
      check(property(st.integers({ min: 0 }), body), { ...QUIET, seed: 9, onEvent: (e) => events.push(e) }),
    );
    assert.deepEqual(f.args, [4]);
    assert.ok(f.cause instanceof Hostile);
    assert.equal(f.seed, 9);
    assert.match(f.message, /could not describe the error/);
    const result = events.find((e) => e.type === "result");
    assert.ok(result?.type === "result" && result.outcome === "failed" && result.error !== undefined);
    assertContextRestored();
  }
});

test("errorOrigin and the failure description never throw on hostile values", () => {
  for (const value of [new Hostile(), revokedProxy(), undefined, null, Object.create(null), Symbol("s")]) {
    assert.equal(typeof errorOrigin(value), "string");
  }
});

// ------------------------------------------------------------------------------------------ thenables

test("a body returning a thenable whose `then` getter throws fails its case with that error, context restored", async () => {
  const boom = new Error("then getter");
  const hostile = {
    get then(): never {
      throw boom;
    },
  };
  const f = await failureOf(() =>
    check(
      property(st.integers({ min: 0 }), (n) => (n >= 2 ? hostile : undefined)),
      QUIET,
    ),
  );
  assert.deepEqual(f.args, [2]);
  assert.equal(f.cause, boom);
  assertContextRestored();
  // The same after the run has gone async.
  const g = await failureOf(() =>
    check(
      property(st.integers({ min: 0 }), (n) => (n >= 2 ? hostile : Promise.resolve())),
      QUIET,
    ),
  );
  assert.deepEqual(g.args, [2]);
  assert.equal(g.cause, boom);
  assertContextRestored();
});

test("a body returning a revoked Proxy (whose `then` cannot be read) fails instead of escaping", async () => {
  const f = await failureOf(() =>
    check(
      property(st.integers({ min: 0 }), (n) => (n >= 2 ? revokedProxy() : undefined)),
      QUIET,
    ),
  );
  assert.deepEqual(f.args, [2]);
  assert.ok(f.cause instanceof TypeError);
  assertContextRestored();
});

// ------------------------------------------------------------------------------------------ printing

const unprintable: [string, () => unknown][] = [
  ["a revoked Proxy", revokedProxy],
  [
    "an object with a throwing getter",
    () => ({
      get x(): never {
        throw new Error("getter");
      },
    }),
  ],
  ["Object.create(Date.prototype)", () => Object.create(Date.prototype)],
  ["a very deep object", () => deepObject(200_000)],
  [
    "an object with a throwing toString and Symbol.toPrimitive",
    () => ({
      toString(): never {
        throw new Error("toString");
      },
      [Symbol.toPrimitive](): never {
        throw new Error("toPrimitive");
      },
    }),
  ],
];

for (const [what, make] of unprintable) {
  test(`an argument that cannot be printed (${what}) does not lose the failure`, async () => {
    for (const async of [false, true]) {
      const strategy = st.tuples(st.integers({ min: 0, max: 100 }), st.just(0).map(make));
      const body = ([n]: [number, unknown]) => {
        if (n >= 7) throw new Error("the real bug");
      };
      const f = await failureOf(() =>
        check(property(strategy, async ? async (t) => body(t) : body), { ...QUIET, seed: 11 }),
      );
      assert.equal((f.args[0] as unknown[])[0], 7);
      assert.match(String((f.cause as Error).message), /the real bug/);
      assert.equal(f.seed, 11);
      assert.match(f.message, /Minimal failing arguments/);
      assert.match(f.message, /Error: the real bug/);
      assert.equal(typeof f.repro, "string");
      assertContextRestored();
    }
  });
}

test("a printer that throws degrades the repro argument by argument, naming the reason", () => {
  const throwing = (args: readonly unknown[]) => {
    if (args.length !== 1 || args[0] === "bad") throw new RangeError("Maximum call stack size exceeded */ oops");
    return JSON.stringify(args[0]);
  };
  assert.equal(
    printArgs([1, "bad", [2]], throwing),
    "1, /* could not print argument 1: RangeError: Maximum call stack size exceeded * / oops */ undefined, [2]",
  );
  const hopeless = () => {
    throw revokedProxy();
  };
  assert.equal(printArgs([1], hopeless), "/* could not print argument 0: an unprintable error */ undefined");
});

test("the failure description degrades draws and errors that cannot be printed", () => {
  const statistics = {
    examples: 1,
    valid: 0,
    invalid: 0,
    overrun: 0,
    duplicates: 0,
    shrinkCalls: 0,
    shrinkCases: 0,
    shrinks: 0,
    timeMs: 0,
    events: {},
  };
  const text = describeFailure({
    result: {
      outcome: "failed",
      statistics,
      case: undefined as never,
      flaky: false,
      shrinkStopped: undefined,
      explicit: false,
    },
    args: [],
    repro: "",
    seed: 1,
    error: revokedProxy(),
    notes: [],
    draws: [{ label: "d", value: revokedProxy() }],
    saved: false,
  });
  assert.match(text, /draw 1 \(d\): \/\* could not print: .*\*\/ undefined/);
  assert.match(text, /could not describe the error/);
  assert.match(text, /Seed: 1\./);
});

test("note() with a value that cannot be printed records a placeholder instead of throwing", async () => {
  const f = await failureOf(() =>
    check(
      property(st.integers({ min: 0 }), (n) => {
        note(revokedProxy());
        note({ n });
        if (n >= 1) throw new Error("x");
      }),
      QUIET,
    ),
  );
  assert.match(f.message, /note: \/\* could not print( note)?: .*\*\//);
  assert.match(f.message, /note: \{ n: 1 \}/);
});

test("event() with a label whose conversion throws is an InvalidArgument naming event", () => {
  const label = {
    toString(): never {
      throw new Error("no");
    },
  };
  assert.throws(
    () =>
      check(
        property(st.integers(), () => event(label as unknown as string)),
        QUIET,
      ),
    (e: unknown) => e instanceof InvalidArgument && /^event: /.test(e.message),
  );
  assertContextRestored();
});

// ------------------------------------------------------------------------------------------ InvalidArgument

test("an InvalidArgument while drawing ends the run at once: rethrown as is, no shrinking, nothing saved", async () => {
  const db = new InMemoryDatabase();
  let calls = 0;
  const broken = st.integers().flatMap(() => 5 as never);
  for (const body of [() => void calls++, async () => void calls++]) {
    await assert.rejects(
      async () => check(property(broken, body), { database: db, deadline: null, key: "k" }),
      (e: unknown) => e instanceof InvalidArgument && /\.flatMap: the function returned number 5/.test(e.message),
    );
  }
  assert.equal(calls, 0);
  assert.deepEqual(db.fetch("k"), []);
  assertContextRestored();
});

test("an InvalidArgument from misuse inside the body (sync or after an await) ends the run with it", async () => {
  const db = new InMemoryDatabase();
  let calls = 0;
  const bodies = [
    (n: number) => {
      calls++;
      if (n > 5) target(Number.NaN);
    },
    async (n: number) => {
      calls++;
      await Promise.resolve();
      if (n > 5) target(Number.NaN);
    },
    (n: number, ...rest: unknown[]) => {
      calls++;
      const data = rest[0] as { draw(s: unknown): unknown };
      if (n > 5) data.draw("not a strategy");
    },
  ];
  for (const body of bodies) {
    calls = 0;
    await assert.rejects(
      async () =>
        check(property(st.integers({ min: 0, max: 100 }), st.data(), body), {
          database: db,
          deadline: null,
          key: "k2",
          seed: 1,
        }),
      (e: unknown) => e instanceof InvalidArgument && /^(target|data\.draw): /.test(e.message),
    );
    // It stopped at the first misuse: no shrinking calls after it.
    assert.ok(calls < 30, `${calls} calls`);
  }
  assert.deepEqual(db.fetch("k2"), []);
  assertContextRestored();
});

test("an InvalidArgument from an explicit example or a draw in a data() body propagates too", () => {
  assert.throws(
    () =>
      check(
        property(st.integers(), (n) => target(n as never)),
        { ...QUIET, examples: [["x"]] },
      ),
    InvalidArgument,
  );
  assert.throws(
    () =>
      check(
        property(st.data(), (data) => data.draw(st.integers().flatMap(() => null as never))),
        QUIET,
      ),
    (e: unknown) => e instanceof InvalidArgument && /\.flatMap/.test(e.message),
  );
  assertContextRestored();
});

test("find() rethrows an InvalidArgument (a broken strategy, an async predicate), and finds values whose printing throws", () => {
  assert.throws(
    () =>
      find(
        st.integers().flatMap(() => 5 as never),
        () => true,
        QUIET,
      ),
    (e: unknown) => e instanceof InvalidArgument && /\.flatMap/.test(e.message),
  );
  assert.throws(
    () => find(st.integers(), (async () => true) as unknown as () => boolean, QUIET),
    (e: unknown) => e instanceof InvalidArgument && /^find: the predicate returned a promise/.test(e.message),
  );
  const found = find(
    st.integers({ min: 0 }).map((n) => ({ n, p: revokedProxy() })),
    (v) => v.n > 3,
    QUIET,
  );
  assert.equal(found.n, 4);
  assertContextRestored();
});

test("find() with a predicate that throws undefined reports the failure", () => {
  assert.throws(
    () =>
      find(
        st.integers({ min: 0 }),
        (n) => {
          if (n > 2) throw undefined;
          return false;
        },
        QUIET,
      ),
    (e: unknown) => e instanceof PropertyFailure && (e.args as number[])[0] === 3,
  );
});

// ------------------------------------------------------------------ taps, explicit examples, generation errors

test("an onEvent tap that throws never replaces the failure: the PropertyFailure comes back, with one warning", async () => {
  const warnings: unknown[] = [];
  const warn = console.warn;
  console.warn = (...a: unknown[]) => void warnings.push(a.join(" "));
  try {
    for (const onEvent of [
      (e: EngineEvent) => {
        if (e.type === "result") throw new Error("tap-result");
      },
      () => {
        throw new Error("tap");
      },
    ]) {
      const f = await failureOf(() =>
        check(
          property(st.integers(), () => {
            throw new Error("mine");
          }),
          { ...QUIET, onEvent },
        ),
      );
      assert.equal((f.cause as Error).message, "mine");
    }
  } finally {
    console.warn = warn;
  }
  assert.equal(warnings.length, 2); // once per run, however many events threw
  assert.match(String(warnings[0]), /the onEvent callback threw \(Error: tap-result\)/);
});

test("an explicit example is printed as it was passed in, and the user's examples are not mutated", async () => {
  const examples = [[[1, 2]]];
  const f = await failureOf(() =>
    check(
      property(st.lists(st.integers()), (xs) => {
        xs.push(3);
        throw new Error("e");
      }),
      { ...QUIET, examples },
    ),
  );
  assert.equal(f.repro, "[1, 2]");
  assert.deepEqual(examples, [[[1, 2]]]);
});

test("an error thrown while generating an argument says which argument, instead of an empty argument list", async () => {
  const boom = st.integers().map((n) => {
    if (n > 3) throw new Error("mp");
    return n;
  });
  const f = await failureOf(() =>
    check(
      property(st.integers(), boom, () => {}),
      { ...QUIET, seed: 1 },
    ),
  );
  assert.equal((f.cause as Error).message, "mp");
  assert.match(f.message, /thrown while generating argument 1, before the body ran/);
  assert.match(f.repro, /^0, \/\* argument 1: its strategy threw while generating it/);
});

test("st.data()'s object prints as a placeholder, the draws listed below it", async () => {
  const f = await failureOf(() =>
    check(
      property(st.data(), (d) => {
        if (d.draw(st.integers()) > 10) throw new Error("x");
      }),
      QUIET,
    ),
  );
  assert.equal(f.repro, "/* st.data(): the values drawn are listed below */ undefined");
  assert.match(f.message, /draw 1: 11/);
});

test("the deadline times the body only, not the drawing of its arguments", () => {
  // The body is empty; drawing its argument takes 120 ms (a busy .map), over the 60 ms deadline on any machine.
  // (A 1 ms deadline over a huge list made the empty body itself fail now and then: a GC pause is over 1 ms.)
  const slow = st.integers().map((x) => {
    const until = Date.now() + 120;
    while (Date.now() < until);
    return x;
  });
  check(
    property(slow, () => {}),
    { database: null, deadline: 60, maxExamples: 2 },
  );
});

test("st.data() draws are printed as drawn, not as the body mutated them afterwards", async () => {
  const f = await failureOf(() =>
    check(
      property(st.data(), (d) => {
        const xs = d.draw(st.lists(st.integers()));
        xs.push(777);
        if (xs.length > 2) throw new Error("x");
      }),
      QUIET,
    ),
  );
  assert.match(f.message, /draw 1: \[0, 0\]\n/);
  assert.doesNotMatch(f.message, /777/);
});

test("process.exit() in a body is said on stderr and exits 1, never 0 as if the property had passed", () => {
  const dir = tempDir("exit-in-body");
  const engine = pathToFileURL(path.resolve(import.meta.dirname, "../../../src/engine/index.ts")).href;
  for (const [name, body] of [
    ["sync", "(n) => { if (n > 3) process.exit(0); }"],
    ["async", "async (n) => { await Promise.resolve(); if (n > 3) process.exit(0); }"],
  ] as const) {
    const file = path.join(dir, `${name}.mts`);
    fs.writeFileSync(
      file,
      `import { check, property, st } from ${JSON.stringify(engine)};\nawait check(property(st.integers(), ${body}, { database: null, seed: 1 }));\nconsole.log("finished");\n`,
    );
    const r = spawnSync(process.execPath, ["--import", "tsx", file], { encoding: "utf8", timeout: 60_000 });
    assert.equal(r.status, 1, `${name}: exit code\n${r.stderr}`);
    assert.doesNotMatch(r.stdout, /finished/);
    assert.match(r.stderr, /Shrinkscope: the process exited \(code 0\) while a property's body was running/);
  }
});

test("a promise a synchronous body left rejected without awaiting it fails the case, and shrinks like a throw", async () => {
  for (const seed of [1, 2, 3]) {
    const f = await failureOf(() =>
      check(
        property(
          st.integers(),
          (n) => {
            if (n > 5) void Promise.reject(new RangeError(`boom ${n}`));
          },
          { ...QUIET, seed },
        ),
      ),
    );
    assert.deepEqual(f.args, [6], `seed ${seed}`);
    assert.match(f.message, /RangeError: boom 6/);
    assert.match(f.message, /note: this failure is a promise the body started and did not await/);
  }
  // An async helper called without await, failing an assertion after its own await.
  const helper = async (xs: number[]) => {
    await Promise.resolve();
    assert.ok(xs.length < 3, "too long");
  };
  const f = await failureOf(() =>
    check(
      property(
        st.lists(st.integers()),
        (xs) => {
          void helper(xs);
        },
        { ...QUIET, seed: 1 },
      ),
    ),
  );
  assert.deepEqual(f.args, [[0, 0, 0]]);
});

test("promises a synchronous body handles, or leaves to resolve, do not fail it; a body starting none stays synchronous", async () => {
  let calls = 0;
  await check(
    property(
      st.integers(),
      () => {
        calls++;
        Promise.reject(new Error("caught at once")).catch(() => {});
        const later = Promise.reject(new Error("caught in a microtask"));
        queueMicrotask(() => later.catch(() => {}));
        void Promise.resolve(1).then((x) => x + 1);
      },
      { ...QUIET, seed: 1 },
    ),
  );
  assert.equal(calls, 100);
  const out = check(property(st.integers(), () => {}, QUIET));
  assert.equal(out, undefined, "a run of synchronous bodies that start no promise returns synchronously");
});

test("a rejection that is not a case's own keeps Node's behaviour while a case waits for its promises", () => {
  const dir = tempDir("unawaited-stray");
  const engine = pathToFileURL(path.resolve(import.meta.dirname, "../../../src/engine/index.ts")).href;
  const file = path.join(dir, "stray.mts");
  // The stray rejection is made by a microtask the body queued (not by the body): it must not be swallowed.
  fs.writeFileSync(
    file,
    `import { check, property, st } from ${JSON.stringify(engine)};
await check(property(st.integers(), () => { void Promise.resolve(); queueMicrotask(() => { void Promise.reject(new Error("stray rejection")); }); }, { database: null, seed: 1 }));
console.log("finished");
`,
  );
  const r = spawnSync(process.execPath, ["--import", "tsx", file], { encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /stray rejection/);
  assert.doesNotMatch(r.stdout, /finished/);
});

test("statistics say what they count: examples are the test cases before the failure, as the message says", () => {
  for (const seed of [1, 2, 3]) {
    let calls = 0;
    const f = failure(() =>
      check(
        property(
          st.lists(st.integers()),
          (xs) => {
            calls++;
            assert.ok(xs.length < 3);
          },
          { ...QUIET, seed },
        ),
      ),
    );
    const s = f.statistics;
    const n = Number(/^Property failed after (\d+) test cases?;/.exec(f.message)![1]);
    assert.equal(s.examples, n, "the message and the statistics count the same cases");
    assert.equal(s.valid + s.invalid + s.overrun + 1, s.examples, "valid, invalid and overrun split the examples");
    assert.ok(s.shrinkCalls > 0);
    // Every call is an example, a shrink call, or one of the explain phase's and the final replays.
    assert.ok(calls >= s.examples + s.shrinkCalls, `${calls} calls`);
  }
});
