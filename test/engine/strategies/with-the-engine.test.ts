// The new strategies with the rest of the engine: small spaces end as exhausted after each value once (the
// DataTree), unique lists compare their values, explain marks what does not matter, target steers a bigint, and
// machine rules take their values as arguments.
import { test } from "node:test";
import assert from "node:assert/strict";
import { check, machine, property, st, target, toLiteral, PropertyFailure } from "../../../src/engine/index.ts";
import type { Strategy } from "../../../src/engine/index.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;

function runAll<T>(strategy: Strategy<T>): { seen: string[]; outcome: string } {
  const seen: string[] = [];
  let outcome = "";
  check(
    property(strategy, (v) => {
      seen.push(toLiteral(v));
    }),
    { ...QUIET, onEvent: (e) => (e.type === "result" ? (outcome = e.outcome) : undefined) },
  );
  return { seen, outcome };
}

test("small spaces are run once each and reported exhausted", () => {
  const spaces: [Strategy<unknown>, number][] = [
    [st.nullable(st.booleans()), 3],
    [st.optional(st.sampledFrom(["a", "b"])), 3],
    [st.permutations([1, 2, 3]), 6],
    [st.subsequences(["a", "b", "c"]), 8],
    [st.records({ a: st.booleans() }, { optional: { b: st.booleans() } }), 6],
    [st.maps(st.booleans(), st.booleans()), 9],
    [st.dates({ min: new Date(0), max: new Date(3) }), 4],
    [st.bigints({ min: -2n, max: 2n }), 5],
    [st.oneOf([5, st.booleans()], [1, st.just(null)]), 3],
  ];
  for (const [strategy, size] of spaces) {
    const { seen, outcome } = runAll(strategy);
    assert.equal(new Set(seen).size, seen.length, `a value ran twice: ${seen}`);
    assert.equal(seen.length, size, seen.join(" | "));
    assert.equal(outcome, "exhausted", seen.join(" | "));
  }
});

test("unique lists compare dates, bigints and sets by value", () => {
  const dates = st.lists(st.dates({ min: new Date(0), max: new Date(5) }), { unique: true, minSize: 1 });
  const sets = st.lists(st.sets(st.integers({ min: 0, max: 2 })), { unique: true });
  check(
    property(dates, st.lists(st.bigints({ min: 0n, max: 9n }), { unique: true }), sets, (ds, bs, ss) => {
      assert.equal(new Set(ds.map((d) => d.getTime())).size, ds.length);
      assert.equal(new Set(bs).size, bs.length);
      assert.equal(new Set(ss.map((s) => [...s].sort().join())).size, ss.length);
    }),
    { ...QUIET, maxExamples: 300 },
  );
});

test("target steers a bigint far past what generation reaches by chance", () => {
  let best = 0n;
  check(
    property(st.bigints({ min: 0n }), (x) => {
      if (x > best) best = x;
      target(Math.log2(Number(x) + 1));
    }),
    { ...QUIET, maxExamples: 500 },
  );
  assert.ok(best > 2n ** 64n, `best ${best}`);
});

test("explain marks an argument whose value does not matter", () => {
  assert.throws(
    () =>
      check(
        property(st.dates(), st.maps(st.text(), st.integers()), (d) => {
          assert.ok(!(d.getUTCMonth() === 1 && d.getUTCDate() === 29));
        }),
        QUIET,
      ),
    (e: unknown) =>
      e instanceof PropertyFailure &&
      e.message.includes('new Date("2000-02-29T00:00:00.000Z"),') &&
      e.message.includes("new Map() // or any other generated value"),
  );
});

test("machine rules take dates, optional-key records, maps and sets as arguments, and print them in the steps", () => {
  class Calendar {
    booked = new Map<number, string>();
    book({ at, who }: { at: Date; who: { name: string; note?: string } }) {
      this.booked.set(at.getTime(), who.note ?? who.name);
    }
    tag({ tags }: { tags: Set<number> }) {
      if (tags.size >= 2 && this.booked.size >= 1) throw new Error("two tags on a booked calendar");
    }
  }
  assert.throws(
    () =>
      check(
        machine(Calendar, {
          rules: {
            book: {
              args: {
                at: st.dates(),
                who: st.records({ name: st.text() }, { optional: { note: st.text() } }),
              },
            },
            tag: { args: { tags: st.sets(st.integers()) } },
          },
        }),
        QUIET,
      ),
    (e: unknown) =>
      e instanceof PropertyFailure &&
      e.message.includes('at: new Date("2000-01-01T00:00:00.000Z"), // or any other generated value') &&
      e.message.includes('who: { name: "" } // or any other generated value') &&
      e.message.includes("state.tag({ tags: new Set([0, 1]) });"),
  );
});
