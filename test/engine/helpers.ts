// Small helpers the engine tests share: the PropertyFailure a run ends with, temporary folders.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PropertyFailure } from "../../src/engine/index.ts";

/** The PropertyFailure a synchronous run throws; fails the test if it passes or throws anything else. */
export function failure(run: () => unknown): PropertyFailure {
  try {
    run();
  } catch (e) {
    if (e instanceof PropertyFailure) return e;
    throw e;
  }
  assert.fail("expected the property to fail");
}

/** The PropertyFailure a run (sync or async) throws or rejects with. */
export async function failureOf(run: () => unknown): Promise<PropertyFailure> {
  try {
    await run();
  } catch (e) {
    if (e instanceof PropertyFailure) return e;
    throw e;
  }
  assert.fail("expected the property to fail");
}

const tempDirs: string[] = [];
process.on("exit", () => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new folder under the system's temporary one (shrinkscope-<name>-…), removed when the test file's process exits. */
export function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shrinkscope-${name}-`));
  tempDirs.push(dir);
  return dir;
}

/** Run `run` with environment variables set (undefined: unset), then restore them. */
export function withEnv<T>(vars: Record<string, string | undefined>, run: () => T): T {
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(vars)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The lines console.log printed while `run` ran. */
export function logged(run: () => void): string[] {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...a: unknown[]) => void lines.push(a.map(String).join(" "));
  try {
    run();
  } finally {
    console.log = original;
  }
  return lines;
}
