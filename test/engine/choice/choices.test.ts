// Laws of the choice layer, checked with the engine itself over many generated constraints and values.
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, property, st } from "../../../src/engine/index.ts";
import type { ChoiceType, ChoiceValue, Constraints } from "../../../src/engine/choice/types.ts";
import {
  choiceFromIndex,
  choiceToIndex,
  compareChoice,
  indexNumber,
} from "../../../src/engine/choice/complexityIndex.ts";
import { compareNodes, sortKey } from "../../../src/engine/choice/order.ts";
import { dataOfNodes, nodeAt } from "../../../src/engine/choice/storage.ts";
import { domainSize, permitted, simplest } from "../../../src/engine/choice/domain.ts";
import { IntervalSet } from "../../../src/engine/choice/intervals.ts";
import { floatFromKey, floatKey } from "../../../src/engine/choice/floatOrder.ts";
import { sameConstraints } from "../../../src/engine/core/datatree.ts";

const SETTINGS = { maxExamples: 300, database: null, deadline: null } as const;

/** A choice type with constraints and a legal value under them. */
const integerCase = st
  .tuples(
    st.integers({ min: -1000, max: 1000 }),
    st.integers({ min: 0, max: 2000 }),
    st.integers({ min: -1200, max: 1200 }),
    st.booleans(),
    st.booleans(),
  )
  .flatMap(([lo, width, towards, boundLo, boundHi]) => {
    const c = { min: boundLo ? lo : null, max: boundHi ? lo + width : null, shrinkTowards: towards };
    return st
      .integers({ min: c.min ?? undefined, max: c.max ?? undefined })
      .map((value) => ({ type: "integer" as ChoiceType, c: c as Constraints, value: value as ChoiceValue }));
  });

const floatCase = st
  .tuples(st.floats({ allowNaN: false }), st.floats({ allowNaN: false }), st.booleans())
  .flatMap(([a, b, bounded]) => {
    const [min, max] = bounded ? (a <= b ? [a, b] : [b, a]) : [-Infinity, Infinity];
    const c = { min, max, allowNaN: !bounded };
    const values = bounded
      ? st.floats({ min, max, allowInfinity: !Number.isFinite(min) || !Number.isFinite(max) })
      : st.floats();
    return values.map((value) => ({ type: "float" as ChoiceType, c: c as Constraints, value: value as ChoiceValue }));
  });

const stringCase = st
  .tuples(
    st.text({ alphabet: "ab0 \u00e9\u{1F600}", minSize: 1, maxSize: 4 }),
    st.integers({ min: 0, max: 3 }),
    st.integers({ min: 0, max: 6 }),
  )
  .flatMap(([alphabet, minSize, extra]) => {
    const c = { alphabet: IntervalSet.fromString(alphabet), minSize, maxSize: minSize + extra };
    return st
      .text({ alphabet, minSize, maxSize: minSize + extra })
      .map((value) => ({ type: "string" as ChoiceType, c: c as Constraints, value: value as ChoiceValue }));
  });

const bytesCase = st
  .tuples(st.integers({ min: 0, max: 3 }), st.integers({ min: 0, max: 5 }))
  .flatMap(([minSize, extra]) =>
    st.bytes({ minSize, maxSize: minSize + extra }).map((value) => ({
      type: "bytes" as ChoiceType,
      c: { minSize, maxSize: minSize + extra } as Constraints,
      value: value as ChoiceValue,
    })),
  );

const booleanCase = st.sampledFrom([0, 0.5, 1]).flatMap((p) =>
  (p === 0 ? st.just(false) : p === 1 ? st.just(true) : st.booleans()).map((value) => ({
    type: "boolean" as ChoiceType,
    c: { p } as Constraints,
    value: value as ChoiceValue,
  })),
);

const anyCase = st.oneOf(integerCase, floatCase, stringCase, bytesCase, booleanCase);

function same(type: ChoiceType, a: ChoiceValue, b: ChoiceValue): boolean {
  if (type === "bytes") return Buffer.from(a as Uint8Array).equals(Buffer.from(b as Uint8Array));
  return Object.is(a, b);
}

test("choiceFromIndex inverts choiceToIndex on every legal value", () => {
  check(
    property(anyCase, ({ type, c, value }) => {
      assert.ok(permitted(type, value, c), `generated value must be legal: ${String(value)}`);
      const i = choiceToIndex(type, value, c);
      assert.ok(i >= 0n);
      const back = choiceFromIndex(type, i, c);
      assert.ok(same(type, back, value), `${type} ${String(value)} -> ${i} -> ${String(back)}`);
    }),
    SETTINGS,
  );
});

