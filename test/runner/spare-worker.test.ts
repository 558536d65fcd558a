/**
 * The spare worker the warm vitest keeps (src/runner/spareWorker.ts), against plain Node scripts standing in for
 * vitest's worker: forked through an ES `import { fork }` binding as vitest does it.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, test } from "node:test";
import { pathToFileURL } from "node:url";
import { SpareWorker } from "../../src/runner/spareWorker.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-spare-"));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const worker = path.join(dir, "worker.cjs");
const other = path.join(dir, "other.cjs");
const environment = path.join(dir, "environment.cjs");
const broken = path.join(dir, "broken.cjs");
// Answers one question, as vitest's worker speaks only when spoken to: what it was started with and has loaded.
const workerSource = `process.on("message", () => {
  process.send({ pid: process.pid, execArgv: process.execArgv, env: process.env.SPARE_TEST, loaded: Object.keys(require.cache).map((f) => require("path").basename(f)) });
});\n`;
fs.writeFileSync(worker, workerSource);
fs.writeFileSync(other, workerSource);
fs.writeFileSync(environment, "globalThis.environmentLoaded = true;\n");
fs.writeFileSync(broken, "throw new Error('a package that fails to load');\n");
const forker = path.join(dir, "forker.mjs");
fs.writeFileSync(forker, `import { fork } from "node:child_process";\nexport const forkIt = (...a) => fork(...a);\n`);

interface Answer {
  pid: number;
  execArgv: string[];
  env: string | undefined;
  loaded: string[];
}

async function ask(child: ChildProcess): Promise<Answer> {
  const answer = new Promise<Answer>((resolve) => child.once("message", (m) => resolve(m as Answer)));
  child.send("?");
  const a = await answer;
  child.kill();
  return a;
}

const until = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
};

test("the next fork of the worker with the same arguments is the spare, its modules already loaded; any other fork is the caller's own", async () => {
  const { forkIt } = (await import(pathToFileURL(forker).href)) as { forkIt: (...a: unknown[]) => ChildProcess };
  const spare = new SpareWorker((p) => p === worker, path.join(dir, "preload.cjs"));
  try {
    const options = { env: { ...process.env, SPARE_TEST: "a" }, execArgv: [] as string[] };
    spare.prepare([environment]);
    const before = await ask(forkIt(worker, [], options));
    assert.equal(spare.served, 0, "no spare before the worker was forked once: its arguments are not known yet");
    assert.ok(!before.loaded.includes("environment.cjs"));

    spare.prepare([environment, broken]);
    const served = await ask(forkIt(worker, [], options));
    assert.equal(spare.served, 1);
    assert.ok(
      served.loaded.includes("environment.cjs"),
      `the environment was imported ahead: ${served.loaded.join(", ")}`,
    );
    assert.equal(served.env, "a", "the spare has the environment the caller asked for");
    assert.deepEqual(served.execArgv.slice(0, -2), [], "the caller's execArgv, then the preload");

    // Other arguments: the spare is not used (and not left running); the caller's fork runs as asked.
    spare.prepare([environment]);
    const waiting = spare["spare"]?.child;
    assert.ok(waiting !== undefined);
    const changed = await ask(forkIt(worker, [], { ...options, env: { ...options.env, SPARE_TEST: "b" } }));
    assert.equal(spare.served, 1);
    assert.equal(changed.env, "b");
    assert.ok(!changed.loaded.includes("environment.cjs"));
    await until(() => waiting.exitCode !== null || waiting.signalCode !== null);
    assert.ok(waiting.exitCode !== null || waiting.signalCode !== null, "the unused spare was stopped");

    // A fork of another script is passed through, and is no reason to drop the spare.
    spare.prepare([environment]);
    const plain = await ask(forkIt(other, [], options));
    assert.ok(!plain.loaded.includes("environment.cjs"));
    assert.equal(spare.served, 1);
  } finally {
    spare.dispose();
  }
});

test("a spare that died while it waited is not handed out", async () => {
  const { forkIt } = (await import(pathToFileURL(forker).href)) as { forkIt: (...a: unknown[]) => ChildProcess };
  const spare = new SpareWorker((p) => p === worker, path.join(dir, "preload.cjs"));
  const options = { env: { ...process.env, SPARE_TEST: "a" }, execArgv: [] as string[] };
  try {
    await ask(forkIt(worker, [], options));
    spare.prepare([environment]);
    const dead = spare["spare"]!.child;
    dead.kill("SIGKILL");
    await until(() => dead.signalCode !== null);
    const fresh = await ask(forkIt(worker, [], options));
    assert.equal(spare.served, 0);
    assert.ok(!fresh.loaded.includes("environment.cjs"));
  } finally {
    spare.dispose();
  }
});
