// The guards on messages: the webview is untrusted, so anything malformed is refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isHostToRunner, isRunnerMessage, isWebviewMessage } from "../../src/shared/protocol.ts";

test("webview messages: only the known types, with exactly their fields", () => {
  for (const ok of [
    { type: "ready" },
    { type: "copy-repro" },
    { type: "convert-to-test" },
    { type: "debug" },
    { type: "run-fresh" },
    { type: "open-location", file: "/w/a.ts", line: 3, column: 1 },
  ]) {
    assert.equal(isWebviewMessage(ok), true, JSON.stringify(ok));
  }
  const bad: unknown[] = [
    null,
    "ready",
    42,
    {},
    { type: "run-anything" },
    { type: "ready", extra: "field" },
    { type: "open-location", file: "/w/a.ts", line: 0, column: 1 },
    { type: "open-location", file: "/w/a.ts", line: 1.5, column: 1 },
    { type: "open-location", file: 7, line: 1, column: 1 },
    { type: "open-location", file: "x".repeat(5000), line: 1, column: 1 },
    { type: "open-location", file: "/w/a.ts", line: "1", column: 1 },
    { type: ["ready"] },
  ];
  for (const m of bad) assert.equal(isWebviewMessage(m), false, JSON.stringify(m));
});

test("runner and host messages are recognised by shape", () => {
  assert.equal(isRunnerMessage({ type: "done", outcome: "passed" }), true);
  assert.equal(isRunnerMessage({ type: "events", events: [], dropped: 0 }), true);
  assert.equal(isRunnerMessage({ type: "evil" }), false);
  assert.equal(isRunnerMessage(undefined), false);
  assert.equal(isHostToRunner({ type: "stop" }), true);
  assert.equal(isHostToRunner({ type: "run", file: "/a.ts", testPath: ["t"], workspaceRoot: "/", settings: {} }), true);
  assert.equal(isHostToRunner({ type: "run", file: "/a.ts", testPath: [1], workspaceRoot: "/", settings: {} }), false);
  assert.equal(isHostToRunner({ type: "run", file: "/a.ts", testPath: ["t"], workspaceRoot: "/" }), false);
});