test("index 0 is legal and no legal value is simpler", () => {
  check(
    property(anyCase, ({ type, c, value }) => {
      const zero = choiceFromIndex(type, 0n, c);
      assert.ok(permitted(type, zero, c), "index 0 must be legal");
      assert.ok(same(type, zero, simplest(type, c)), "index 0 is the simplest value");
      assert.ok(compareChoice(type, zero, value, c) <= 0, "nothing is simpler than index 0");
      assert.equal(Math.sign(compareChoice(type, zero, value, c)), choiceToIndex(type, value, c) === 0n ? 0 : -1);
    }),
    SETTINGS,
  );
});

test("compareChoice agrees with the order of indices", () => {
  const pair = anyCase.flatMap((a) => anyCase.filter((b) => b.type === a.type).map((b) => [a, b] as const));
  check(
    property(integerCase, integerCase, (a, b) => {
      // Same constraints for both values: compare b's value under a's constraints only when legal there.
      if (!permitted(a.type, b.value, a.c)) return;
      const byIndex = Math.sign(Number(choiceToIndex(a.type, a.value, a.c) - choiceToIndex(a.type, b.value, a.c)));
      assert.equal(Math.sign(compareChoice(a.type, a.value, b.value, a.c)), byIndex);
    }),
    SETTINGS,
  );
  check(
    property(pair, ([a, b]) => {
      if (!permitted(a.type, b.value, a.c)) return;
      const byIndex = Math.sign(Number(choiceToIndex(a.type, a.value, a.c) - choiceToIndex(a.type, b.value, a.c)));
      assert.equal(Math.sign(compareChoice(a.type, a.value, b.value, a.c)), byIndex);
    }),
    SETTINGS,
  );
});

test("integer indices zigzag around shrinkTowards (Hypothesis's worked example)", () => {
  const c = { min: null, max: null, shrinkTowards: 0 };
  assert.deepEqual(
    [0, 1, -1, 2, -2, 3, -3, 10].map((v) => choiceToIndex("integer", v, c)),
    [0n, 1n, 2n, 3n, 4n, 5n, 6n, 19n],
  );
  // Bounded below at 3 with target 5: 5, 6, 4, 7, 3, 8, 9, 10 …
  const b = { min: 3, max: 10, shrinkTowards: 5 };
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7].map((i) => choiceFromIndex("integer", BigInt(i), b)),
    [5, 6, 4, 7, 3, 8, 9, 10],
  );
  // Drawn with min 1, the simplest integer is 1.
  assert.equal(simplest("integer", { min: 1, max: null, shrinkTowards: 0 }), 1);
});

test("sortKey is shortlex: [10] < [0, 3] < [3, 0]", () => {
  const c = { min: null, max: null, shrinkTowards: 0 };
  const seq = (...vs: number[]) =>
    vs.map((value) => ({ type: "integer" as const, value, constraints: c, forced: false }));
  assert.deepEqual(sortKey(seq(10)), { length: 1, indices: [19n] });
  assert.equal(compareNodes(seq(10), seq(0, 3)).order, -1);
  assert.equal(compareNodes(seq(0, 3), seq(3, 0)).order, -1);
  const cmp = compareNodes(seq(0, 3), seq(0, 5));
  assert.deepEqual(cmp, { order: -1, by: "position", position: 1, indices: [5, 9] });
});

test("floats: integral before fractional, fewer binary digits first, signs interleaved", () => {
  const ordered = [
    0,
    -0,
    1,
    -1,
    2,
    3,
    2 ** 53,
    Number.MAX_VALUE,
    0.5,
    -0.5,
    1.5,
    0.25,
    0.1,
    Number.MIN_VALUE,
    Infinity,
    -Infinity,
    NaN,
  ];
  const keys = ordered.map(floatKey);
  for (let i = 1; i < keys.length; i++) assert.ok(keys[i - 1] < keys[i], `${ordered[i - 1]} before ${ordered[i]}`);
  for (const v of ordered) assert.ok(Object.is(floatFromKey(floatKey(v)), v));
  assert.equal(simplest("float", { min: 1.2, max: 1.9, allowNaN: false }), 1.5);
  assert.equal(simplest("float", { min: -7.5, max: -2.2, allowNaN: false }), -3);
});

test("strings shrink toward '0' and shorter", () => {
  const c = { alphabet: new IntervalSet([[0, 0x10ffff]]), minSize: 0, maxSize: 10 };
  assert.equal(choiceFromIndex("string", 1n, c), "0");
  assert.ok(compareChoice("string", "z", "ab", c) < 0);
  assert.ok(compareChoice("string", "0", " ", c) < 0);
  assert.ok(compareChoice("string", "a", "\u00e9", c) < 0);
});

