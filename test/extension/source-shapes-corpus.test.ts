// Real-world test-file shapes (test/extension/fixtures/corpus): node:test, vitest, jest and mocha styles,
// modifiers, template and unicode names, comments and strings holding `test(`/`property(`, regex literals with
// brackets and slashes, JSX, generics, decorators, private fields, CRLF, tabs, a very long line, a file being
// edited, aliased and namespace imports, properties bound outside the test, settings variables, async bodies,
// state machines (renamed, namespaced, bound, in check(), with settings, their class imported or out of scope),
// schedule exploration (a simTest body inline, named, bound, renamed, with settings; explore in a body; either alone).
//
// Each corpus file `X.txt` is pinned by `X.expected`: what discovery finds (paths, kinds, offsets, positions),
// what "Convert counterexample to test" writes for each property (with the presentation from repros.json: a
// property's arguments as a string, or a machine's steps), and what
// "Add as explicit example" changes. Independently of those pins, every offset must point at its callee, every
// position must match VS Code's line counting, and every edit must leave a file that parses (TypeScript's own
// parser) whenever the file parsed before. `SHRINKSCOPE_UPDATE_CORPUS=1` rewrites the .expected files: review
// the diff before committing it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { discoverTests } from "../../src/extension/discovery.ts";
import type { DiscoveredTest } from "../../src/extension/discovery.ts";
import type { Replay, TextInsertion } from "../../src/extension/source/write/index.ts";
import { explicitExample, regressionTest } from "../../src/extension/source/write/index.ts";
import type { Presentation } from "../../src/shared/protocol.ts";

const CORPUS = path.join(__dirname, "fixtures", "corpus");
const FILES = fs
  .readdirSync(CORPUS)
  .filter((f) => f.endsWith(".txt"))
  .sort();
/**
 * Per file and test: the failure's presentation, a property's arguments as a string or a machine's steps; a
 * schedule failure's presentation also carries the seed and schedule of its `schedule`.
 */
const REPROS = JSON.parse(fs.readFileSync(path.join(CORPUS, "repros.json"), "utf8")) as Record<
  string,
  Record<string, string | (Presentation & { schedule?: Replay })>
>;
const UPDATE = process.env.SHRINKSCOPE_UPDATE_CORPUS === "1";

/** The file name the extension would see (`a.test.ts.txt` → `a.test.ts`). */
const realName = (file: string): string => file.replace(/\.txt$/, "");

/** The edit and the others it makes (an import), last first so that offsets hold. */
function apply(source: string, ins: TextInsertion): string {
  return [ins, ...(ins.also ?? [])]
    .sort((a, b) => b.offset - a.offset)
    .reduce((text, e) => text.slice(0, e.offset) + e.text + text.slice(e.offset + (e.length ?? 0)), source);
}

/** TypeScript's syntax errors for a file (its parser, as the editor would report them). */
function syntaxErrors(text: string, fileName: string): string[] {
  const out = ts.transpileModule(text, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: {
      target: ts.ScriptTarget.ESNext,
      module: ts.ModuleKind.ESNext,
      jsx: ts.JsxEmit.Preserve,
      experimentalDecorators: true,
      allowJs: true,
    },
  });
  return (out.diagnostics ?? []).map((d) => {
    const where = d.start === undefined ? "" : `@${d.start} `;
    return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
  });
}

