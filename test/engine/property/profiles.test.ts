// Settings for every property of a process: configure() sets defaults, registerProfile() names a set that
// SHRINKSCOPE_PROFILE selects (built in: default, ci, dev); a property's own settings win over both, and a
// profile chosen at the command line wins over configure()'s defaults. The state is shared by every copy of
// the engine in the process (a setup file may load the CommonJS build, a test the ES module).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { createRequire } from "node:module";
import { check, configure, InvalidArgument, property, registerProfile, st } from "../../../src/engine/index.ts";
import type { EngineEvent, RunStartEvent, Settings } from "../../../src/engine/index.ts";
import { withEnv } from "../helpers.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** How many times a passing property's body ran, and the run-start event, under the current profile. */
function runOnce(own: Settings = {}): { calls: number; start: RunStartEvent["settings"]; seed: number } {
  let calls = 0;
  let start: RunStartEvent | undefined;
  check(
    property(st.integers(), () => void calls++, own),
    {
      onEvent: (e: EngineEvent) => {
        if (e.type === "run-start") start = e;
      },
    },
  );
  return { calls, start: start!.settings, seed: start!.seed };
}

const LOCAL = path.join(".shrinkscope", "examples");

test("configure() sets defaults for every property; a property's own settings win; undefined goes back", () => {
  withEnv({ SHRINKSCOPE_PROFILE: undefined, CI: "true" }, () => {
    try {
      configure({ maxExamples: 7 });
      assert.equal(runOnce().calls, 7);
      assert.equal(runOnce({ maxExamples: 3 }).calls, 3);
      configure({ deadline: 1000 });
      assert.equal(runOnce().calls, 7, "a later call adds to the earlier one");
      assert.equal(runOnce().start.deadline, 1000);
    } finally {
      configure({ maxExamples: undefined, deadline: undefined });
    }
    assert.equal(runOnce().calls, 100);
    assert.equal(runOnce().start.deadline, 200);
  });
});

test("SHRINKSCOPE_PROFILE selects a registered profile, which wins over configure() and loses to the property", () => {
  registerProfile("tiny-for-test", { maxExamples: 5 });
  withEnv({ SHRINKSCOPE_PROFILE: "tiny-for-test", CI: "true" }, () => {
    assert.equal(runOnce().calls, 5);
    try {
      configure({ maxExamples: 9 });
      assert.equal(runOnce().calls, 5);
      assert.equal(runOnce({ maxExamples: 2 }).calls, 2);
    } finally {
      configure({ maxExamples: undefined });
    }
    // A registered profile starts from the one a run gets without SHRINKSCOPE_PROFILE: ci here.
    const a = runOnce();
    assert.equal(a.start.derandomize, true);
    assert.equal(a.start.database, null);
    assert.equal(runOnce().seed, a.seed);
  });
  registerProfile("tiny-for-test", { maxExamples: 4 });
  withEnv({ SHRINKSCOPE_PROFILE: "tiny-for-test" }, () =>
    assert.equal(runOnce().calls, 4, "registering again replaces"),
  );
});

test("the built-in profiles: default, ci (what CI gets without asking) and dev", () => {
  withEnv({ SHRINKSCOPE_PROFILE: undefined, CI: undefined }, () => {
    const r = runOnce();
    assert.equal(r.start.derandomize, false);
    assert.equal(r.start.database, LOCAL);
  });
  withEnv({ SHRINKSCOPE_PROFILE: undefined, CI: "true" }, () => {
    const r = runOnce();
    assert.equal(r.start.derandomize, true);
    assert.equal(r.start.database, null);
  });
  withEnv({ SHRINKSCOPE_PROFILE: "ci", CI: undefined }, () => {
    const r = runOnce();
    assert.equal(r.start.derandomize, true);
    assert.equal(r.start.database, null);
  });
  withEnv({ SHRINKSCOPE_PROFILE: "default", CI: "true" }, () => {
    const r = runOnce();
    assert.equal(r.start.derandomize, false);
    assert.equal(r.start.database, LOCAL);
  });
  withEnv({ SHRINKSCOPE_PROFILE: "dev", CI: "true" }, () => {
    const r = runOnce({ database: null });
    assert.equal(r.calls, 20);
    assert.equal(r.start.derandomize, false);
  });
  // Registering a built-in name adds to it: ci stays derandomised, without a local folder.
  registerProfile("ci", { maxExamples: 11 });
  try {
    withEnv({ SHRINKSCOPE_PROFILE: "ci" }, () => {
      const r = runOnce();
      assert.equal(r.calls, 11);
      assert.equal(r.start.derandomize, true);
      assert.equal(r.start.database, null);
    });
  } finally {
    registerProfile("ci", {});
  }
});

test("an unknown profile, a bad name, or a per-property setting is InvalidArgument naming it", () => {
  withEnv({ SHRINKSCOPE_PROFILE: "nope" }, () =>
    assert.throws(
      () => runOnce(),
      (e: unknown) => {
        assert.ok(e instanceof InvalidArgument);
        assert.match(e.message, /SHRINKSCOPE_PROFILE=nope: no profile of that name \(known: default, ci, dev/);
        assert.match(e.message, /registerProfile\("nope", settings\)/);
        return true;
      },
    ),
  );
  assert.throws(() => registerProfile("", {}), /registerProfile: the name must be a non-empty string/);
  assert.throws(() => registerProfile(" x", {}), /without surrounding spaces/);
  assert.throws(
    () => registerProfile("x", { maxExamples: 0 }),
    /registerProfile: maxExamples must be a positive integer/,
  );
  assert.throws(() => registerProfile("x", null as unknown as Settings), /registerProfile: settings must be an object/);
  assert.throws(() => configure({ key: "k" }), /configure: key belongs to one property/);
  assert.throws(() => configure({ examples: [[1]] }), /configure: examples belongs to one property/);
  assert.throws(
    () => configure({ verbosity: "loud" as "quiet" }),
    /configure: verbosity must be one of "quiet", "normal", "verbose", "debug"/,
  );
  assert.throws(() => configure({ nope: 1 } as Settings), /configure: unknown setting "nope"/);
});

test("every copy of the engine in a process sees the same profiles (a setup file may load the CommonJS build)", () => {
  const built = path.join(ROOT, "dist", "engine.cjs");
  assert.ok(fs.existsSync(built), "dist/engine.cjs is missing: run `npm run build` first");
  const other = createRequire(import.meta.url)(built) as {
    configure(s: Settings): void;
    registerProfile(n: string, s: Settings): void;
  };
  withEnv({ SHRINKSCOPE_PROFILE: undefined, CI: "true" }, () => {
    try {
      other.configure({ maxExamples: 6 });
      assert.equal(runOnce().calls, 6);
    } finally {
      other.configure({ maxExamples: undefined });
    }
  });
  other.registerProfile("from-the-other-copy", { maxExamples: 8 });
  withEnv({ SHRINKSCOPE_PROFILE: "from-the-other-copy" }, () => assert.equal(runOnce().calls, 8));
});