test('strings order by UTF-16 length, then character by character: "000" before "0\u{10000}"', () => {
  const all = { alphabet: new IntervalSet([[0, 0x10ffff]]), minSize: 0, maxSize: 10 };
  assert.ok(compareChoice("string", "000", "0\u{10000}", all) < 0);
  assert.ok(choiceToIndex("string", "000", all) < choiceToIndex("string", "0\u{10000}", all));
  assert.ok(compareChoice("string", "\u{10000}", "000", all) < 0, "two units before three");
  // Every value of a small mixed-width domain, in compareChoice order, has indices 0, 1, 2, … and back.
  for (const [minSize, maxSize] of [
    [0, 3],
    [1, 2],
    [2, 3],
    [3, 3],
  ]) {
    const c = { alphabet: IntervalSet.fromString("a0\u00e9\u{1F600}\u{1F642}"), minSize, maxSize };
    const chars = ["a", "0", "\u00e9", "\u{1F600}", "\u{1F642}"];
    let values = [""];
    const legal: string[] = [];
    for (let n = 0; n <= maxSize; n++) {
      if (n >= minSize) legal.push(...values);
      values = values.flatMap((v) => chars.map((ch) => v + ch));
    }
    legal.sort((x, y) => compareChoice("string", x, y, c));
    assert.equal(domainSize("string", c), legal.length);
    legal.forEach((v, i) => {
      assert.equal(choiceToIndex("string", v, c), BigInt(i), `${minSize}..${maxSize}: ${v}`);
      assert.equal(choiceFromIndex("string", BigInt(i), c), v);
      assert.equal(indexNumber("string", v, c), i);
    });
    assert.throws(() => choiceFromIndex("string", BigInt(legal.length), c), RangeError);
  }
});

test('an alphabet in code-point order (st.characters): "0" first, then by code point; indices a bijection', () => {
  const text = IntervalSet.fromString("z !0Aa\u00e9\u{1F600}/");
  const byCodePoint = text.inOrder("codePoint");
  const order = (set: IntervalSet) =>
    Array.from({ length: set.size }, (_, i) => String.fromCodePoint(set.atShrinkIndex(i)));
  assert.deepEqual(order(byCodePoint), ["0", " ", "!", "/", "A", "a", "z", "\u00e9", "\u{1F600}"]);
  assert.deepEqual(order(text), ["0", "A", "a", "z", " ", "!", "/", "\u00e9", "\u{1F600}"]);
  for (const set of [byCodePoint, text, IntervalSet.fromString(" !A").inOrder("codePoint")])
    for (let i = 0; i < set.size; i++) {
      assert.equal(set.shrinkIndex(set.atShrinkIndex(i)), i);
      if (set.order === "text") assert.equal(set.atTextIndex(i), set.atShrinkIndex(i));
    }
  // Generation reads both in text order; the choice's values, in order, have indices 0, 1, 2, … and back.
  assert.deepEqual(
    order(text).map((_, i) => byCodePoint.atTextIndex(i)),
    order(text).map((ch) => ch.codePointAt(0)),
  );
  const c = { alphabet: byCodePoint, minSize: 1, maxSize: 1 };
  order(byCodePoint).forEach((ch, i) => {
    assert.equal(choiceToIndex("string", ch, c), BigInt(i));
    assert.equal(choiceFromIndex("string", BigInt(i), c), ch);
  });
  assert.equal(
    simplest("string", { alphabet: IntervalSet.fromString(" !A").inOrder("codePoint"), minSize: 1, maxSize: 1 }),
    " ",
  );
  // The same characters in another order are another kind of choice (their indices differ).
  assert.ok(sameConstraints(c, { alphabet: byCodePoint.inOrder("text").inOrder("codePoint"), minSize: 1, maxSize: 1 }));
  assert.ok(!sameConstraints(c, { alphabet: text, minSize: 1, maxSize: 1 }));
});

test("domainSize of a one-character alphabet is one value per length, computed without a loop", () => {
  const one = { alphabet: IntervalSet.fromString("a"), minSize: 2, maxSize: 2 ** 31 - 1 };
  const t0 = performance.now();
  assert.equal(domainSize("string", one), 2 ** 31 - 2);
  assert.equal(domainSize("string", { ...one, maxSize: 5 }), 4);
  assert.equal(domainSize("string", { alphabet: IntervalSet.fromString(""), minSize: 0, maxSize: 3 }), 1);
  assert.ok(performance.now() - t0 < 50, "no loop over 2^31 lengths");
});

