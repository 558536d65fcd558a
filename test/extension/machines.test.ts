// State machines in the editor, host side: the failing invariant's or rule's method found for the diagnostic (in
// the test file, or in the workspace module its class is imported from), the modules the reader may open, the
// diagnostic and Test Explorer texts, and the settings a run passes (shrinkscope.stepCount among them).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { discoverProperties } from "../../src/extension/discovery.ts";
import { failingMethodSummary, failureMarkdown, failureSummary } from "../../src/extension/failures.ts";
import type { ModuleReader } from "../../src/extension/source/read/index.ts";
import { failingMethod } from "../../src/extension/source/read/index.ts";
import { moduleCandidates, moduleReader } from "../../src/extension/moduleReader.ts";
import { runConfigFrom } from "../../src/extension/runConfig.ts";
import type { SettingReader } from "../../src/extension/runConfig.ts";
import type { FailureReport, Presentation } from "../../src/shared/protocol.ts";

const lines = (...l: string[]): string => l.join("\n");

const LEDGER_CLASS = lines(
  "export class LedgerMachine extends Base<{ id: number }> {",
  "  balances = new Map<string, number>();",
  "  open = (x: unknown) => x; // a field, not a method",
  "  static totalsMatch(): void {}",
  "  get transfer(): number { return 0; }",
  "  totalsMatch(): void;",
  "  totalsMatch(): void {",
  "    assert.equal(1, 2);",
  "  }",
  "  async transfer2({ src }: { src: string }): Promise<void> {}",
  '  "odd-name"() {}',
  "}",
);

/** Where `failingMethod` points for the first machine in `source`, as `file:line:character` (1-based), or undefined. */
function methodAt(source: string, name: string, readModule?: ModuleReader): string | undefined {
  const [t] = discoverProperties(source, { fileName: "ledger.test.ts" });
  assert.ok(t?.propertyCall, "the machine is discovered");
  const at = failingMethod(
    source,
    t.propertyCall.offset,
    { name },
    { fileName: "ledger.test.ts", callee: t.propertyCall.callee, ...(readModule ? { readModule } : {}) },
  );
  return at && `${at.fileName ?? "(test file)"}:${at.start.line + 1}:${at.start.character + 1}-${at.end.character + 1}`;
}

test("the failing method is found in the test file's class: the method, never a field, accessor, static or overload signature of that name", () => {
  const source = lines(LEDGER_CLASS, 'test("ledger", machine(LedgerMachine, spec));');
  assert.equal(methodAt(source, "totalsMatch"), "(test file):7:3-14");
  assert.equal(methodAt(source, "transfer2"), "(test file):10:9-18");
  assert.equal(methodAt(source, "odd-name"), "(test file):11:3-13");
  for (const notAMethod of ["open", "transfer", "balances", "missing"])
    assert.equal(methodAt(source, notAMethod), undefined, notAMethod);
  // Through check(…) and a binding, as discovery reports them.
  assert.equal(
    methodAt(
      lines(LEDGER_CLASS, 'test("t", () => { check(machine(LedgerMachine, spec), { seed: 1 }); });'),
      "totalsMatch",
    ),
    "(test file):7:3-14",
  );
  assert.equal(
    methodAt(lines(LEDGER_CLASS, "const m = machine(LedgerMachine, spec);", 'test("t", m);'), "totalsMatch"),
    "(test file):7:3-14",
  );
  // `const X = class …` is a declaration too.
  assert.equal(
    methodAt(
      lines("const LedgerMachine = class {", "  totalsMatch() {}", "};", 'test("t", machine(LedgerMachine, spec));'),
      "totalsMatch",
    ),
    "(test file):2:3-14",
  );
});

