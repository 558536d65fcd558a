// The Shrinkscope extension in a real VS Code (code-server, see tools/vscode-e2e): in-host tests through
// its API and commands, and a UI test as a person would: open the fixture, click "Run property", watch the
// panel reach the minimal example, Ctrl+. → "Convert counterexample to test", check the file.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import { execFileSync } from "node:child_process";
import { quickPick } from "../../tools/vscode-e2e/launch.mjs";

/**
 * Package the extension as a .vsix (vsce) and unpack it: the UI check installs that, not the repository,
 * so it proves the .vsix works on its own — runner, esbuild-wasm and engine included, no node_modules.
 */
function packagedExtension() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-vsix-"));
  const vsix = path.join(dir, "shrinkscope.vsix");
  execFileSync(process.execPath, [path.join(REPO, "node_modules", "@vscode", "vsce", "vsce"), "package", "--no-dependencies", "--allow-missing-repository", "--no-rewrite-relative-links", "--out", vsix], { cwd: REPO, stdio: "pipe" });
  execFileSync("python3", ["-m", "zipfile", "-e", vsix, path.join(dir, "unpacked")]);
  const ext = path.join(dir, "unpacked", "extension");
  if (fs.existsSync(path.join(ext, "node_modules"))) throw new Error("the .vsix should carry no node_modules of its own");
  return { ext, size: fs.statSync(vsix).size };
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
const WORKSPACE = path.join(HERE, "fixtures", "workspace-props");
const HOST_TESTS = path.join(HERE, "fixtures", "host-tests", "index.js");

async function quickOpen(page, name) {
  await quickPick(page, { key: "Control+P", text: name, rowText: name });
  await page.locator(".tabs-container .tab.active", { hasText: name }).waitFor({ timeout: 30_000 });
}

export const checks = [
  {
    name: "extension: in-host tests (discovery, runner outcomes, diagnostics, quick fix compiled and run)",
    timeoutMs: 600_000,
    async run(ctx) {
      const size = fs.statSync(path.join(REPO, "dist", "extension.js")).size;
      ctx.log(`BAR dist/extension.js: ${(size / 1024).toFixed(0)} KB (bar: < 1 MB)`);
      const code = await ctx.runInHostTests({ extensionDevelopmentPath: REPO, extensionTestsPath: HOST_TESTS, workspace: WORKSPACE, timeoutMs: 590_000 });
      if (code !== 0) throw new Error(`in-host tests exited with code ${code}`);
    },
  },
  {
    name: "extension: untrusted workspace (CodeLens shows, nothing runs)",
    timeoutMs: 180_000,
    async run(ctx) {
      const code = await ctx.runInHostTests({ extensionDevelopmentPath: REPO, extensionTestsPath: path.join(HERE, "fixtures", "host-tests-untrusted", "index.js"), workspace: WORKSPACE, workspaceTrust: true, timeoutMs: 170_000 });
      if (code !== 0) throw new Error(`in-host tests exited with code ${code}`);
    },
  },
  {
    name: "extension: UI (click Run property, the panel shows the minimal example, Ctrl+. converts it to a test)",
    timeoutMs: 300_000,
    async run(ctx) {
      const { ext, size } = packagedExtension();
      ctx.log(`installed from a .vsix of ${(size / 1024 / 1024).toFixed(1)} MB`);
      const server = await ctx.startCodeServer({ installExtensions: [ext], smokeTestDriver: false, workspace: WORKSPACE });
      const { page } = await ctx.openWorkbench(server);
      await quickOpen(page, "sort.test.ts");
      await page.locator(".editor-instance .view-lines", { hasText: "uniqueSorted" }).first().waitFor({ timeout: 30_000 });
      // The second "Run property" lens is the failing "is ascending" property.
      const lenses = page.locator(".codelens-decoration a", { hasText: "Run property" });
      await lenses.nth(2).waitFor({ timeout: 60_000 });
      await ctx.screenshot(page, "codelens");
      await lenses.nth(1).click();
      const panel = page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
      await panel.locator(".repro", { hasText: "[-1, -2]" }).waitFor({ timeout: 60_000 });
      await panel.locator(".badge.failed").waitFor({ timeout: 10_000 });
      await ctx.screenshot(page, "panel-minimal-example", { keep: "panel.png" });
      // Each view of the panel was populated by the real run (issue: the e2e sees every view).
      const views = [
        ["choice sequence cells", "#choices div.cell"],
        ["sort-key comparison", "#comparison .verdict"],
        ["shrink progress chart", "#progress path.line"],
        ["DataTree nodes", "#datatree g.node"],
        ["generation statistics", "#stats .figure"],
        ["result repro", "#result .repro"],
      ];
      for (const [what, selector] of views) {
        const n = await panel.locator(selector).count();
        if (n === 0) throw new Error(`the panel's ${what} (${selector}) is empty after a real run`);
        ctx.log(`panel view populated: ${what} (${n} × ${selector})`);
      }
      await panel.locator("#sec-datatree").scrollIntoViewIfNeeded();
      await ctx.screenshot(page, "panel-datatree");
      // Put the cursor on the failing property call and ask for quick fixes.
      await page.locator(".editor-instance .view-line", { hasText: 'test("is ascending"' }).first().click();
      let converted = false;
      for (let attempt = 0; attempt < 6 && !converted; attempt++) {
        await page.keyboard.press("Control+.");
        const row = page.locator(".action-widget .monaco-list-row", { hasText: "Convert counterexample to test" });
        try {
          await row.first().waitFor({ timeout: 5_000 });
          await ctx.screenshot(page, "quick-fix-menu");
          await row.first().click();
          converted = true;
        } catch {
          await page.keyboard.press("Escape"); // the first request can come back empty while the TS server starts
        }
      }
      if (!converted) throw new Error("the quick fix never appeared");
      await page.locator(".editor-instance .view-lines", { hasText: "regression: minimal counterexample" }).first().waitFor({ timeout: 30_000 });
      await page.keyboard.press("Control+S");
      const saved = path.join(server.workspace, "sort.test.ts");
      for (let i = 0; i < 50 && !fs.readFileSync(saved, "utf8").includes("regression: minimal counterexample"); i++) await new Promise((r) => setTimeout(r, 200));
      const text = fs.readFileSync(saved, "utf8");
      if (!text.includes('test("is ascending (regression: minimal counterexample)", () => {')) throw new Error(`the regression test is not in the file:\n${text}`);
      if (!text.includes("const xs = [-1, -2];")) throw new Error("the regression test does not declare the minimal example");
      const inserted = text.slice(text.indexOf('test("is ascending (regression'));
      const end = /\n[ \t]*\}\);/.exec(inserted);
      console.log(`    converted test, as saved:\n${inserted.slice(0, end ? end.index + end[0].length : undefined).replace(/^/gm, "      ")}`);
      await page.keyboard.press("Control+Home"); // back to line 1, column 1: the screenshot shows the text from its left edge
      await ctx.screenshot(page, "converted", { keep: "converted.png" });
    },
  },
];
