/**
 * configure() and registerProfile() from a setup file hold in each runner: node --import, vitest's setupFiles,
 * jest's setupFiles (examples/profiles/). Each runs twice, without SHRINKSCOPE_PROFILE (CI's profile under the
 * setup file's defaults) and with SHRINKSCOPE_PROFILE=quick, and each test file checks how many examples its
 * properties ran. Needs `npm run build` first (`npm test` does it).
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { runNode, type Exit } from "./runChild.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const DIR = path.join("examples", "profiles");
const TIMEOUT_MS = 120_000;

const RUNNERS: Record<string, (tmp: string) => string[]> = {
  "node --import": () => ["--import", `./${DIR}/setup.mjs`, "--test", path.join(DIR, "node-test.test.mjs")],
  vitest: () => [
    path.join("node_modules", "vitest", "vitest.mjs"),
    "run",
    "--config",
    path.join(DIR, "vitest.config.mjs"),
  ],
  jest: (tmp) => [
    path.join("node_modules", "jest", "bin", "jest.js"),
    "--config",
    path.join(DIR, "jest.config.cjs"),
    "--ci",
    "--cacheDirectory",
    path.join(tmp, "jest-cache"),
  ],
};
const PROFILES = [undefined, "quick"];

let tmp = "";
const runs = new Map<string, Promise<Exit>>();
const runKey = (runner: string, profile: string | undefined) => `${runner} ${profile ?? "(no profile)"}`;

before(() => {
  assert.ok(fs.existsSync(path.join(ROOT, "dist", "engine.mjs")), "dist/ is missing: run `npm run build` first");
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-profiles-"));
  // All six start together, as runners.test.ts starts its four.
  for (const profile of PROFILES) {
    for (const [name, args] of Object.entries(RUNNERS)) {
      const env = profile === undefined ? {} : { SHRINKSCOPE_PROFILE: profile };
      runs.set(runKey(name, profile), runNode(args(tmp), ROOT, TIMEOUT_MS, env));
    }
  }
});

after(async () => {
  await Promise.all(runs.values());
  if (tmp !== "") fs.rmSync(tmp, { recursive: true, force: true });
});

for (const profile of PROFILES) {
  for (const name of Object.keys(RUNNERS)) {
    test(
      `${name}: the setup file's settings hold (${profile === undefined ? "no SHRINKSCOPE_PROFILE" : `SHRINKSCOPE_PROFILE=${profile}`})`,
      { timeout: TIMEOUT_MS + 30_000 },
      async () => {
        const exit = await runs.get(runKey(name, profile))!;
        const context = `\n--- exited ${exit.code ?? exit.signal}\n--- stdout:\n${exit.stdout.slice(-3000)}\n--- stderr:\n${exit.stderr.slice(-3000)}`;
        assert.equal(exit.error, undefined, `could not start ${name}: ${exit.error?.message}`);
        assert.ok(!exit.timedOut, `${name} did not finish${context}`);
        assert.equal(exit.code, 0, `${name}: a test failed${context}`);
        // Both tests ran (a runner that found none would exit 0 too).
        assert.match(`${exit.stdout}\n${exit.stderr}`, /(# pass 2|Tests\s+2 passed|Tests:\s+2 passed)/, context);
      },
    );
  }
}
