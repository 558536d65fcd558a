// A failure database shared on Redis, in a real VS Code (code-server): another machine (a CI shard: a separate
// checkout, its own process, `node --test` with SHRINKSCOPE_DATABASE_URL) finds a failure; the developer opens
// the same file with `shrinkscope.sharedDatabaseUrl` set and sees "Failed elsewhere" on the property with the
// minimal example that machine printed, then clicks "Run property": the run replays it first.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { linkPackages } from "../../tools/vscode-e2e/launch.mjs";
import { startRedis } from "../../tools/redis/server.mjs";
import { openInstalled, panelOf, quickOpen, runLenses } from "./shrinkscope.e2e.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
const WORKSPACE = path.join(HERE, "fixtures", "workspace-props");
const FILE = "limits.test.ts";
const SOURCE = `import { test } from "node:test";
import { property, st } from "shrinkscope";

test("prices stay under the limit", property(st.integers({ min: 0, max: 100_000 }), (cents) => {
  if (cents > 5000) throw new RangeError(\`\${cents} cents is over the limit\`);
}));
`;
const PACKAGES = { shrinkscope: REPO, ioredis: path.join(REPO, "node_modules", "ioredis") };

export const checks = [
  {
    name: 'extension: UI (a shared database: a failure found on another machine shows as "Failed elsewhere", and Run property replays it first)',
    timeoutMs: 300_000,
    async run(ctx) {
      const redis = await startRedis();
      try {
        // The other machine: its own checkout of the project, its own process, the project's own test runner.
        const shard = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-shard-"));
        fs.cpSync(WORKSPACE, shard, { recursive: true });
        fs.writeFileSync(path.join(shard, FILE), SOURCE);
        linkPackages(shard, PACKAGES);
        const env = { ...process.env, CI: "true", SHRINKSCOPE_DATABASE_URL: redis.url };
        delete env.NODE_TEST_CONTEXT;
        const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
        const other = spawnSync(process.execPath, ["--import", tsx, "--test", FILE], {
          cwd: shard,
          env,
          encoding: "utf8",
          timeout: 120_000,
        });
        if (other.status === 0 || !/5001 cents is over the limit/.test(other.stdout + other.stderr))
          throw new Error(
            `the other machine's run should fail with the minimal 5001:\n${other.stdout}\n${other.stderr}`,
          );
        const saved = redis.cli("--scan", "--pattern", "shrinkscope:examples:*");
        ctx.log(`the other machine saved ${JSON.stringify(saved)}`);
        if (!saved.startsWith(`shrinkscope:examples:${FILE}::property::prices stay under the limit::`))
          throw new Error("the failure is not in the shared database under the file's key");

        // This machine: the same file, a fresh checkout, the shared database in the settings.
        const before = (server) => {
          fs.writeFileSync(path.join(server.workspace, FILE), SOURCE);
          linkPackages(server.workspace, PACKAGES);
        };
        const { page } = await openInstalled(ctx, WORKSPACE, {
          userSettings: { "shrinkscope.sharedDatabaseUrl": redis.url },
          before,
        });
        await quickOpen(page, FILE);
        await page
          .locator(".editor-instance .view-lines", { hasText: "prices stay under the limit" })
          .first()
          .waitFor({ timeout: 30_000 });
        // The diagnostic, as the Problems view lists it.
        await page.keyboard.press("Control+Shift+M");
        const problem = page.locator(".markers-panel .monaco-list-row", { hasText: "Failed elsewhere" });
        await problem.first().waitFor({ timeout: 60_000 });
        const text = (await page.locator(".markers-panel").innerText()).replace(/\s+/g, " ");
        ctx.log(`Problems: ${JSON.stringify(text.slice(0, 400))}`);
        for (const want of [
          "Failed elsewhere (saved on",
          "Minimal example: 5001",
          "RangeError: 5001 cents is over the limit",
          "Run property replays it first",
        ]) {
          if (!text.includes(want)) throw new Error(`the Problems view lacks ${JSON.stringify(want)}:\n${text}`);
        }
        await ctx.screenshot(page, "shared-failed-elsewhere", { keep: "shared-failed-elsewhere.png" });

        // Run property: the first case is the other machine's failure, replayed from the shared database.
        const lens = runLenses(page).first();
        await lens.waitFor({ timeout: 60_000 });
        await lens.click();
        const panel = panelOf(page);
        await panel.locator(".badge.failed").waitFor({ timeout: 90_000 });
        await panel.locator("#result", { hasText: "Replayed from the example database" }).waitFor({ timeout: 15_000 });
        const repro = (await panel.locator(".repro").innerText()).trim();
        if (repro !== "5001") throw new Error(`the panel's minimal example reads ${JSON.stringify(repro)}`);
        ctx.log(`Run property: replayed from the shared database, minimal example ${repro}`);
        // Now it failed here too: its own diagnostic says so, and "Failed elsewhere" is gone.
        await page
          .locator(".markers-panel .monaco-list-row", { hasText: "Property fails. Minimal example: 5001" })
          .first()
          .waitFor({ timeout: 30_000 });
        await page
          .locator(".markers-panel .monaco-list-row", { hasText: "Failed elsewhere" })
          .first()
          .waitFor({ state: "detached", timeout: 30_000 });
        await ctx.screenshot(page, "shared-replayed", { keep: "shared-replayed.png" });
      } finally {
        redis.stop();
      }
    },
  },
];