test("flat choice storage round-trips ChoiceNode objects", () => {
  const nodes = [
    { type: "integer" as const, value: 5, constraints: { min: 0, max: 9, shrinkTowards: 0 }, forced: false },
    { type: "boolean" as const, value: true, constraints: { p: 0.5 }, forced: true },
  ];
  const data = dataOfNodes(nodes);
  assert.deepEqual([nodeAt(data, 0), nodeAt(data, 1)], nodes);
});

test("indexNumber's memo of string counts is bounded and stays right once full (long strings of a small alphabet of both widths)", () => {
  const k = {
    alphabet: new IntervalSet([
      [48, 49],
      [0x1f600, 0x1f600],
    ]),
    minSize: 0,
    maxSize: 2 ** 31 - 1,
  };
  const chars = ["0", "1", "😀"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  // 3,000 strings of up to 330 characters: more (units, position) pairs than the memo keeps (2^16).
  const strings = Array.from({ length: 3000 }, (_, i) =>
    Array.from({ length: 1 + (i % 330) }, () => chars[next() % 3]).join(""),
  );
  for (const v of strings) indexNumber("string", v, k);
  for (const v of ["0", "😀1", strings[5], strings[250], strings[2999]]) {
    const exact = Number(choiceToIndex("string", v, k));
    const approx = indexNumber("string", v, k);
    if (exact === Infinity) assert.equal(approx, Infinity);
    else
      assert.ok(
        approx === exact || Math.abs(approx - exact) / exact < 1e-12,
        `${v.length} units: ${approx} against ${exact}`,
      );
  }
});

test("indexNumber (events) agrees with the exact index below 2^53 for strings and bytes, and stays close above", () => {
  const ascii = { alphabet: new IntervalSet([[32, 126]]), minSize: 0, maxSize: 20 };
  for (const v of ["", "0", "a", "00", "zz~", "hello"])
    assert.equal(indexNumber("string", v, ascii), Number(choiceToIndex("string", v, ascii)));
  const bytes = { minSize: 1, maxSize: 9 };
  for (const v of [[0], [255], [1, 2, 3], [9, 9, 9, 9, 9]])
    assert.equal(
      indexNumber("bytes", new Uint8Array(v), bytes),
      Number(choiceToIndex("bytes", new Uint8Array(v), bytes)),
    );
  const big = "a".repeat(15);
  const exact = Number(choiceToIndex("string", big, ascii));
  assert.ok(Math.abs(indexNumber("string", big, ascii) - exact) / exact < 1e-12);
  // Both widths (st.text()'s default alphabet: the BMP and astral characters), summed in doubles (utf16.ts).
  const full = new IntervalSet([
    [0, 0xd7ff],
    [0xe000, 0x10ffff],
  ]);
  for (const k of [
    { alphabet: full, minSize: 0, maxSize: 2 ** 31 - 1 },
    { alphabet: full, minSize: 2, maxSize: 6 },
    {
      alphabet: new IntervalSet([
        [48, 57],
        [0x1f600, 0x1f60f],
      ]),
      minSize: 1,
      maxSize: 5,
    },
  ]) {
    for (const v of [
      "",
      "0",
      "é",
      "😀",
      "0😀",
      "😀0",
      "𐀀𐀀",
      "ab😀c",
      "😀😀😀😀",
      "hello",
      "9😏9😏9",
      "a".repeat(40),
      "😀".repeat(20),
    ]) {
      if (!permitted("string", v, k)) continue;
      const exactIndex = choiceToIndex("string", v, k);
      const approx = indexNumber("string", v, k);
      if (exactIndex < 2n ** 53n)
        assert.equal(
          approx,
          Number(exactIndex),
          `${JSON.stringify(v)} under minSize ${k.minSize}, maxSize ${k.maxSize}`,
        );
      else
        assert.ok(
          Math.abs(approx - Number(exactIndex)) / Number(exactIndex) < 1e-12,
          `${JSON.stringify(v)}: ${approx} is not close to ${exactIndex}`,
        );
    }
  }
});

test("an integer choice is never −0: a float's −0 queued into an integer draw is refused, not recorded", () => {
  // Recorded as an integer −0, it read as 0 to the DataTree and a zod tuple's st.sample was called flaky.
  const c = { min: 0, max: 0, shrinkTowards: 0 };
  assert.equal(permitted("integer", -0, c), false);
  assert.equal(permitted("integer", 0, c), true);
});
