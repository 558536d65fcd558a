/**
 * Which runner "Run property" uses, on the shapes of real projects (an in-memory file system): the nearest
 * config wins in a monorepo, imports name the runner outright, the setting overrides, a runner that is
 * configured but not installed falls back to the bundled runner with a message saying what to install, and a
 * file outside any config runs bundled. Also the command lines: name filters match exactly one test.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, test } from "node:test";
import {
  detectRunner,
  nodeFlagsOf,
  runnerCommand,
  type DetectIO,
  type RunnerPlan,
} from "../../src/extension/runnerDetect.ts";

const R = path.resolve("/repo");
const p = (...parts: string[]) => path.join(R, ...parts);

/**
 * Files (path → text) and installed packages (folder where node_modules holds it → names); shrinkscope is
 * installed at the root unless `installed` says where.
 */
function fakeIO(
  files: Record<string, string>,
  installed: Record<string, string[]> = {},
  nodeVersion = "20.20.2",
): DetectIO {
  if (!Object.values(installed).some((names) => names.includes("shrinkscope")))
    installed = { ...installed, [R]: [...(installed[R] ?? []), "shrinkscope"] };
  return {
    readFile: (f) => files[f],
    exists: (f) => f in files,
    resolvePackage(name, from) {
      for (let dir = from; ; dir = path.dirname(dir)) {
        if (installed[dir]?.includes(name)) return path.join(dir, "node_modules", name);
        if (path.dirname(dir) === dir) return undefined;
      }
    },
    nodeVersion: () => nodeVersion,
  };
}

function external(plan: RunnerPlan): RunnerPlan & { kind: "external" } {
  assert.equal(plan.kind, "external", plan.why);
  return plan as RunnerPlan & { kind: "external" };
}

