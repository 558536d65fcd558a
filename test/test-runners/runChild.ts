/**
 * Running a test runner (node --test, vitest, jest, mocha) the way a user's terminal does, for the tests that
 * check what it reports: a child `node` in its own process group, so that a timeout also ends the workers the
 * runner forked, with an environment that makes runs repeatable (CI on: derandomized, no example database; no
 * colours; no seed override; and not reporting to our own `node --test`). Used by runners.test.ts and by
 * test/repository/readme-examples.test.ts.
 */
import { spawn } from "node:child_process";

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  error: Error | undefined;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The same environment for every run: CI on, no colours, no seed override, and no trace of our own runner. */
export function runnerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: "true", NO_COLOR: "1" };
  delete env.FORCE_COLOR;
  delete env.SHRINKSCOPE_SEED; // it would override the examples' seed
  delete env.SHRINKSCOPE_DATABASE_URL; // the examples' own database settings decide
  delete env.SHRINKSCOPE_PROFILE; // the examples' own settings decide, under the profile CI gets
  delete env.SHRINKSCOPE_REPLAY;
  delete env.SHRINKSCOPE_VERBOSITY;
  delete env.NODE_TEST_CONTEXT; // set by our own `node --test`; the child `node --test` would report to us in v8 format
  return env;
}

/** `node ...args` in `cwd`; killed with its whole process group after `timeoutMs`. Never rejects. */
export function runNode(
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Exit> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...runnerEnv(), ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let error: Error | undefined;
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, timeoutMs);
    child.on("error", (e) => (error = e));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, error, stdout, stderr, ms: performance.now() - started });
    });
  });
}
