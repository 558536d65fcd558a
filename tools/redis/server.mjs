// A throwaway redis-server for the benches and the VS Code e2e (the node:test suites have their TypeScript twin,
// test/engine/databases/redis-server.ts): Debian's binary (tools/debian-packages.sh), a free loopback port, no persistence.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Start one; resolves once it answers PING. `stop()` kills it. */
export async function startRedis() {
  const found = spawnSync("bash", ["-c", "command -v redis-server"], { encoding: "utf8" });
  if (found.status !== 0)
    throw new Error("redis-server is not installed: run `bash tools/debian-packages.sh` (npm test does it first)");
  const port = await freePort();
  const child = spawn(
    found.stdout.trim(),
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const cli = (...args) =>
    spawnSync("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], {
      encoding: "utf8",
      timeout: 5000,
    }).stdout.trim();
  const deadline = Date.now() + 10_000;
  while (cli("PING") !== "PONG") {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { port, url: `redis://127.0.0.1:${port}`, cli, stop: () => child.kill("SIGKILL") };
}
