// The VS Code half of `npm run demo` (examples/demo-vscode.mjs) as a user ends it: by closing its terminal.
// Run by tools/vscode-e2e/run-e2e.mjs like the other *.e2e.mjs files.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every process as { pid, ppid, pgrp, cmdline } (Linux /proc). */
function processes() {
  const all = [];
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      all.push({
        pid: Number(entry),
        ppid: Number(ppid),
        pgrp: Number(pgrp),
        cmdline: readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0"),
      });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

export const checks = [
  {
    name: "demo: closing its terminal (SIGHUP) stops code-server's whole process group and removes its temp folder",
    timeoutMs: 240_000,
    async run(ctx) {
      const demo = spawn(process.execPath, [path.join(REPO, "examples", "demo-vscode.mjs")], {
        cwd: REPO,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      demo.stdout.setEncoding("utf8").on("data", (d) => (out += d));
      demo.stderr.setEncoding("utf8").on("data", (d) => (out += d));
      const exited = new Promise((resolve) => demo.once("exit", (code, signal) => resolve({ code, signal })));
      let group = [];
      let tmpDir;
      try {
        for (const end = Date.now() + 180_000; !out.includes("VS Code with Shrinkscope is at"); await sleep(200)) {
          if (demo.exitCode !== null || Date.now() > end) throw new Error(`the demo never served VS Code:\n${out}`);
        }
        const codeServer = processes().find((p) => p.ppid === demo.pid);
        if (codeServer === undefined) throw new Error("the demo has no child process (code-server)");
        const userData = codeServer.cmdline[codeServer.cmdline.indexOf("--user-data-dir") + 1];
        tmpDir = path.dirname(userData ?? "");
        if (!userData || !existsSync(tmpDir))
          throw new Error(`code-server's user data folder was not found in ${JSON.stringify(codeServer.cmdline)}`);
        group = processes().filter((p) => p.pgrp === codeServer.pid);
        demo.kill("SIGHUP");
        const how = await Promise.race([exited, sleep(30_000).then(() => undefined)]);
        if (how === undefined) throw new Error("the demo did not exit within 30 s of SIGHUP");
        for (let i = 0; i < 50 && processes().some((p) => p.pgrp === codeServer.pid); i++) await sleep(100);
        const left = processes().filter((p) => p.pgrp === codeServer.pid);
        if (left.length > 0)
          throw new Error(
            `left running after SIGHUP: ${left.map((p) => `${p.pid} ${p.cmdline.join(" ").slice(0, 120)}`).join("\n")}`,
          );
        if (existsSync(tmpDir)) throw new Error(`the temp folder ${tmpDir} is left behind`);
        ctx.log(
          `SIGHUP: the demo exited (${JSON.stringify(how)}); code-server's group of ${group.length} processes is gone, its temp folder removed`,
        );
      } finally {
        if (demo.exitCode === null && demo.signalCode === null) demo.kill("SIGKILL");
        for (const p of processes().filter((q) => group.some((g) => g.pgrp === q.pgrp))) {
          try {
            process.kill(p.pid, "SIGKILL");
          } catch {}
        }
        if (tmpDir !== undefined && tmpDir.includes("vscode-e2e-")) rmSync(tmpDir, { recursive: true, force: true });
      }
    },
  },
];
