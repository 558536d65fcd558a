// Strategies under bad input and big values: misspelled or mistyped options, strategies that break while drawing,
// `unique` on values JSON cannot tell apart, `__proto__` fields, and sizes beyond what one call can spread or
// one test case can hold. Each misuse is an InvalidArgument naming the call, never a property failure.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  check,
  choiceFromIndex,
  choiceToIndex,
  find,
  InvalidArgument,
  property,
  PropertyFailure,
  st,
  Unsatisfiable,
} from "../../../src/engine/index.ts";
import type { Settings, Strategy } from "../../../src/engine/index.ts";
import { Random } from "../../../src/engine/util/random.ts";
import { TestCase } from "../../../src/engine/core/testCase.ts";

const QUIET: Settings = { database: null, deadline: null, seed: 1 };

/** One value of `s`, drawn straight through a generating TestCase (no driver in between). */
function drawOnce<T>(s: Strategy<T>, seed = 1, maxChoices = 8192): T {
  return s.draw(new TestCase([], new Random(seed), maxChoices));
}

function invalidArgument(pattern: RegExp): (e: unknown) => boolean {
  return (e: unknown) => {
    assert.ok(
      e instanceof InvalidArgument,
      `expected an InvalidArgument, got ${e instanceof Error ? `${e.name}: ${e.message.slice(0, 300)}` : String(e)}`,
    );
    assert.match(e.message, pattern);
    return true;
  };
}

// ------------------------------------------------------------------------------------------------ options