test("a class imported from a relative module is found there (named, default, namespace, require), and only there", () => {
  const modules: Record<string, { fileName: string; source: string }> = {
    "./ledger": { fileName: "/w/ledger.ts", source: LEDGER_CLASS },
    "./default": { fileName: "/w/default.ts", source: lines("export default class {", "  ping() {}", "}") },
  };
  const asked: string[] = [];
  const read: ModuleReader = (specifier) => (asked.push(specifier), modules[specifier]);
  const machineTest = (imports: string, ref: string) => lines(imports, `test("ledger", machine(${ref}, spec));`);
  assert.equal(
    methodAt(machineTest('import { LedgerMachine } from "./ledger";', "LedgerMachine"), "totalsMatch", read),
    "/w/ledger.ts:7:3-14",
  );
  assert.equal(
    methodAt(machineTest('import { LedgerMachine as L } from "./ledger";', "L"), "totalsMatch", read),
    "/w/ledger.ts:7:3-14",
  );
  assert.equal(
    methodAt(machineTest('import * as models from "./ledger";', "models.LedgerMachine"), "totalsMatch", read),
    "/w/ledger.ts:7:3-14",
  );
  assert.equal(
    methodAt(machineTest('const { LedgerMachine } = require("./ledger");', "LedgerMachine"), "totalsMatch", read),
    "/w/ledger.ts:7:3-14",
  );
  assert.equal(methodAt(machineTest('import Pinger from "./default";', "Pinger"), "ping", read), "/w/default.ts:2:3-7");
  // A package's class, a name the module does not declare, or no reader: nothing to point at.
  assert.equal(
    methodAt(machineTest('import { LedgerMachine } from "ledger-lib";', "LedgerMachine"), "totalsMatch", read),
    undefined,
  );
  assert.equal(methodAt(machineTest('import { Other } from "./ledger";', "Other"), "totalsMatch", read), undefined);
  assert.equal(
    methodAt(machineTest('import { LedgerMachine } from "./ledger";', "LedgerMachine"), "totalsMatch"),
    undefined,
  );
  assert.ok(!asked.includes("ledger-lib"), "packages are never read");
});

