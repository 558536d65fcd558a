// Strategies: misuse throws at construction naming the call; each strategy's values and their minimal forms.
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, find, property, st, InvalidArgument } from "../../../src/engine/index.ts";
import type { Strategy } from "../../../src/engine/index.ts";
import { Random } from "../../../src/engine/util/random.ts";
import { StopTest, TestCase } from "../../../src/engine/core/testCase.ts";

const QUIET = { database: null, deadline: null } as const;

test("bad arguments throw at construction with a message naming the call", () => {
  const cases: [() => unknown, RegExp][] = [
    [() => st.integers({ min: 5, max: 1 }), /^st\.integers: min \(5\) must not be greater than max \(1\)/],
    [() => st.integers({ min: 1.5 }), /^st\.integers: min must be a safe integer/],
    [() => st.floats({ min: 2, max: 1 }), /^st\.floats: min \(2\) must not be greater than max \(1\)/],
    [() => st.floats({ min: NaN }), /^st\.floats: min must be a number/],
    [() => st.floats({ min: 0, allowNaN: true }), /^st\.floats: allowNaN cannot be true/],
    [() => st.text({ minSize: -1 }), /^st\.text: minSize must be a non-negative integer/],
    [() => st.text({ minSize: 3, maxSize: 2 }), /^st\.text: minSize \(3\) must not be greater than maxSize \(2\)/],
    [() => st.text({ alphabet: "", minSize: 1 }), /^st\.text: the alphabet is empty/],
    [() => st.bytes({ maxSize: -2 }), /^st\.bytes: maxSize must be a non-negative integer/],
    [() => st.lists(5 as never), /^st\.lists: elements must be a strategy, got number 5/],
    [() => st.lists(st.integers(), { minSize: 4, maxSize: 1 }), /^st\.lists: minSize \(4\) must not be greater/],
    [() => st.sampledFrom([]), /^st\.sampledFrom: the array of values is empty/],
    [() => st.sampledFrom("abc" as never), /^st\.sampledFrom: expects an array/],
    [() => st.oneOf(), /^st\.oneOf: needs at least one strategy/],
    [() => st.oneOf(st.integers(), {} as never), /^st\.oneOf: argument 1 must be a strategy/],
    [() => st.tuples(st.integers(), null as never), /^st\.tuples: argument 1 must be a strategy, got null/],
    [() => st.records({ a: 1 } as never), /^st\.records: key "a" must be a strategy/],
    [
      () => st.recursive(st.integers(), (s) => s, { maxLeaves: 0 }),
      /^st\.recursive: maxLeaves must be a positive integer/,
    ],
    [() => st.integers().map(3 as never), /^\.map: expects a function/],
    [() => property(st.integers()), /^property: the last argument .* must be the property's body function/],
    [() => property(3 as never, () => {}), /^property: argument 0 must be a strategy/],
    [() => property(st.integers(), () => {}, { maxExamples: 0 }), /^property: maxExamples must be a positive integer/],
    [() => property(st.integers(), () => {}, { maxExampels: 10 } as never), /^property: unknown setting "maxExampels"/],
    [() => check((() => {}) as never), /^check: expects a property made by property/],
    [
      () => property(st.integers(), ((a: number, b: number) => a + b) as never),
      /^property: the body takes 2 parameters but 1 strategy is given: give a strategy for each parameter/,
    ],
    // Unique collections that cannot reach their minSize: said when made, not as every case rejected.
    [
      () => st.lists(st.integers({ min: 0, max: 2 }), { unique: true, minSize: 5 }),
      /^st\.lists: minSize is 5, but the strategy of its elements has at most 3 distinct values: 3 distinct values cannot fill 5/,
    ],
    [
      () => st.lists(st.booleans().map(String), { uniqueBy: (s) => s, minSize: 3 }),
      /^st\.lists: minSize is 3, .* at most 2 distinct values/,
    ],
    [
      () => st.sets(st.sampledFrom(["a", "b"]), { minSize: 3 }),
      /^st\.sets: minSize is 3, .* at most 2 distinct values/,
    ],
    [
      () => st.maps(st.just("k"), st.integers(), { minSize: 2 }),
      /^st\.maps: minSize is 2, but the strategy of its keys has at most 1 distinct value:/,
    ],
    [
      () => st.dictionaries(st.oneOf(st.just("a"), st.just("b")), st.integers(), { minSize: 3 }),
      /^st\.dictionaries: minSize is 3, .* at most 2 distinct values/,
    ],
    // A huge (here sparse) array is refused before copying it runs the process out of memory.
    [
      () => st.sampledFrom(new Array(2 ** 32 - 1)),
      /^st\.sampledFrom: the array has 4294967295 elements, more than 16777216/,
    ],
    // Explicit examples give one argument per strategy; a machine takes none.
    [
      () => property(st.integers(), st.integers(), () => {}, { examples: [[1, 2], [1]] }),
      /^property: examples\[1\] has 1 argument, but the property takes 2 \(one per strategy\)/,
    ],
    [
      () =>
        check(
          property(st.integers(), () => {}),
          { examples: [[1, 2]] },
        ),
      /^check: examples\[0\] has 2 arguments, but the property takes 1/,
    ],
  ];
  for (const [make, message] of cases) {
    assert.throws(make, (e: unknown) => e instanceof InvalidArgument && message.test(e.message), String(message));
  }
  // A flatMap that returns something other than a strategy is named when it happens.
  assert.throws(
    () =>
      check(
        property(
          st.integers().flatMap(() => 3 as never),
          () => {},
        ),
        QUIET,
      ),
    /\.flatMap: the function returned number 3, not a strategy/,
  );
});

test("collections that can reach their minSize with distinct values are made and drawn", () => {
  assert.deepEqual(
    find(st.lists(st.integers({ min: 0, max: 2 }), { unique: true, minSize: 3 }), () => true, QUIET),
    [0, 1, 2],
  );
  assert.equal(find(st.sets(st.booleans(), { minSize: 2 }), () => true, QUIET).size, 2);
  // Unbounded elements, and filters over them, never count as few.
  assert.equal(
    find(
      st.lists(
        st.integers().filter((n) => n > 0),
        { unique: true, minSize: 4 },
      ),
      () => true,
      QUIET,
    ).length,
    4,
  );
});

test("each strategy's values respect its options and shrink to the expected minimal form", () => {
  assert.equal(
    find(st.integers({ min: 10, max: 20 }), () => true, QUIET),
    10,
  );
  assert.equal(
    find(st.integers({ min: -20, max: -10 }), () => true, QUIET),
    -10,
  );
  assert.equal(
    find(st.integers({ shrinkTowards: 2000 }), (n) => n < 1990, QUIET),
    1989,
  );
  assert.equal(
    find(st.integers(), (n) => n < -5, QUIET),
    -6,
  );
  assert.equal(
    find(st.floats({ min: 0.3, max: 0.4 }), () => true, QUIET),
    0.375,
  );
  assert.equal(
    find(st.booleans(), (b) => b, QUIET),
    true,
  );
  assert.equal(
    find(st.text({ alphabet: "xyz", minSize: 2 }), () => true, QUIET),
    "xx",
  );
  assert.deepEqual(
    find(st.bytes({ minSize: 1 }), (b) => b[0] > 7, QUIET),
    Uint8Array.from([8]),
  );
  assert.deepEqual(
    find(st.lists(st.integers(), { minSize: 2 }), () => true, QUIET),
    [0, 0],
  );
  assert.deepEqual(
    find(st.tuples(st.integers(), st.text()), ([n, s]) => n > 1 && s.length > 0, QUIET),
    [2, "0"],
  );
  assert.deepEqual(
    find(st.records({ a: st.integers(), b: st.booleans() }), (r) => r.b, QUIET),
    { a: 0, b: true },
  );
  assert.equal(
    find(st.oneOf(st.just("first"), st.integers().map(String)), (s) => s !== "first", QUIET),
    "0",
  );
  assert.equal(
    find(st.sampledFrom(["a", "b", "c"] as const), (s) => s !== "a", QUIET),
    "b",
  );
  assert.equal(
    find(
      st.integers().filter((n) => n % 7 === 3),
      (n) => n > 0,
      QUIET,
    ),
    3,
  );
  assert.deepEqual(
    find(
      st.integers({ min: 1, max: 5 }).flatMap((n) => st.lists(st.booleans(), { minSize: n, maxSize: n })),
      (xs) => xs.length >= 3,
      QUIET,
    ),
    [false, false, false],
  );
  check(
    property(st.floats({ allowNaN: false, allowInfinity: false }), (x) => assert.ok(Number.isFinite(x))),
    QUIET,
  );
  check(
    property(st.text({ alphabet: [[0x41, 0x43]], maxSize: 5 }), (s) => assert.match(s, /^[ABC]{0,5}$/)),
    QUIET,
  );
});

test("types are inferred through every combinator", () => {
  // Compile-time checks (tsc runs over tests): wrong annotations here would fail `npm run typecheck`.
  const rec = st.records({ id: st.integers(), tags: st.lists(st.text()), pair: st.tuples(st.booleans(), st.bytes()) });
  const p = property(rec, st.oneOf(st.just(1 as const), st.just("x" as const)), (r, u) => {
    const id: number = r.id;
    const tag: string | undefined = r.tags[0];
    const flag: boolean = r.pair[0];
    const b: Uint8Array = r.pair[1];
    const union: 1 | "x" = u;
    void [id, tag, flag, b, union];
  });
  check(p, { ...QUIET, maxExamples: 10 });
});

test("a list generated with spans off draws the choices it draws with spans on (its straight loop, TestCase.freshStream)", () => {
  // With spans off and nothing to replay, queue or steer, a list draws its flags and integer elements straight;
  // the choices, the randomness used and the value must be those of the full path, which spans on takes.
  const strategies: Strategy<unknown>[] = [
    st.lists(st.integers()),
    st.lists(st.integers({ min: -3, max: 3 }), { minSize: 2, maxSize: 6 }),
    st.lists(st.lists(st.integers())),
    st.lists(st.tuples(st.integers(), st.lists(st.booleans()))),
    st.tuples(st.lists(st.integers()), st.text(), st.lists(st.integers(), { maxSize: 1 })),
  ];
  const drawn = (s: Strategy<unknown>, seed: number, spansOff: boolean, maxChoices: number, growthLimit: number) => {
    const tc = new TestCase([], new Random(seed), maxChoices);
    tc.spansOff = spansOff;
    tc.growthLimit = growthLimit;
    let value: unknown;
    try {
      value = s.draw(tc);
    } catch (e) {
      if (!(e instanceof StopTest)) throw e;
      value = `stopped: ${e.status}`;
    }
    const codes = Array.from({ length: tc.choiceCount }, (_, i) => tc.typeCodeAt(i));
    return { value, choices: tc.choices, codes, next: tc.random?.uint32() };
  };
  for (const s of strategies)
    for (let seed = 0; seed < 150; seed++) {
      // An ample budget, one a long list runs over, and a small case's growth limit (its last flag generated false).
      for (const [maxChoices, growthLimit] of [
        [8192, Infinity],
        [12, Infinity],
        [8192, 6],
      ])
        assert.deepEqual(
          drawn(s, seed, true, maxChoices, growthLimit),
          drawn(s, seed, false, maxChoices, growthLimit),
          `seed ${seed}, maxChoices ${maxChoices}, growthLimit ${growthLimit}`,
        );
    }
});
