// The shrinking-challenge problems (docs/benchmarks.md, "Shrinking challenges"), defined once for both libraries.
//
// Each challenge has:
//   name          — row label
//   shrinkscope   — (st) => the argument strategies (one per property argument)
//   fastcheck     — (fc) => the argument arbitraries (same shape)
//   precondition  — optional (...args) => boolean; a case where it is false is discarded
//                   (Shrinkscope: assume(false); fast-check: fc.pre(false))
//   fails         — (...args) => boolean; true when the property is falsified
//   isIdeal       — (args) => boolean; args is the final argument array
//   ideal         — the ideal minimum, printed for reference
//   hypothesis    — Hypothesis's published reference mean shrink calls (replacement: the figure for Hypothesis 6.67);
//                   the bench measures the installed Hypothesis live beside it (hypothesis_calls.py)
//
// Modelled on the public problems (jlink/shrinking-challenge); docs/benchmarks.md tabulates them.
// "Unbounded integers" are st.integers() (safe integers) for Shrinkscope and the
// idiomatic fc.integer() (32-bit) for fast-check; "integers >= 1" are st.integers({ min: 1 }) and
// fc.integer({ min: 1 }).

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Wrap to a 16-bit signed integer (numpy int16 arithmetic). */
export const toInt16 = (x) => ((x + 32768) & 0xffff) - 32768;
export const sum16 = (xs) => xs.reduce((acc, x) => toInt16(acc + x), 0);

const INT16 = { min: -32768, max: 32767 };

export const challenges = [
  {
    name: "bound5",
    ideal: "two lists [-32768] and [-1], the rest empty",
    hypothesis: 216,
    shrinkscope: (st) => {
      const list = st.lists(st.integers(INT16)).filter((xs) => sum16(xs) < 256);
      return [st.tuples(list, list, list, list, list)];
    },
    fastcheck: (fc) => {
      const list = fc.array(fc.integer(INT16)).filter((xs) => sum16(xs) < 256);
      return [fc.tuple(list, list, list, list, list)];
    },
    fails: (p) => sum16(p.flat()) >= 5 * 256,
    isIdeal: ([p]) => {
      const nonEmpty = p
        .filter((xs) => xs.length > 0)
        .map((xs) => JSON.stringify(xs))
        .sort();
      return p.length === 5 && same(nonEmpty, ["[-1]", "[-32768]"]);
    },
  },
  {
    name: "large_union_list",
    ideal: "[[0, 1, -1, 2, -2]]",
    hypothesis: 398,
    shrinkscope: (st) => [st.lists(st.lists(st.integers()))],
    fastcheck: (fc) => [fc.array(fc.array(fc.integer()))],
    fails: (ls) => new Set(ls.flat()).size >= 5,
    isIdeal: ([ls]) => same(ls, [[0, 1, -1, 2, -2]]),
  },
  {
    name: "reverse",
    ideal: "[0, 1]",
    hypothesis: 45,
    shrinkscope: (st) => [st.lists(st.integers())],
    fastcheck: (fc) => [fc.array(fc.integer())],
    fails: (xs) => !same([...xs].reverse(), xs),
    isIdeal: ([xs]) => same(xs, [0, 1]),
  },
  {
    name: "lengthlist",
    ideal: "[900]",
    hypothesis: 89,
    shrinkscope: (st) => [
      st
        .integers({ min: 1, max: 100 })
        .flatMap((n) => st.lists(st.integers({ min: 0, max: 1000 }), { minSize: n, maxSize: n })),
    ],
    fastcheck: (fc) => [
      fc
        .integer({ min: 1, max: 100 })
        .chain((n) => fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: n, maxLength: n })),
    ],
    fails: (xs) => Math.max(...xs) >= 900,
    isIdeal: ([xs]) => same(xs, [900]),
  },
  {
    name: "difference_zero",
    ideal: "[10, 10]",
    hypothesis: 81,
    shrinkscope: (st) => [st.integers({ min: 1 }), st.integers({ min: 1 })],
    fastcheck: (fc) => [fc.integer({ min: 1 }), fc.integer({ min: 1 })],
    fails: (a, b) => a >= 10 && Math.abs(a - b) === 0,
    isIdeal: (args) => same(args, [10, 10]),
  },
  {
    name: "difference_small",
    ideal: "[10, 6]",
    hypothesis: 300,
    shrinkscope: (st) => [st.integers({ min: 1 }), st.integers({ min: 1 })],
    fastcheck: (fc) => [fc.integer({ min: 1 }), fc.integer({ min: 1 })],
    fails: (a, b) => {
      const d = Math.abs(a - b);
      return a >= 10 && d >= 1 && d <= 4;
    },
    isIdeal: (args) => same(args, [10, 6]),
  },
  {
    name: "difference_one",
    ideal: "[10, 9]",
    hypothesis: 340,
    shrinkscope: (st) => [st.integers({ min: 1 }), st.integers({ min: 1 })],
    fastcheck: (fc) => [fc.integer({ min: 1 }), fc.integer({ min: 1 })],
    fails: (a, b) => a >= 10 && Math.abs(a - b) === 1,
    isIdeal: (args) => same(args, [10, 9]),
  },
  {
    name: "coupling",
    ideal: "[1, 0]",
    hypothesis: 97,
    shrinkscope: (st) => [st.lists(st.integers({ min: 0, max: 10 })).filter((xs) => xs.every((v) => v < xs.length))],
    fastcheck: (fc) => [fc.array(fc.integer({ min: 0, max: 10 })).filter((xs) => xs.every((v) => v < xs.length))],
    fails: (xs) => xs.some((j, i) => i !== j && xs[j] === i),
    isIdeal: ([xs]) => same(xs, [1, 0]),
  },
  {
    name: "deletion",
    ideal: "([0, 0], 0)",
    hypothesis: 116,
    shrinkscope: (st) => [st.lists(st.integers()), st.integers({ min: 0, max: 10 })],
    fastcheck: (fc) => [fc.array(fc.integer()), fc.integer({ min: 0, max: 10 })],
    precondition: (ls, i) => i < ls.length,
    fails: (ls, i) => {
      const rest = [...ls.slice(0, i), ...ls.slice(i + 1)];
      return rest.includes(ls[i]);
    },
    isIdeal: (args) => same(args, [[0, 0], 0]),
  },
  {
    name: "distinct",
    ideal: "[0, 1, -1] or [0, 1, 2]",
    hypothesis: 112,
    shrinkscope: (st) => [st.lists(st.integers())],
    fastcheck: (fc) => [fc.array(fc.integer())],
    fails: (xs) => new Set(xs).size >= 3,
    isIdeal: ([xs]) => same(xs, [0, 1, -1]) || same(xs, [0, 1, 2]),
  },
  {
    // Coupled shrinking: the simplest failure has one factor, but getting there from [10, 10]
    // means deleting an element while growing n tenfold — no single deletion or lowering keeps it failing.
    name: "replacement",
    ideal: "(100000, [10])",
    hypothesis: 84,
    shrinkscope: (st) => [st.integers({ min: 1, max: 100000 }), st.lists(st.integers({ min: 1, max: 10 }))],
    fastcheck: (fc) => [fc.integer({ min: 1, max: 100000 }), fc.array(fc.integer({ min: 1, max: 10 }))],
    fails: (n, ps) => ps.reduce((acc, p) => acc * p, n) >= 1e6,
    isIdeal: (args) => same(args, [100000, [10]]),
  },
];
