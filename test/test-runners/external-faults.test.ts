/**
 * Faults of a run through the user's own test runner (src/extension/externalRun.ts), with stand-in runner
 * commands so each fault is exact: a runner that crashes, one that hangs (the timeout kills its whole process
 * group, workers included), one that cannot be started, one whose tap messages are garbage, and one that
 * reports a passing property but fails itself. Each must end in exactly one clear result — never a hang, a
 * silent pass or a lost failure.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { test } from "node:test";
import { startExternalRun, type RunnerCommand } from "../../src/extension/externalRun.ts";
import type { RunRequest } from "../../src/shared/protocol.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const request: RunRequest = {
  type: "run",
  file: path.join(ROOT, "x.test.ts"),
  testPath: ["suite", "prop"],
  workspaceRoot: ROOT,
  settings: {},
};

function run(script: string, timeoutMs = 30_000) {
  const command: RunnerCommand = { execPath: process.execPath, args: ["-e", script], cwd: ROOT };
  const logs: string[] = [];
  const handle = startExternalRun({
    command,
    request,
    tapModule: path.join(ROOT, "dist", "tap.cjs"),
    timeoutMs,
    onMessage: (m) => void (m.type === "log" && logs.push(m.text)),
  });
  return { handle, logs };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test("a runner that crashes before the property runs: an error with its exit code and output", async () => {
  const { handle } = run(`console.error("Error: Cannot find module './setup.js'"); process.exit(3)`);
  const r = await handle.done;
  assert.equal(r.outcome, "error");
  assert.match(
    r.reason ?? "",
    /^the test runner exited with code 3 before the property ran\n\nstderr:\nError: Cannot find module '.\/setup\.js'/,
  );
});

test("a runner that exits 0 having run nothing: not-found, naming the test and the file", async () => {
  const r = await run(`console.log("0 passing")`).handle.done;
  assert.equal(r.outcome, "not-found");
  assert.match(r.reason ?? "", /ran no property named "suite > prop" in x\.test\.ts/);
});

test("a runner that hangs: the timeout stops it, its whole process group included", async () => {
  // The "runner" forks a worker that would outlive it, as vitest and jest do, and both hang.
  const { handle, logs } = run(
    `const { spawn } = require("node:child_process"); const w = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }); console.log("worker " + w.pid); setInterval(() => {}, 1000);`,
    1500,
  );
  const r = await handle.done;
  assert.equal(r.outcome, "error");
  assert.match(r.reason ?? "", /^timed out after 1500 ms/);
  const worker = Number(/worker (\d+)/.exec(logs.join(""))?.[1]);
  assert.ok(Number.isInteger(worker), `the stand-in printed its worker's pid: ${logs.join("")}`);
  for (let i = 0; i < 50 && (alive(worker) || alive(handle.pid!)); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  assert.ok(!alive(handle.pid!), "the runner is gone");
  assert.ok(!alive(worker), "and so is the worker it forked");
});

test("a runner that cannot be started: an error naming why", async () => {
  const handle = startExternalRun({
    command: { execPath: path.join(ROOT, "no-such-node"), args: [], cwd: ROOT },
    request,
    tapModule: "",
    timeoutMs: 10_000,
    onMessage() {},
  });
  const r = await handle.done;
  assert.equal(r.outcome, "error");
  assert.match(r.reason ?? "", /could not be started \(spawn .*no-such-node ENOENT\)/);
});

test("garbage in the tap folder is skipped; a passing property in a failing runner is an error, not a pass", async () => {
  const script = `
    const fs = require("node:fs"), path = require("node:path"), v8 = require("node:v8");
    const dir = process.env.SHRINKSCOPE_TAP;
    const frame = (m) => { const p = v8.serialize(m); const b = Buffer.alloc(4 + p.length); b.writeUInt32BE(p.length, 0); p.copy(b, 4); return b; };
    fs.writeFileSync(path.join(dir, "messages-1-1.bin"), Buffer.concat([Buffer.from([0, 0, 0, 3, 1, 2, 3]), frame({ type: "nonsense" }), frame({ type: "done", outcome: "passed" })]));
    setTimeout(() => { console.error("afterAll hook failed"); process.exit(1); }, 200);`;
  const r = await run(script).handle.done;
  assert.equal(r.outcome, "error");
  assert.match(
    r.reason ?? "",
    /^the property passed, but the test runner reported a failure \(exit code 1\)[^]*afterAll hook failed/,
  );
});
