// `npm test`: everything CI runs, in order, with one closing summary line.
//   1. build and typecheck;
//   2. node:test over every unit test (scripts/unit-test-files.mjs says which: the engine, the shared wire formats,
//      the panel, the extension's pure parts, the runner, the test runners, the repository's own rules) (after
//      installing the Debian packages they need — redis-server for the shared-database tests, chromium for the
//      panel's render tests: tools/debian-packages.sh);
//   3. the extension in a real VS Code (code-server; tools/vscode-e2e installs it on first use).
// Each stage streams its own output; the last line adds them up as "N passed, N failed".
import { spawn } from "node:child_process";
import { summarize } from "./summary.mjs";
import { unitTestFiles } from "./unit-test-files.mjs";

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

for (const script of ["build", "typecheck"]) {
  const r = await run(npm, ["run", "--silent", script]);
  if (r.code !== 0) {
    console.log(`\nstage failed: npm run ${script} (its output is above)\n0 passed, 0 failed`);
    process.exit(1);
  }
}

{
  const r = await run("bash", ["tools/debian-packages.sh"]);
  if (r.code !== 0) {
    console.log(
      `\nstage failed: bash tools/debian-packages.sh (redis-server and chromium for the unit tests; its output is above)\n0 passed, 0 failed`,
    );
    process.exit(1);
  }
}

const unit = await run(process.execPath, ["--import", "tsx", "--test", ...unitTestFiles()], { capture: true });
const e2e = await run(process.execPath, ["tools/vscode-e2e/run-e2e.mjs", "--install"], { capture: true });
const summary = summarize({ unit, e2e });
console.log(`\n${summary.text}`);
process.exit(summary.exitCode);
