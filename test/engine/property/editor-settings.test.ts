/**
 * What the editor passes to a property it did not construct, and how it gets there. The editor's maxExamples
 * and stepCount are defaults: a property's own wins, so "Run property" runs what CI runs. Its seed,
 * database and event tap win. Inside the user's own test runner the hook comes from the module named in
 * SHRINKSCOPE_TAP_MODULE, loaded with Node's require; one that cannot be loaded must not stop the property.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, test } from "node:test";
import { check, property, st } from "../../../src/engine/index.ts";
import { resolveSettings } from "../../../src/engine/property/runnerLayer.ts";

const HOOK = Symbol.for("shrinkscope.runner");
const g = globalThis as Record<symbol, unknown>;

afterEach(() => {
  delete g[HOOK];
  delete process.env.SHRINKSCOPE_TAP_MODULE;
});

test("the editor's maxExamples and stepCount apply only where the property sets none; its seed wins", () => {
  g[HOOK] = { settings: { maxExamples: 7, stepCount: 3, seed: 5, database: null } };
  const own = resolveSettings("k", { maxExamples: 300, stepCount: 20, seed: 99 });
  assert.deepEqual([own.maxExamples, own.stepCount, own.seed], [300, 20, 5]);
  const none = resolveSettings("k", { seed: 99 });
  assert.deepEqual([none.maxExamples, none.stepCount, none.seed], [7, 3, 5]);
});

test("a property with maxExamples of its own runs that many under the editor's smaller default", () => {
  g[HOOK] = { settings: { maxExamples: 10, database: null } };
  let calls = 0;
  check(property(st.integers(), () => void calls++, { maxExamples: 250, database: null }));
  assert.equal(calls, 250);
});

test("SHRINKSCOPE_TAP_MODULE: the engine loads the tap and streams to it", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-tap-module-"));
  const mod = path.join(dir, "tap.cjs");
  fs.writeFileSync(
    mod,
    "const seen = []; exports.seen = seen; exports.runnerHook = () => ({ settings: { maxExamples: 12, database: null, onEvent: (e) => seen.push(e.type) } });\n",
  );
  process.env.SHRINKSCOPE_TAP_MODULE = mod;
  let calls = 0;
  check(property(st.integers(), () => void calls++));
  assert.equal(calls, 12, "the tap's settings apply");
  const seen = (require(mod) as { seen: string[] }).seen;
  assert.equal(seen[0], "run-start");
  assert.equal(seen[seen.length - 1], "result");
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a tap module that cannot be loaded: one warning naming it, and the property runs as written", (t) => {
  const warn = t.mock.method(console, "warn", () => {});
  process.env.SHRINKSCOPE_TAP_MODULE = path.join(os.tmpdir(), "no-such-shrinkscope-tap.cjs");
  let calls = 0;
  check(property(st.integers(), () => void calls++, { maxExamples: 20, database: null }));
  check(property(st.integers(), () => void calls++, { maxExamples: 20, database: null }));
  assert.equal(calls, 40);
  assert.equal(warn.mock.callCount(), 1);
  assert.match(
    String(warn.mock.calls[0]!.arguments[0]),
    /event tap could not be loaded from .*no-such-shrinkscope-tap\.cjs.*the property runs without it/,
  );
});

test("Run fresh: the saved failure is not replayed (a new one is generated and saved); the property's other phases stay", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-fresh-"));
  try {
    const origins: string[] = [];
    const failing = () =>
      property(
        st.integers({ min: 0, max: 1000 }),
        (n) => {
          if (n >= 10) throw new Error("too big");
        },
        { database: dir, phases: ["reuse", "generate", "shrink"] },
      );
    assert.throws(() => check(failing()), /too big/); // saves its minimal example, 10
    g[HOOK] = {
      settings: {
        database: dir,
        seed: 3,
        onEvent: (e: { type: string; origin?: string }) => void (e.type === "test-case" && origins.push(e.origin!)),
      },
    };
    assert.throws(() => check(failing()));
    assert.equal(origins[0], "reuse", "a plain run replays the saved failure first");
    origins.length = 0;
    g[HOOK] = {
      settings: {
        database: dir,
        seed: 3,
        fresh: true,
        onEvent: (e: { type: string; origin?: string }) => void (e.type === "test-case" && origins.push(e.origin!)),
      },
    };
    assert.deepEqual(resolveSettings("k", { phases: ["reuse", "generate", "shrink"] }).phases, ["generate", "shrink"]);
    assert.deepEqual(resolveSettings("k", {}).phases, ["explicit", "generate", "target", "shrink", "explain"]);
    assert.throws(() => check(failing()), /too big/);
    assert.ok(!origins.includes("reuse"), `fresh: no replay (${[...new Set(origins)].join(", ")})`);
    assert.ok(origins.includes("generate") && origins.includes("shrink"));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