/** Line/character as VS Code counts them (`\r\n`, `\n` and `\r` each end a line), computed independently of discovery. */
function vscodePosition(source: string, offset: number): { line: number; character: number } {
  const before = source.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

const at = (source: string, offset: number): string => {
  const p = vscodePosition(source, offset);
  return `${p.line + 1}:${p.character + 1}`;
};

function describeEdit(source: string, ins: TextInsertion | undefined): string {
  if (ins === undefined) return "(nothing offered)";
  const replaced = source.slice(ins.offset, ins.offset + (ins.length ?? 0));
  return `${ins.length ? `replace ${JSON.stringify(replaced)} at ${at(source, ins.offset)} with` : `insert at ${at(source, ins.offset)}:`} ${JSON.stringify(ins.text)}`;
}

interface Report {
  readonly text: string;
  readonly tests: readonly DiscoveredTest[];
  readonly edits: ReadonlyArray<{ readonly what: string; readonly ins: TextInsertion }>;
}

/** Everything pinned for one corpus file, as the readable text stored in its .expected file. */
function report(file: string): Report {
  const source = fs.readFileSync(path.join(CORPUS, file), "utf8");
  const fileName = realName(file);
  const tests = discoverTests(source, { fileName });
  const repros = REPROS[file] ?? {};
  const out: string[] = ["## discovery"];
  for (const t of tests) {
    const call = t.propertyCall ? ` | ${t.propertyCall.callee} at ${at(source, t.propertyCall.offset)}` : "";
    out.push(
      `${t.isProperty ? "P" : "-"} ${t.path.join(" > ")} | ${t.kind} | ${t.range.start}..${t.range.end} (${at(source, t.range.start)}) | insert after ${at(source, t.insertAfter.offset)}${call}`,
    );
  }
  const edits: Array<{ what: string; ins: TextInsertion }> = [];
  for (const t of tests) {
    if (!t.propertyCall) continue;
    const key = t.path.join(" > ");
    const given = repros[key] ?? "0";
    const presentation: Presentation = typeof given === "string" ? { kind: "arguments", text: given } : given;
    const schedule = typeof given === "string" ? undefined : given.schedule;
    const shown =
      (presentation.kind === "arguments"
        ? `repro: ${presentation.text}`
        : `steps: ${presentation.steps.map((s) => s.code).join(" ")}`) +
      (schedule ? `; seed ${schedule.seed}, schedule [${schedule.schedule.join(", ")}]` : "");
    const testLineStart = source.lastIndexOf("\n", t.range.start - 1) + 1;
    const ins = regressionTest({
      source,
      fileName,
      propertyOffset: t.propertyCall.offset,
      callee: t.propertyCall.callee,
      kind: t.kind,
      name: t.path[t.path.length - 1]!,
      testLineStart,
      insertAt: t.insertAfter.offset,
      presentation,
      ...(schedule ? { schedule } : {}),
    });
    out.push(
      "",
      `## convert: ${key} (${shown})`,
      ins === undefined ? "(nothing offered)" : ins.text.replace(/^(\r?\n)+/, "").replace(/\r/g, "␍"),
    );
    for (const also of ins?.also ?? []) out.push(`## and: ${describeEdit(source, also)}`);
    if (ins) edits.push({ what: `convert ${key}`, ins });
    const pin = explicitExample(source, t.propertyCall.offset, presentation, fileName, t.propertyCall.callee);
    out.push(`## explicit example: ${describeEdit(source, pin)}`);
    if (pin) edits.push({ what: `explicit example ${key}`, ins: pin });
  }
  return { text: out.join("\n") + "\n", tests, edits };
}

describe("corpus of real-world test-file shapes", () => {
  test("the corpus has at least 25 files, each with its pins", () => {
    assert.ok(FILES.length >= 25, `${FILES.length} files`);
    for (const f of FILES)
      assert.ok(UPDATE || fs.existsSync(path.join(CORPUS, realName(f) + ".expected")), `${f} has no .expected file`);
    for (const f of Object.keys(REPROS)) assert.ok(FILES.includes(f), `repros.json names a missing file ${f}`);
  });

  for (const file of FILES) {
    test(file, () => {
      const source = fs.readFileSync(path.join(CORPUS, file), "utf8");
      const fileName = realName(file);
      const r = report(file);
      const expectedFile = path.join(CORPUS, fileName + ".expected");
      if (UPDATE) fs.writeFileSync(expectedFile, r.text);
      assert.equal(
        r.text,
        fs.readFileSync(expectedFile, "utf8"),
        `${file}: output differs from ${path.basename(expectedFile)}`,
      );

      // Offsets point at what they name, and positions are VS Code's (CRLF, regex literals before: nothing shifts).
      for (const t of r.tests) {
        const callee = t.kind;
        assert.ok(
          source.startsWith(callee, t.range.start),
          `${t.path.join(" > ")}: range starts at ${JSON.stringify(source.slice(t.range.start, t.range.start + 12))}`,
        );
        assert.deepEqual(
          [t.range.startLine, t.range.startCharacter],
          Object.values(vscodePosition(source, t.range.start)),
        );
        assert.deepEqual([t.range.endLine, t.range.endCharacter], Object.values(vscodePosition(source, t.range.end)));
        assert.deepEqual(
          [t.insertAfter.line, t.insertAfter.character],
          Object.values(vscodePosition(source, t.insertAfter.offset)),
        );
        if (t.propertyCall) {
          assert.match(
            source.slice(t.propertyCall.offset),
            /^[\w$]+(\.[\w$]+)?\s*\(/,
            `${t.path.join(" > ")}: propertyCall does not point at a call`,
          );
          assert.deepEqual(
            [t.propertyCall.line, t.propertyCall.character],
            Object.values(vscodePosition(source, t.propertyCall.offset)),
          );
        }
      }

      // Every edit leaves a file that parses whenever the file parsed before; in a file being edited, the
      // regression test on its own parses.
      const before = syntaxErrors(source, fileName);
      for (const { what, ins } of r.edits) {
        if (before.length === 0) assert.deepEqual(syntaxErrors(apply(source, ins), fileName), [], `${file}: ${what}`);
        else if (what.startsWith("convert")) assert.deepEqual(syntaxErrors(ins.text, fileName), [], `${file}: ${what}`);
      }
    });
  }
});

describe("discovery speed on a large file", () => {
  test("a 5,000-line file: median of 9 runs after warm-up (reported, not asserted: timings on a shared machine are noise)", (t) => {
    const parts = [
      'import { describe, it, test } from "vitest";',
      'import { property, check, st } from "shrinkscope";',
    ];
    const corpus = FILES.map((f) => fs.readFileSync(path.join(CORPUS, f), "utf8")).filter(
      (s) => !s.includes("unterminated"),
    );
    for (let i = 0; parts.join("\n").split("\n").length < 5000; i++)
      parts.push(`describe("copy ${i}", () => {`, corpus[i % corpus.length]!.replace(/^import .*$/gm, ""), "});");
    const src = parts.join("\n");
    const lines = src.split("\n").length;
    for (let i = 0; i < 5; i++) discoverTests(src, { fileName: "big.test.tsx" });
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const t0 = performance.now();
      discoverTests(src, { fileName: "big.test.tsx" });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    t.diagnostic(
      `${lines} lines, ${src.length} chars, ${discoverTests(src, { fileName: "big.test.tsx" }).length} tests: median ${times[4]!.toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times[8]!.toFixed(1)})`,
    );
  });
});