test("the module reader resolves relative specifiers the simple way, inside the workspace only, open editors first", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "shrinkscope-modules-"));
  try {
    fs.mkdirSync(path.join(root, "test", "models"), { recursive: true });
    fs.writeFileSync(path.join(root, "test", "ledger.ts"), "class FromDisk {}");
    fs.writeFileSync(path.join(root, "test", "models", "index.ts"), "class Index {}");
    fs.writeFileSync(path.join(root, "outside.ts"), "class Outside {}");
    const testFile = path.join(root, "test", "ledger.test.ts");
    const open = new Map<string, string>();
    const read = moduleReader(testFile, path.join(root, "test"), (file) => open.get(file));
    assert.equal(read("./ledger.js")?.source, "class FromDisk {}", "./ledger.js names ledger.ts before compilation");
    assert.equal(read("./ledger")?.fileName, path.join(root, "test", "ledger.ts"));
    assert.equal(read("./models")?.source, "class Index {}");
    assert.equal(read("../outside"), undefined, "outside the workspace folder");
    assert.equal(read("ledger"), undefined, "a package");
    assert.equal(read("./missing"), undefined);
    open.set(path.join(root, "test", "ledger.ts"), "class Unsaved {}");
    assert.equal(read("./ledger")?.source, "class Unsaved {}", "an open editor's text wins over the disk");
    assert.deepEqual(moduleCandidates("/w/a.js").slice(0, 3), ["/w/a.js", "/w/a.ts", "/w/a.tsx"]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

const STEPS: Presentation = {
  kind: "steps",
  className: "LedgerMachine",
  steps: [
    {
      kind: "rule",
      name: "open",
      args: '{ name: "a" }',
      target: "accounts_0",
      code: 'const accounts_0 = state.open({ name: "a" });',
    },
    { kind: "invariant", name: "totalsMatch", args: "", code: "state.totalsMatch();" },
  ],
  failedIn: { kind: "invariant", name: "totalsMatch" },
  explanation: "Explanation: assertion failed in invariant totalsMatch",
  state: 'balances [["a",101]]',
};

function failure(presentation: Presentation, repro: string): FailureReport {
  return {
    message: "…",
    repro,
    presentation,
    seed: 7,
    error: { name: "AssertionError", message: "101 !== 100" },
    location: undefined,
    flaky: false,
  };
}

test("a machine's diagnostic names the minimal steps, the Explanation line, the state and the error; a property's is unchanged", () => {
  const repro =
    'const state = new LedgerMachine();\nconst accounts_0 = state.open({ name: "a" });\nstate.totalsMatch();';
  assert.equal(
    failureSummary(failure(STEPS, repro)),
    lines(
      "Machine fails. Minimal steps:",
      "  const state = new LedgerMachine();",
      '  const accounts_0 = state.open({ name: "a" });',
      "  state.totalsMatch();",
      "Explanation: assertion failed in invariant totalsMatch",
      'State at the failing step: balances [["a",101]]',
      "AssertionError: 101 !== 100",
    ),
  );
  assert.equal(
    failureSummary(failure({ kind: "arguments", text: "[-1, -2]" }, "[-1, -2]")),
    "Property fails. Minimal example: [-1, -2]\nAssertionError: 101 !== 100",
  );
  const method = failingMethodSummary({
    file: "/w/ledger.test.ts",
    testPath: ["ledger", "keeps its total"],
    failure: failure(STEPS, repro),
  });
  assert.equal(
    method,
    'Explanation: assertion failed in invariant totalsMatch (machine test "ledger › keeps its total")\nAssertionError: 101 !== 100',
  );
});

test("the Test Explorer message shows a machine's steps in a code block no backtick in them can close", () => {
  const md = failureMarkdown(failure(STEPS, 'const state = new M();\nstate.say({ s: "```" });'));
  assert.match(
    md,
    /^\*\*Minimal failing steps:\*\*\n\n````ts\nconst state = new M\(\);\nstate\.say\(\{ s: "```" \}\);\n````\n\nExplanation: assertion failed in invariant totalsMatch/,
  );
  assert.match(md, /seed 7$/);
});

test("every setting package.json declares is read for a run; stepCount reaches the run's settings (it was declared and read by nothing)", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as {
    contributes: { configuration: { properties: Record<string, { default: unknown }> } };
  };
  const declared = pkg.contributes.configuration.properties;
  const read = new Set<string>();
  const defaults: SettingReader = (key, fallback) => {
    read.add(key);
    const d = declared[`shrinkscope.${key}`];
    assert.ok(d, `reads shrinkscope.${key}, which package.json does not declare`);
    assert.deepEqual(d.default, fallback, `shrinkscope.${key}: the fallback is package.json's default`);
    return fallback;
  };
  const root = path.join(os.tmpdir(), "workspace");
  const config = runConfigFrom(defaults, root);
  assert.deepEqual(
    [...read].sort(),
    Object.keys(declared)
      .map((k) => k.replace(/^shrinkscope\./, ""))
      .sort(),
  );
  assert.equal(config.settings.stepCount, 50);
  const user: SettingReader = <T>(key: string, fallback: T): T => (key === "stepCount" ? (7 as T) : fallback);
  assert.equal(runConfigFrom(user, root).settings.stepCount, 7);
  assert.match(
    JSON.stringify(declared["shrinkscope.stepCount"]),
    /a machine's own setting wins/,
    "the description says which setting wins",
  );
  assert.match(JSON.stringify(declared["shrinkscope.maxExamples"]), /a property's own setting wins/);
  assert.equal(config.runner, "auto");
  assert.equal(
    runConfigFrom((key, fallback) => (key === "runner" ? ("pytest" as never) : fallback), root).runner,
    "auto",
    "an unknown runner is auto",
  );
});
