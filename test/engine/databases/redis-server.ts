// A real redis-server for the database tests: started on a free loopback port with no persistence, stopped
// (or paused, or killed) by the test. `npm test` installs Debian's redis-server first (tools/debian-packages.sh);
// a machine without it fails the tests that need it, naming the fix, rather than skipping them.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export interface RedisServer {
  port: number;
  url: string;
  process: ChildProcess;
  /** Run a redis-cli command against it; returns its output. */
  cli(...args: string[]): string;
  /** SIGSTOP / SIGCONT: a server that accepts nothing and answers nothing (a slow or hung Redis). */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export function redisServerPath(): string {
  const found = spawnSync("bash", ["-c", "command -v redis-server"], { encoding: "utf8" });
  const file = found.stdout.trim();
  if (found.status !== 0 || file === "")
    throw new Error("redis-server is not installed: run `bash tools/debian-packages.sh` (npm test does it first)");
  return file;
}

export async function startRedis(port?: number): Promise<RedisServer> {
  const bin = redisServerPath();
  const p = port ?? (await freePort());
  const child = spawn(
    bin,
    ["--port", String(p), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const cli = (...args: string[]) => {
    const r = spawnSync("redis-cli", ["-h", "127.0.0.1", "-p", String(p), ...args], {
      encoding: "utf8",
      timeout: 5000,
    });
    return r.stdout.trim();
  };
  const deadline = Date.now() + 10_000;
  while (cli("PING") !== "PONG") {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`redis-server on port ${p} did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    port: p,
    url: `redis://127.0.0.1:${p}`,
    process: child,
    cli,
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGCONT");
        child.kill("SIGKILL");
      }),
  };
}
