#!/usr/bin/env node
// Runs the extension's end-to-end checks in a real VS Code (code-server) offline.
//
//   node tools/vscode-e2e/run-e2e.mjs [--install] [FILTER...]
//
// --install   run tools/vscode-e2e/install.sh first (idempotent; quick when already installed)
// FILTER      only checks whose name contains one of these strings
//
// Checks come from test/e2e/*.e2e.mjs, each exporting `checks`: [{ name, timeoutMs?, run(ctx) }].
// ctx.startCodeServer / ctx.openWorkbench / ctx.runInHostTests are launch.mjs's functions, but whatever they
// start is registered here and torn down after the check even if it fails or times out. ctx.screenshot(page,
// name, { keep }) writes a PNG into this run's temp screenshot folder, and with keep: "x.png" also copies it
// to test/e2e/screenshots/x.png. A failing UI check gets a screenshot of every open page.
// Prints one line per check and ends with "N passed, N failed"; exits 1 when any failed.

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { copyFile, mkdir, mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  CODE_SERVER_ENTRY,
  formatAutomationLog,
  gotoWorkbench,
  launchBrowser,
  LOG_NOISE,
  NODE24,
  runInHostTests,
  startCodeServer,
  withTimeout,
} from "./launch.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, "../..");
const TEST_DIR = path.join(REPO_ROOT, "test/e2e");
const KEPT_SCREENSHOTS = path.join(TEST_DIR, "screenshots");

const argv = process.argv.slice(2);
const install = argv.includes("--install");
const filters = argv.filter((a) => !a.startsWith("--"));

const t0 = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;

if (install) {
  const r = spawnSync("bash", [path.join(HERE, "install.sh")], { stdio: "inherit" });
  if (r.status !== 0) {
    // On stdout, where `npm test` (scripts/test.mjs) reads it to name the stage that failed.
    console.log(
      `vscode-e2e: VS Code toolchain install failed: tools/vscode-e2e/install.sh ${r.error ? `could not run (${r.error.message})` : `exited with ${r.status ?? r.signal}`} (its output is above)`,
    );
    process.exit(r.status || 1);
  }
}
if (!existsSync(NODE24) || !existsSync(CODE_SERVER_ENTRY)) {
  console.log("vscode-e2e: code-server is not installed: run tools/vscode-e2e/install.sh (or pass --install)");
  process.exit(1);
}

// Cleanups of the running check; also run on SIGINT/SIGTERM.
let cleanups = [];
let openPages = [];
let cleaning = null;
function runCleanups() {
  cleaning ??= (async () => {
    const list = cleanups.reverse();
    cleanups = [];
    openPages = [];
    for (const fn of list) {
      await withTimeout(Promise.resolve().then(fn), 20_000, "cleanup").catch((e) =>
        console.error(`    cleanup: ${e.message}`),
      );
    }
  })().finally(() => {
    cleaning = null;
  });
  return cleaning;
}
let interrupted = null;
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.once(sig, () => {
    console.error(`\nvscode-e2e: ${sig}, cleaning up`);
    // launch.mjs's exit hook SIGKILLs any code-server group and removes temp folders still left.
    interrupted = runCleanups().finally(() => process.exit(sig === "SIGINT" ? 130 : 143));
  });
}

const screenshotDir = await mkdtemp(path.join(os.tmpdir(), "vscode-e2e-screenshots-"));
let shotCount = 0;
const ctx = {
  repoRoot: REPO_ROOT,
  fixtures: path.join(TEST_DIR, "fixtures"),
  screenshotDir,
  log: (...a) => console.log("   ", ...a),
  async startCodeServer(opts) {
    const server = await startCodeServer(opts);
    cleanups.push(() => server.stop());
    return server;
  },
  async openWorkbench(server, opts = {}) {
    // Like launch.mjs's openWorkbench, but the browser is registered for cleanup before the (slow) wait.
    const wb = await launchBrowser({ viewport: opts.viewport });
    cleanups.push(() => wb.close());
    openPages.push(wb.page);
    await gotoWorkbench(wb.page, server, opts);
    return wb;
  },
  runInHostTests(opts) {
    // runInHostTests cleans up after itself, on timeout too. Host output is indented under the check.
    const onLog = (level, message) => {
      // Without ANSI colours (mocha colours its check marks whenever CI is set, TTY or not).
      const text = stripVTControlCharacters(formatAutomationLog(level, message));
      if (process.env.VSCODE_E2E_VERBOSE !== "1" && LOG_NOISE.some((re) => re.test(text))) return;
      console.log(text.replace(/^/gm, level === "error" || level === "warn" ? `    │ [${level}] ` : "    │ "));
    };
    return runInHostTests({ onLog, ...opts });
  },
  async screenshot(page, name, { keep } = {}) {
    const file = path.join(screenshotDir, `${String(++shotCount).padStart(2, "0")}-${name}.png`);
    await page.screenshot({ path: file, timeout: 15_000 });
    if (keep) {
      await mkdir(KEPT_SCREENSHOTS, { recursive: true });
      await copyFile(file, path.join(KEPT_SCREENSHOTS, keep));
    }
    return file;
  },
};

const files = existsSync(TEST_DIR)
  ? readdirSync(TEST_DIR)
      .filter((f) => f.endsWith(".e2e.mjs"))
      .sort()
  : [];
const checks = [];
for (const f of files) {
  const mod = await import(pathToFileURL(path.join(TEST_DIR, f)).href);
  for (const c of mod.checks ?? []) checks.push({ file: f, ...c });
}
const selected = filters.length ? checks.filter((c) => filters.some((s) => c.name.includes(s))) : checks;
if (selected.length === 0) {
  console.error(
    `vscode-e2e: no checks${filters.length ? ` match ${filters.join(", ")}` : ` in ${TEST_DIR}/*.e2e.mjs`}`,
  );
  process.exit(1);
}

console.log(`vscode-e2e: ${selected.length} check(s); screenshots in ${screenshotDir}`);
let passed = 0;
const failures = [];
for (const check of selected) {
  const start = Date.now();
  console.log(`▶ ${check.name}`);
  let error;
  try {
    await withTimeout(
      Promise.resolve().then(() => check.run(ctx)),
      check.timeoutMs ?? 180_000,
      `check "${check.name}"`,
    );
  } catch (e) {
    error = e;
    for (const [i, page] of openPages.entries()) {
      const file = path.join(screenshotDir, `failure-${String(++shotCount).padStart(2, "0")}-${i}.png`);
      await page.screenshot({ path: file, timeout: 10_000 }).then(
        () => console.log(`    failure screenshot: ${file}`),
        () => {},
      );
    }
  } finally {
    await runCleanups();
    if (interrupted) await interrupted; // exits
  }
  const took = secs(Date.now() - start);
  if (error) {
    failures.push({ name: check.name, error });
    console.log(`✖ ${check.name} (${took})`);
    console.log(String(error?.stack ?? error).replace(/^/gm, "    "));
  } else {
    passed++;
    console.log(`✔ ${check.name} (${took})`);
  }
}

// The failures again, next to the summary: a CI log kept only in part keeps its end, and a check's own output
// (streamed above) can be long enough to push its ✖ line out of what was kept.
for (const f of failures) {
  const first = String(f.error?.message ?? f.error)
    .split("\n")
    .slice(0, 6)
    .join("\n");
  console.log(`failed: ${f.name}\n${first.replace(/^/gm, "    ")}`);
}
console.log(`vscode-e2e: finished in ${secs(Date.now() - t0)}; screenshots in ${screenshotDir}`);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
