/**
 * The loop a kept-running test runner serves (vitestServer.ts, jestServer.ts; driven by
 * src/extension/runnerServer.ts): one JSON line per run on stdin, runs one at a time, and for each a
 * `runner-done.json` in the run's tap subfolder — whether the runner counted it a success and the errors it
 * reported, as its exit code would. The tap in the runner's test code reads the run's settings from the tap
 * folder's current.json (src/runner/tap.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";

export interface RunLine {
  readonly type: "run";
  readonly run: string;
  readonly file: string;
  readonly pattern: string;
}

export interface RunnerDone {
  readonly ok: boolean;
  readonly errors: readonly string[];
}

/** An error (or a runner's error-like object) as text: its stack when it has one. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.stack ?? e.message;
  const o = e as { message?: unknown; stack?: unknown } | null;
  return typeof o?.stack === "string" ? o.stack : typeof o?.message === "string" ? o.message : String(e);
}

/** The tap folder, from the environment the host started us with. */
export function tapFolder(usage: string): string {
  const dir = process.env.SHRINKSCOPE_TAP;
  if (dir === undefined || dir === "") throw new Error(`${usage} (with SHRINKSCOPE_TAP set)`);
  return dir;
}

/** Serve runs until stdin closes (the host went away), then `close` and exit. */
export function serveRuns(
  tapDir: string,
  run: (request: RunLine) => Promise<RunnerDone>,
  close: () => Promise<void> = async () => {},
): void {
  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    let request: RunLine;
    try {
      request = JSON.parse(line) as RunLine;
    } catch {
      return;
    }
    if (request.type !== "run" || !/^[\w-]+$/.test(request.run)) return;
    queue = queue.then(async () => {
      let done: RunnerDone;
      try {
        done = await run(request);
      } catch (e) {
        done = { ok: false, errors: [errorText(e)] };
      }
      const file = path.join(tapDir, request.run, "runner-done.json");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(done));
      fs.renameSync(`${file}.tmp`, file); // whole or not at all: the host polls for it
    });
  });
  lines.on("close", () => void close().finally(() => process.exit(0)));
}
