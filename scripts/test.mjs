// `npm test`: everything CI runs, in order, with one closing summary line.
//   1. build and typecheck;
//   2. node:test over the engine, webview model, extension units, runner and test-runner compatibility;
//   3. the extension in a real VS Code (code-server; tools/vscode-e2e installs it on first use).
// Each stage streams its own output; the last line adds them up as "N passed, N failed".
import { spawn } from "node:child_process";

function run(cmd, args, { capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", capture ? "pipe" : "inherit", "inherit"] });
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.on("close", (code) => resolve({ code: code ?? 1, out }));
  });
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
let passed = 0;
let failed = 0;

for (const script of ["build", "typecheck"]) {
  const r = await run(npm, ["run", "--silent", script]);
  if (r.code !== 0) {
    console.log(`\nnpm run ${script} failed\n0 passed, 1 failed`);
    process.exit(1);
  }
}

const unitFiles = ["engine", "webview", "extension-unit", "runner", "runners"].map((d) => `test/${d}/*.test.ts`);
const unit = await run("bash", ["-c", `node --import tsx --test ${unitFiles.join(" ")}`], { capture: true });
const count = (name) => Number(new RegExp(`^# ${name} (\\d+)`, "m").exec(unit.out)?.[1] ?? 0);
passed += count("pass");
failed += count("fail") + (unit.code !== 0 && count("fail") === 0 ? 1 : 0);

const e2e = await run(process.execPath, ["tools/vscode-e2e/run-e2e.mjs", "--install"], { capture: true });
const m = /^(\d+) passed, (\d+) failed$/m.exec(e2e.out);
if (m) {
  passed += Number(m[1]);
  failed += Number(m[2]);
} else failed += 1;
if (e2e.code !== 0 && (!m || Number(m[2]) === 0)) failed += 1;

console.log(`\nunit tests (node:test) and VS Code e2e checks together:\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
