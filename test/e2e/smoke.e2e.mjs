// Smoke checks that prove the real-VS-Code pipeline (tools/vscode-e2e) works, with a throwaway extension
// (fixtures/smoke-extension). Run by tools/vscode-e2e/run-e2e.mjs, which imports every
// test/e2e/*.e2e.mjs and runs its `checks`: [{ name, timeoutMs, run(ctx) }].
// ctx: { repoRoot, fixtures, screenshotDir, startCodeServer, openWorkbench, runInHostTests, screenshot, log }
// (resources made through ctx are cleaned up by the runner, even when a check times out).

import path from "node:path";
import { fileURLToPath } from "node:url";
import { quickPick } from "../../tools/vscode-e2e/launch.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(HERE, "fixtures");
const SMOKE_EXTENSION = path.join(FIXTURES, "smoke-extension");
const SMOKE_TESTS = path.join(FIXTURES, "smoke-tests", "index.js");
const SMOKE_WORKSPACE = path.join(FIXTURES, "workspace-smoke");

export const checks = [
  {
    name: "smoke: in-host mocha tests (executeCommand, global state, open a workspace file)",
    timeoutMs: 180_000,
    async run(ctx) {
      const code = await ctx.runInHostTests({
        extensionDevelopmentPath: SMOKE_EXTENSION,
        extensionTestsPath: SMOKE_TESTS,
        workspace: SMOKE_WORKSPACE,
        timeoutMs: 170_000,
      });
      if (code !== 0) throw new Error(`in-host tests exited with code ${code}`);
    },
  },
  {
    name: "smoke: UI (Ctrl+P opens hello.ts, command palette runs Smoke: Hello)",
    timeoutMs: 180_000,
    async run(ctx) {
      // Installed (not development-mode) extension and no smoke-test driver: with the driver on, the
      // workbench never shows notification toasts, and this check wants to see one as a person would.
      const server = await ctx.startCodeServer({
        installExtensions: [SMOKE_EXTENSION],
        smokeTestDriver: false,
        workspace: SMOKE_WORKSPACE,
      });
      const { page } = await ctx.openWorkbench(server);

      // Quick Open (Ctrl+P) -> hello.ts -> Enter, then wait for its text in the editor.
      await quickPick(page, { key: "Control+P", text: "hello.ts", rowText: "hello.ts" });
      await page.locator(".tabs-container .tab.active", { hasText: "hello.ts" }).waitFor({ timeout: 30_000 });
      await page
        .locator(".editor-instance .monaco-editor .view-lines", { hasText: "export function hello" })
        .first()
        .waitFor({ timeout: 30_000 });
      await ctx.screenshot(page, "hello-ts-open");

      // Command palette -> "Smoke: Hello" -> the extension's notification.
      await quickPick(page, { key: "Control+Shift+P", text: "Smoke: Hello", rowText: "Smoke: Hello" });
      await page
        // fade-in-done: the toast has finished its fade-in animation (else the screenshot shows it faint)
        .locator(".notifications-toasts .notification-toast.notification-fade-in-done", { hasText: "Smoke: hello #1" })
        .waitFor({ timeout: 30_000 });
      // The editor must still show the file under the notification.
      await page
        .locator(".editor-instance .view-lines", { hasText: "export function hello" })
        .first()
        .waitFor({ timeout: 5_000 });
      await ctx.screenshot(page, "smoke-hello-notification", { keep: "smoke.png" });
    },
  },
];