describe("detectRunner", () => {
  test("a monorepo: each package's nearest config decides, and its own node_modules provides the runner", () => {
    const io = fakeIO(
      {
        [p("package.json")]: JSON.stringify({ scripts: { test: "npm run test --workspaces" } }),
        [p("packages", "web", "package.json")]: JSON.stringify({ scripts: { test: "vitest" } }),
        [p("packages", "web", "vitest.config.ts")]: "export default {}",
        [p("packages", "api", "package.json")]: JSON.stringify({ scripts: { test: "jest" } }),
        [p("packages", "api", "jest.config.js")]: "module.exports = {}",
        [p("packages", "cli", ".mocharc.json")]: "{}",
      },
      { [R]: ["vitest", "jest", "mocha"] },
    );
    const web = external(detectRunner(p("packages", "web", "src", "a.test.ts"), R, "auto", "", io));
    assert.deepEqual(
      [web.runner, web.projectDir, web.bin],
      ["vitest", p("packages", "web"), p("node_modules", "vitest", "vitest.mjs")],
    );
    assert.match(web.why, /vitest\.config\.ts/);
    const api = external(detectRunner(p("packages", "api", "test", "b.test.js"), R, "auto", "", io));
    assert.deepEqual([api.runner, api.projectDir], ["jest", p("packages", "api")]);
    const cli = external(detectRunner(p("packages", "cli", "test", "c.spec.js"), R, "auto", "", io));
    assert.deepEqual([cli.runner, cli.projectDir], ["mocha", p("packages", "cli")]);
  });

  test("one folder configuring two runners: its test script decides; the file's imports win over both", () => {
    const files = {
      [p("package.json")]: JSON.stringify({ scripts: { test: "jest --ci" } }),
      [p("vitest.config.mts")]: "",
      [p("jest.config.cjs")]: "",
    };
    const io = fakeIO(files, { [R]: ["vitest", "jest"] });
    assert.equal(external(detectRunner(p("t.test.ts"), R, "auto", "", io)).runner, "jest");
    const byImport = external(detectRunner(p("t.test.ts"), R, "auto", 'import { test, vi } from "vitest";', io));
    assert.equal(byImport.runner, "vitest");
    assert.match(byImport.why, /imports vitest/);
    assert.equal(
      external(detectRunner(p("t.test.ts"), R, "auto", 'import { jest } from "@jest/globals";', io)).runner,
      "jest",
    );
    // test.prop's entries name their runner too: without this, a file on shrinkscope/vitest in a project with no
    // vitest config went to the bundled runner, which cannot load vitest ("Vitest cannot be imported in CommonJS").
    for (const [entry, runner] of [
      ["shrinkscope/vitest", "vitest"],
      ["shrinkscope/jest", "jest"],
    ] as const) {
      const bare = fakeIO({ [p("package.json")]: JSON.stringify({ name: "x" }) }, { [R]: [runner] });
      const detected = external(detectRunner(p("t.test.ts"), R, "auto", `import { test, fc } from "${entry}";`, bare));
      assert.equal(detected.runner, runner);
      assert.match(detected.why, /imports/);
    }
  });

  test("package.json fields and scripts configure runners too", () => {
    const jestField = fakeIO(
      { [p("package.json")]: JSON.stringify({ jest: { testEnvironment: "node" } }) },
      { [R]: ["jest"] },
    );
    assert.match(external(detectRunner(p("a.test.js"), R, "auto", "", jestField)).why, /package\.json "jest"/);
    const mochaScript = fakeIO(
      { [p("package.json")]: JSON.stringify({ scripts: { test: "mocha 'test/**/*.spec.js'" } }) },
      { [R]: ["mocha"] },
    );
    assert.equal(external(detectRunner(p("test", "a.spec.js"), R, "auto", "", mochaScript)).runner, "mocha");
    const nodeScript = fakeIO({
      [p("package.json")]: JSON.stringify({ scripts: { test: "node --import tsx --test test/*.test.ts" } }),
    });
    const node = external(
      detectRunner(p("test", "a.test.ts"), R, "auto", 'import { test } from "node:test";', nodeScript),
    );
    assert.deepEqual([node.runner, node.nodeFlags], ["node", ["--import", "tsx"]]);
  });

  test("a configured runner that is not installed: the bundled runner, and the message says what to install", () => {
    const io = fakeIO({ [p("package.json")]: "{}", [p("vitest.config.ts")]: "" }, {});
    const plan = detectRunner(p("a.test.ts"), R, "auto", "", io);
    assert.equal(plan.kind, "builtin");
    assert.match(
      plan.why,
      /vitest is not installed in .* \(npm install --save-dev vitest\); ran with the bundled runner instead/,
    );
  });

  test("a file outside any config (and outside the workspace) runs bundled", () => {
    const io = fakeIO(
      { [p("package.json")]: JSON.stringify({ scripts: { test: "vitest" } }), [p("vitest.config.ts")]: "" },
      { [R]: ["vitest"] },
    );
    const plan = detectRunner(path.resolve("/elsewhere", "scratch.test.ts"), R, "auto", "", io);
    assert.deepEqual(plan, {
      kind: "builtin",
      why: "no test runner is configured for this file (no vitest, jest or mocha config, no test script)",
    });
  });

  test("a plain node:test file (no test script runs node --test) runs bundled; with such a script, node --test", () => {
    const src = 'import { test } from "node:test";';
    const plain = detectRunner(
      p("a.test.ts"),
      R,
      "auto",
      src,
      fakeIO({ [p("package.json")]: JSON.stringify({ type: "module" }) }),
    );
    assert.deepEqual(plain, {
      kind: "builtin",
      why: "a plain node:test file (no package.json test script runs node --test)",
    });
    const scripted = external(
      detectRunner(
        p("test", "a.test.mjs"),
        R,
        "auto",
        src,
        fakeIO({ [p("package.json")]: JSON.stringify({ scripts: { test: "node --test" } }) }),
      ),
    );
    assert.deepEqual([scripted.runner, scripted.projectDir], ["node", R]);
    assert.match(scripted.why, /imports node:test; package\.json's test script \(node --test\)/);
  });

  test("shrinkscope not installed where the file is: the bundled runner, which brings its own engine", () => {
    const io = fakeIO(
      { [p("package.json")]: "{}", [p("vitest.config.ts")]: "" },
      { [R]: ["vitest"], [p("other")]: ["shrinkscope"] },
    );
    const plan = detectRunner(p("a.test.ts"), R, "auto", "", io);
    assert.equal(plan.kind, "builtin");
    assert.match(
      plan.why,
      /vitest\.config\.ts in .*, but shrinkscope is not installed where the file is \(npm install --save-dev shrinkscope\); ran with the bundled runner, which brings its own/,
    );
  });

  test("node:test on a TypeScript file needs a loader on Node 20, not on a Node that strips types", () => {
    const files = { [p("package.json")]: JSON.stringify({ scripts: { test: "node --test" } }) };
    const src = 'import test from "node:test";';
    const old = detectRunner(p("a.test.ts"), R, "auto", src, fakeIO(files, {}, "20.20.2"));
    assert.equal(old.kind, "builtin");
    assert.match(old.why, /needs? .*loader|only with a loader/);
    assert.equal(external(detectRunner(p("a.test.ts"), R, "auto", src, fakeIO(files, {}, "24.1.0"))).runner, "node");
    assert.equal(
      external(detectRunner(p("a.test.mjs"), R, "auto", src, fakeIO(files, {}, "20.20.2"))).runner,
      "node",
      "plain JavaScript needs no loader",
    );
  });

  test("shrinkscope.runner overrides detection; builtin always bundles", () => {
    const io = fakeIO({ [p("package.json")]: "{}", [p("jest.config.js")]: "" }, { [R]: ["jest", "mocha"] });
    assert.equal(external(detectRunner(p("a.test.js"), R, "mocha", "", io)).runner, "mocha");
    assert.deepEqual(detectRunner(p("a.test.js"), R, "builtin", "", io), {
      kind: "builtin",
      why: "shrinkscope.runner is builtin",
    });
    const missing = detectRunner(p("a.test.js"), R, "vitest", "", io);
    assert.equal(missing.kind, "builtin");
    assert.match(missing.why, /shrinkscope\.runner is vitest, but vitest is not installed/);
  });

  test("unreadable package.json and half-typed source do not throw", () => {
    const io = fakeIO({ [p("package.json")]: "{ not json", [p("jest.config.js")]: "" }, { [R]: ["jest"] });
    assert.equal(external(detectRunner(p("a.test.js"), R, "auto", "import { from '", io)).runner, "jest");
  });
});

describe("nodeFlagsOf", () => {
  test("keeps the loader and type-stripping flags before --test, drops the rest", () => {
    assert.deepEqual(nodeFlagsOf("node --import tsx --test"), ["--import", "tsx"]);
    assert.deepEqual(nodeFlagsOf("cross-env X=1 node --experimental-strip-types --no-warnings --test test/"), [
      "--experimental-strip-types",
      "--no-warnings",
    ]);
    assert.deepEqual(nodeFlagsOf("node -r ts-node/register --loader=ts-node/esm --test"), [
      "-r",
      "ts-node/register",
      "--loader=ts-node/esm",
    ]);
    assert.deepEqual(nodeFlagsOf("tsc && node --test dist/"), []);
    assert.deepEqual(nodeFlagsOf("vitest"), []);
    assert.deepEqual(nodeFlagsOf(undefined), []);
  });
});

describe("runnerCommand", () => {
  const plan = (runner: "vitest" | "jest" | "mocha" | "node"): RunnerPlan & { kind: "external" } => ({
    kind: "external",
    runner,
    projectDir: R,
    bin: p("node_modules", runner, "bin.js"),
    nodeFlags: ["--import", "tsx"],
    why: "",
  });
  const file = p("test", "a.test.ts");
  const testPath = ["cart (v2)", "total is $ + tax?"];

  test("each runner's name filter matches exactly the describe names and test name joined by spaces", () => {
    const pattern = (args: readonly string[], flag: string) => {
      const i = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
      return args[i]!.startsWith(`${flag}=`) ? args[i]!.slice(flag.length + 1) : args[i + 1]!;
    };
    for (const [runner, flag] of [
      ["vitest", "--testNamePattern"],
      ["jest", "--testNamePattern"],
      ["mocha", "--grep"],
    ] as const) {
      const c = runnerCommand(plan(runner), file, testPath, "node");
      const re = new RegExp(pattern(c.args, flag));
      assert.ok(re.test("cart (v2) total is $ + tax?"), `${runner}: ${re}`);
      assert.ok(
        !re.test("cart (v2) total is $ + tax? twice") &&
          !re.test("my cart (v2) total is $ + tax?") &&
          !re.test("cart v2 total is  + tax"),
        `${runner} matches only that test: ${re}`,
      );
      assert.ok(c.args.includes(file) && c.cwd === R, `${runner}: the file, from the project's folder`);
    }
    const node = runnerCommand(plan("node"), file, testPath, "node");
    assert.deepEqual(node.args.slice(0, 3), ["--import", "tsx", "--test"], "the project's loader flags come first");
    const re = new RegExp(pattern(node.args, "--test-name-pattern"));
    assert.ok(
      re.test("total is $ + tax?") && re.test("cart (v2) total is $ + tax?") && !re.test("total is $ + tax? twice"),
      `node: ${re}`,
    );
  });

  test("vitest runs once (no watch mode) and jest never watches", () => {
    assert.equal(runnerCommand(plan("vitest"), file, ["t"], "node").args[1], "run");
    assert.ok(runnerCommand(plan("jest"), file, ["t"], "node").args.includes("--watchAll=false"));
  });
});
