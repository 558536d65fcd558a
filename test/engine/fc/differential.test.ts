/**
 * SHRINKSCOPE_FC_DIFF=1: each fc.assert and fc.check also runs the property on fast-check (the project's own copy),
 * from the same fc.* calls, and reports a disagreement in outcome on stderr — the property's file and line, and
 * what each library did. Agreement says nothing; a property it cannot rebuild on fast-check says so once.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";
import type { TestContext } from "node:test";
import fc from "../../../src/engine/fc.ts";
import { configure, st } from "../../../src/engine/index.ts";
import { failure } from "../helpers.ts";

configure({ database: null });

let errors: string[] = [];
let warnings: string[] = [];
beforeEach((c) => {
  const t = c as TestContext;
  process.env.SHRINKSCOPE_FC_DIFF = "1";
  errors = [];
  warnings = [];
  t.mock.method(console, "error", (m: string) => void errors.push(m));
  t.mock.method(console, "warn", (m: string) => void warnings.push(m));
});
afterEach(() => {
  delete process.env.SHRINKSCOPE_FC_DIFF;
});

test("a disagreement is reported with the property's place and both outcomes", () => {
  // Passes for its first 100 calls only: Shrinkscope's run makes them, fast-check's then fails.
  let calls = 0;
  fc.assert(
    fc.property(fc.nat(), () => ++calls <= 100),
    { numRuns: 100 },
  );
  assert.equal(errors.length, 1, errors.join("\n"));
  assert.match(
    errors[0],
    /SHRINKSCOPE_FC_DIFF: the property at \S*differential\.test\.ts:\d+:\d+ passed on Shrinkscope; on fast-check it failed on \[\d+\]/,
  );
});

test("agreement says nothing: passing and failing alike, arbitraries, .map/.filter/.chain and fc.pre rebuilt on fast-check", async () => {
  const arb = fc
    .record({ xs: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }), s: fc.string() })
    .map((r) => ({ ...r, n: r.xs.length }))
    .filter((r) => r.n >= 0)
    .chain((r) => fc.tuple(fc.constant(r), fc.oneof(fc.boolean(), fc.constant(null))));
  fc.assert(
    fc.property(arb, fc.nat(), ([r], k) => {
      fc.pre(k % 2 === 0);
      return r.n === r.xs.length;
    }),
  );
  failure(() => fc.assert(fc.property(fc.array(fc.nat()), (xs) => xs.length < 3)));
  const details = await fc.check(fc.asyncProperty(fc.uuid({ version: 4 }), async (u) => u.length === 36));
  assert.equal(details.failed, false);
  assert.deepEqual(errors, []);
});

test("a property with an st.* strategy is not compared, and the report says so once", () => {
  const p = fc.property(st.integers() as never, fc.nat(), () => true);
  fc.assert(p, { numRuns: 5 });
  fc.assert(p, { numRuns: 5 });
  assert.deepEqual(errors, []);
  assert.equal(
    warnings.filter((w) => /is not compared: an argument is not an fc\.\* arbitrary/.test(w)).length,
    1,
    warnings.join("\n"),
  );
});

test("off by default: no fast-check run", () => {
  delete process.env.SHRINKSCOPE_FC_DIFF;
  let calls = 0;
  fc.assert(
    fc.property(fc.nat(), () => ++calls <= 100),
    { numRuns: 100 },
  );
  assert.equal(calls, 100);
  assert.deepEqual(errors, []);
});