test("a misspelled option is an InvalidArgument naming the call, the option and the known ones", () => {
  const cases: [() => unknown, RegExp][] = [
    [
      () => st.integers({ mn: 1 } as never),
      /^st\.integers: unknown option "mn" \(did you mean "min"\? known: min, max, shrinkTowards\)$/,
    ],
    [
      () => st.floats({ alowInfinity: false } as never),
      /^st\.floats: unknown option "alowInfinity" \(did you mean "allowInfinity"\? known: min, max, allowNaN, allowInfinity\)$/,
    ],
    [
      () => st.text({ maxsize: 3 } as never),
      /^st\.text: unknown option "maxsize" \(did you mean "maxSize"\? known: alphabet, minSize, maxSize\)$/,
    ],
    [() => st.bytes({ length: 3 } as never), /^st\.bytes: unknown option "length" \(known: minSize, maxSize\)$/],
    [
      () => st.lists(st.integers(), { uniq: true } as never),
      /^st\.lists: unknown option "uniq" \(did you mean "unique"\? known: minSize, maxSize, unique, uniqueBy\)$/,
    ],
    [
      () => st.recursive<unknown>(st.integers(), (s) => st.lists(s), { maxleaves: 3 } as never),
      /^st\.recursive: unknown option "maxleaves" \(did you mean "maxLeaves"\?/,
    ],
  ];
  for (const [make, message] of cases) assert.throws(make, invalidArgument(message));
});

test("a mistyped option is an InvalidArgument naming the option and what was given", () => {
  const cases: [() => unknown, RegExp][] = [
    // "no" is truthy: it must not be read as true.
    [() => st.floats({ allowNaN: "no" } as never), /^st\.floats: allowNaN must be true or false, got string "no"$/],
    [() => st.floats({ allowInfinity: 0 } as never), /^st\.floats: allowInfinity must be true or false, got number 0$/],
    [
      () => st.lists(st.integers(), { unique: "yes" } as never),
      /^st\.lists: unique must be true or false, got string "yes"$/,
    ],
    [
      () => st.lists(st.integers(), { unique: true, uniqueBy: (x) => x }),
      /^st\.lists: give either unique or uniqueBy, not both/,
    ],
    [() => st.integers(5 as never), /^st\.integers: options must be an object, got number 5$/],
    [() => st.text([] as never), /^st\.text: options must be an object, got an array$/],
    [() => st.lists(st.integers(), st.integers() as never), /^st\.lists: options must be an object, got a strategy$/],
    [() => st.integers({ min: NaN }), /^st\.integers: min must be a safe integer, got number NaN$/],
    [() => st.integers({ shrinkTowards: 0.5 }), /^st\.integers: shrinkTowards must be a safe integer/],
    [() => st.floats({ max: "1" } as never), /^st\.floats: max must be a number \(not NaN\), got string "1"$/],
    [() => st.text({ minSize: 1.5 }), /^st\.text: minSize must be a non-negative integer, got number 1\.5$/],
    [() => st.text({ maxSize: Infinity }), /^st\.text: maxSize must be a non-negative integer, got number Infinity$/],
    [() => st.bytes({ maxSize: 2 ** 60 }), /^st\.bytes: maxSize must be a non-negative integer/],
    [() => st.text({ alphabet: "" }), /^st\.text: the alphabet is empty, so the only string is ""/],
    [() => st.text({ alphabet: [] }), /^st\.text: the alphabet is empty/],
    [
      () => st.text({ alphabet: [[5, 1]] }),
      /^st\.text: alphabet ranges must be \[from, to\] code points with from <= to, got \[5,1\]$/,
    ],
    // A sparse pair: every() skips holes, so it must not pass as a range of undefined.
    [
      () => st.text({ alphabet: [new Array(2) as never] }),
      /^st\.text: alphabet ranges must be \[from, to\] code points/,
    ],
    [
      () => st.text({ alphabet: 5 as never }),
      /^st\.text: alphabet must be a string or an array of \[from, to\] ranges, got number 5$/,
    ],
    [() => st.records(st.integers() as never), /^st\.records: expects an object of strategies, got a strategy$/],
  ];
  for (const [make, message] of cases) assert.throws(make, invalidArgument(message));
});

test("options given as undefined, or not at all, are the defaults", () => {
  assert.equal(
    find(st.integers({ min: undefined, max: 3 }), () => true, QUIET),
    0,
  );
  assert.equal(
    find(st.integers(undefined), () => true, QUIET),
    0,
  );
  assert.deepEqual(
    find(st.lists(st.booleans(), { unique: false }), (xs) => xs.length > 1, QUIET),
    [false, false],
  );
  assert.equal(
    find(st.floats({ allowNaN: false, allowInfinity: undefined }), () => true, QUIET),
    0,
  );
});

// ------------------------------------------------------------------------------------ strategies that break

test("a deferred strategy returning a non-strategy is an InvalidArgument naming st.deferred, not a failure", () => {
  const prop = property(
    st.deferred(() => 5 as never),
    () => {},
  );
  assert.throws(
    () => check(prop, QUIET),
    invalidArgument(/^st\.deferred: the function's result must be a strategy, got number 5$/),
  );
  // Through oneOf too: the error names the deferred call, wherever it is drawn.
  assert.throws(
    () => drawOnce(st.oneOf(st.deferred(() => null as never))),
    invalidArgument(/^st\.deferred: the function's result must be a strategy, got null$/),
  );
});

test("a flatMap whose function returns a non-strategy is an InvalidArgument naming .flatMap", () => {
  const prop = property(
    st.integers().flatMap(() => "abc" as never),
    () => {},
  );
  assert.throws(
    () => check(prop, QUIET),
    invalidArgument(/^\.flatMap: the function returned string "abc", not a strategy$/),
  );
});

test("a deferred strategy defined as itself is detected, not a stack overflow", () => {
  const self: Strategy<number> = st.deferred(() => self);
  assert.throws(
    () => drawOnce(self),
    invalidArgument(/^st\.deferred: the function returns the deferred strategy itself/),
  );
  assert.throws(
    () =>
      check(
        property(self, () => {}),
        QUIET,
      ),
    invalidArgument(/^st\.deferred: the function returns the deferred strategy itself/),
  );
  // Through a chain of deferreds.
  const a: Strategy<number> = st.deferred(() => b);
  const b: Strategy<number> = st.deferred(() => a);
  assert.throws(
    () => drawOnce(a),
    invalidArgument(
      /^st\.deferred: the function returns the deferred strategy itself \(directly or through other st\.deferred calls\)/,
    ),
  );
  // Through map or filter: it draws itself before making any choice, forever.
  const mapped: Strategy<number[]> = st.deferred(() => mapped.map((x) => [x].flat()));
  assert.throws(
    () => drawOnce(mapped),
    invalidArgument(/^st\.deferred: the strategy draws itself before making any choice/),
  );
  const filtered: Strategy<number> = st.deferred(() => filtered.filter(() => true));
  assert.throws(
    () =>
      check(
        property(filtered, () => {}),
        QUIET,
      ),
    invalidArgument(/^st\.deferred: the strategy draws itself before making any choice/),
  );
});

test("a deferred strategy that recurses after a choice still works (trees)", () => {
  type Tree = number | Tree[];
  const tree: Strategy<Tree> = st.deferred(() => st.oneOf(st.integers(), st.lists(tree, { maxSize: 3 })));
  let nested = 0;
  check(
    property(tree, (t) => {
      if (Array.isArray(t) && t.some(Array.isArray)) nested++;
    }),
    { ...QUIET, maxExamples: 200 },
  );
  assert.ok(nested > 0, "some trees nest");
  assert.deepEqual(
    find(tree, (t) => Array.isArray(t) && t.length > 0, QUIET),
    [0],
  );
  assert.deepEqual(
    find(
      st.recursive<unknown>(st.booleans(), (s) => st.lists(s, { minSize: 1, maxSize: 2 })),
      (t) => Array.isArray(t),
      QUIET,
    ),
    [false],
  );
});

test("a filter whose predicate returns a promise is an InvalidArgument, not an accept-everything filter", () => {
  const prop = property(st.integers().filter((async () => false) as never), () => {});
  assert.throws(() => check(prop, QUIET), invalidArgument(/^\.filter: the predicate returned a promise/));
});

// ------------------------------------------------------------------------------------------------- unique

test("unique over values that contain themselves is an InvalidArgument naming st.lists", () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const s = st.lists(st.just(cyclic), { unique: true, minSize: 1 });
  assert.throws(
    () => drawOnce(s),
    invalidArgument(/^st\.lists: unique cannot compare a value that contains itself \(a cycle\); pass uniqueBy/),
  );
  assert.throws(
    () =>
      check(
        property(s, () => {}),
        QUIET,
      ),
    invalidArgument(/^st\.lists: unique cannot compare a value that contains itself/),
  );
  // Shared but acyclic values are fine: [x, x] is compared by structure.
  const x = { n: 1 };
  assert.equal(
    find(st.lists(st.sampledFrom([[x, x], [x]]), { unique: true }), (xs) => xs.length === 2, QUIET).length,
    2,
  );
});

/** Whether `unique` lets `a` and `b` both into one list (they must differ), found with a list of two. */
function uniqueKeepsBoth(a: unknown, b: unknown): boolean {
  try {
    find(st.lists(st.sampledFrom([a, b]), { unique: true, minSize: 2 }), () => true, { ...QUIET, maxExamples: 50 });
    return true;
  } catch (e) {
    if (e instanceof Unsatisfiable || (e instanceof Error && /no value satisfying/.test(e.message))) return false;
    throw e;
  }
}

test("unique tells apart values JSON would merge: NaN and null, undefined fields and missing ones, symbols", () => {
  const sym = Symbol("k");
  class A {
    x = 1;
  }
  class B {
    x = 1;
  }
  const distinct: [unknown, unknown, string][] = [
    [[NaN], [null], "[NaN] vs [null]"],
    [{ a: undefined }, {}, "an undefined field vs a missing one"],
    [[undefined], [,], "undefined vs a hole"],
    [{ [sym]: 1 }, {}, "a symbol-keyed field"],
    ["{}", {}, "a string vs the object it spells"],
    [new A(), new B(), "instances of two classes"],
    [{ x: 1 }, new A(), "a plain object vs a class instance"],
    [new Map([[1, 2]]), new Map([[1, 3]]), "Maps with different values"],
    [new Set([1]), new Set(["1"]), 'Sets of 1 and "1"'],
    [1n, "1n", "a bigint vs a string"],
    [new Date(0), new Date(1), "Dates"],
    [new Uint8Array([1]), new Int8Array([1]), "typed arrays of different types"],
    [/a/g, /a/i, "RegExp flags"],
    [Infinity, null, "Infinity vs null"],
  ];
  for (const [a, b, what] of distinct) assert.ok(uniqueKeepsBoth(a, b), `unique merged ${what}`);
  const equal: [unknown, unknown, string][] = [
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, "key order"],
    [new Set([1, 2]), new Set([2, 1]), "Set order"],
    [
      new Map([
        [1, 2],
        [3, 4],
      ]),
      new Map([
        [3, 4],
        [1, 2],
      ]),
      "Map order",
    ],
    [[0], [-0], "0 and −0 (SameValueZero, as for primitives)"],
    [[NaN], [NaN], "NaN (SameValueZero)"],
    [{ d: new Date(5) }, { d: new Date(5) }, "equal Dates"],
  ];
  for (const [a, b, what] of equal) assert.ok(!uniqueKeepsBoth(a, b), `unique told apart equal values: ${what}`);
  // Primitives stay SameValueZero: 0 and −0 are one value, NaN is one value.
  assert.ok(!uniqueKeepsBoth(0, -0));
  assert.ok(!uniqueKeepsBoth(NaN, NaN));
});

// --------------------------------------------------------------------------------------------- __proto__

/** A shape with an own `__proto__` field: an object literal `{ __proto__: s }` would set the prototype instead. */
function protoShape(
  strategy: Strategy<unknown>,
  rest: Record<string, Strategy<unknown>> = {},
): Record<string, Strategy<unknown>> {
  const shape = JSON.parse('{"__proto__": 0}') as Record<string, Strategy<unknown>>;
  Object.defineProperty(shape, "__proto__", { value: strategy, enumerable: true, writable: true, configurable: true });
  return Object.assign(shape, rest);
}

test("a record field named __proto__ is an own data property of every generated object, never the prototype", () => {
  const numbers = st.records(protoShape(st.integers({ min: 1, max: 9 }), { a: st.booleans() }));
  const objects = st.records(protoShape(st.records({ polluted: st.just(true) })));
  check(
    property(numbers, objects, (n, o) => {
      for (const value of [n, o]) {
        assert.equal(Object.getPrototypeOf(value), Object.prototype);
        assert.deepEqual(Object.getOwnPropertyDescriptor(value, "__proto__")?.enumerable, true);
      }
      assert.equal(typeof Object.getOwnPropertyDescriptor(n, "__proto__")?.value, "number");
      assert.deepEqual(Object.keys(n), ["__proto__", "a"]);
      assert.equal((o as Record<string, unknown>).polluted, undefined, "the field did not become the prototype");
    }),
    { ...QUIET, maxExamples: 30 },
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test("record fields named like Object.prototype members and symbol-keyed fields are own fields", () => {
  const sym = Symbol("tag");
  const shape = {
    constructor: st.integers(),
    toString: st.booleans(),
    hasOwnProperty: st.just("h"),
    valueOf: st.just(1),
    [sym]: st.just("s"),
  };
  const value = drawOnce(st.records(shape)) as Record<string | symbol, unknown>;
  for (const key of ["constructor", "toString", "hasOwnProperty", "valueOf", sym])
    assert.ok(Object.hasOwn(value, key), String(key));
  assert.equal(value.hasOwnProperty, "h");
  assert.equal(value[sym], "s");
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
});

// ------------------------------------------------------------------------------------------------- sizes

test("text of 100,000 characters and bytes of 130,000 are generated and pass (no spread RangeError)", () => {
  const big = { ...QUIET, maxExamples: 3, maxChoices: 300_000 };
  check(
    property(st.text({ minSize: 100_000, maxSize: 100_000 }), (s) => assert.equal([...s].length, 100_000)),
    big,
  );
  check(
    property(st.bytes({ minSize: 130_000 }), (b) => assert.ok(b.length >= 130_000)),
    big,
  );
  check(
    property(st.text({ alphabet: [[0x10000, 0x10010]], minSize: 100_000, maxSize: 100_000 }), (s) =>
      assert.equal([...s].length, 100_000),
    ),
    big,
  );
});

test("a failing property on big values reports the property's own error, printed, within the shrink budget", () => {
  const big = { ...QUIET, maxChoices: 300_000, maxShrinkCalls: 300 };
  const started = performance.now();
  const error = (() => {
    try {
      check(
        property(st.bytes({ minSize: 130_000 }), (b) => assert.ok(b[0] === 0, "nonzero")),
        big,
      );
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  assert.ok(error instanceof PropertyFailure, String(error));
  assert.match(String((error.cause as Error).message), /nonzero/);
  assert.equal((error.args[0] as Uint8Array).length, 130_000, "the deletions stopped at minSize");
  assert.match(error.repro, /^new Uint8Array\(\[1, /);
  // The shrinker's pass over the elements must not re-read the whole value per position (quadratic: minutes).
  assert.ok(performance.now() - started < 60_000, `took ${Math.round(performance.now() - started)} ms`);
});

test("string and bytes choice indices are exact and fast for long values (no spread, no quadratic BigInt)", () => {
  const bytes = Uint8Array.from({ length: 130_000 }, (_, i) => (i * 37 + 11) & 255);
  const c = { minSize: 0, maxSize: 1_000_000 };
  const started = performance.now();
  assert.deepEqual(choiceFromIndex("bytes", choiceToIndex("bytes", bytes, c), c), bytes);
  assert.ok(performance.now() - started < 5000, "index round trip of 130,000 bytes in under 5 s");
  assert.equal(choiceToIndex("bytes", Uint8Array.of(0), { minSize: 0, maxSize: 2 }), 1n);
  assert.equal(choiceToIndex("bytes", Uint8Array.of(0, 0), { minSize: 0, maxSize: 2 }), 257n);
});

test("a minSize that can never fit in the choice budget is an InvalidArgument naming the call and maxChoices", () => {
  const started = performance.now();
  assert.throws(
    () =>
      check(
        property(st.bytes({ minSize: 1e7 }), () => {}),
        QUIET,
      ),
    invalidArgument(
      /^st\.bytes: minSize \(10000000\) can never fit in the choice budget of a test case \(maxChoices is 8192, and each byte counts as one choice\); raise the maxChoices setting/,
    ),
  );
  assert.throws(
    () =>
      check(
        property(st.text({ minSize: 1e6 }), () => {}),
        QUIET,
      ),
    invalidArgument(
      /^st\.text: minSize \(1000000\) can never fit .* raise the maxChoices setting above 1000000 or lower minSize$/,
    ),
  );
  assert.throws(
    () =>
      check(
        property(st.lists(st.integers(), { minSize: 1e6 }), () => {}),
        QUIET,
      ),
    invalidArgument(
      /^st\.lists: minSize \(1000000\) can never fit in the choice budget of a test case \(maxChoices is 8192, and each element takes at least one choice\)/,
    ),
  );
  assert.throws(
    () => drawOnce(st.lists(st.just(0), { minSize: 100 }), 1, 100),
    invalidArgument(/^st\.lists: minSize \(100\) can never fit .*maxChoices is 100/),
  );
  // Refused before anything that size is made.
  assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
  // Raising the budget makes them fit.
  check(
    property(st.lists(st.just(0), { minSize: 100 }), (xs) => assert.ok(xs.length >= 100)),
    { ...QUIET, maxChoices: 200, maxExamples: 5 },
  );
});

test("values that fit alone but not together end as overruns naming the budget, never a crash", () => {
  const prop = property(st.text({ minSize: 600 }), st.bytes({ minSize: 600 }), () => {});
  assert.throws(
    () => check(prop, { ...QUIET, maxChoices: 1000 }),
    (e: unknown) => e instanceof Unsatisfiable && /1000-choice budget/.test(e.message),
  );
  // The budget counts the characters: one case cannot hold ten million bytes however they are split up.
  const many = property(st.lists(st.bytes({ minSize: 1000, maxSize: 1000 }), { minSize: 10 }), () => {});
  assert.throws(
    () => check(many, QUIET),
    (e: unknown) => e instanceof Unsatisfiable && /8192-choice budget/.test(e.message),
  );
});

// ------------------------------------------------------------------------------------- user code at construction

test("an extend that throws in st.recursive is an InvalidArgument naming the call, with the error as cause", () => {
  const boom = new Error("ext");
  assert.throws(
    () =>
      st.recursive(st.integers(), () => {
        throw boom;
      }),
    (e: unknown) => invalidArgument(/^st\.recursive: extend threw Error: ext$/)(e) && (e as Error).cause === boom,
  );
  // Thrown non-Errors too; and misuse inside extend keeps naming the call that was misused.
  assert.throws(
    () =>
      st.recursive(st.integers(), () => {
        throw "nope";
      }),
    invalidArgument(/^st\.recursive: extend threw string "nope" \(not an Error\)$/),
  );
  assert.throws(
    () => st.recursive<unknown>(st.integers(), (s) => st.lists(s, { size: 2 } as never)),
    invalidArgument(/^st\.lists: unknown option "size"/),
  );
});

test("a shape whose getter or Proxy trap throws is an InvalidArgument from st.records, at construction", () => {
  const shape = {
    get a() {
      throw new Error("shape getter");
    },
  };
  assert.throws(
    () => st.records(shape as never),
    invalidArgument(/^st\.records: reading the shape threw Error: shape getter$/),
  );
  const trap = new Proxy(
    {},
    {
      ownKeys() {
        throw new Error("ownKeys trap");
      },
    },
  );
  assert.throws(() => st.records(trap), invalidArgument(/^st\.records: reading the shape threw Error: ownKeys trap$/));
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.throws(() => st.records(proxy), invalidArgument(/^st\.records: reading the shape threw TypeError/));
  // A strategy that is a revoked Proxy is just not a strategy.
  assert.throws(
    () => st.lists(proxy as never),
    invalidArgument(/^st\.lists: elements must be a strategy, got an unreadable object$/),
  );
});

test("options and sampledFrom values are read once, at construction: a throwing getter is InvalidArgument", () => {
  const options = {
    get min() {
      throw new Error("option getter");
    },
  };
  assert.throws(
    () => st.integers(options as never),
    invalidArgument(/^st\.integers: reading the options threw Error: option getter$/),
  );
  const values = new Proxy([1, 2], {
    get(t, k) {
      if (k === "0") throw new Error("index getter");
      return Reflect.get(t, k);
    },
  });
  assert.throws(
    () => st.sampledFrom(values),
    invalidArgument(/^st\.sampledFrom: reading the values threw Error: index getter$/),
  );
  const range = [0x61, 0x62];
  Object.defineProperty(range, 1, {
    get() {
      throw new Error("range getter");
    },
  });
  assert.throws(
    () => st.text({ alphabet: [range as [number, number]] }),
    invalidArgument(/^st\.text: reading the alphabet threw Error: range getter$/),
  );
  // A getter that answers differently each time is read once, so the value checked is the value used.
  let reads = 0;
  const flip = {
    get maxSize() {
      reads++;
      return reads === 1 ? 2 : -1;
    },
  };
  const xs = drawOnce(st.lists(st.integers(), flip as never));
  assert.ok(xs.length <= 2);
  assert.equal(reads, 1);
});
