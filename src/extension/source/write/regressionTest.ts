/**
 * The text of a regression test for a minimal counterexample: pure string work, no vscode, unit-tested.
 *
 * It reads the failure's presentation: a property's minimal arguments (argumentsTest.ts; those a schema made are
 * parsed again, schemaArguments.ts; a simTest body with its schedule, scheduleReplay.ts), or a machine's minimal
 * steps (stepsTest.ts). Either way the test goes right after the enclosing test, indented like it, with the file's
 * line endings, uses the enclosing test's call (`test`/`it`, never a skipped `xit` or focused `fit`), is named by
 * the engine's printer (so any name is a well-formed literal), and throws the original error (the user's
 * assertion, not a wrapper) until the bug is fixed.
 */
import { toLiteral } from "../../../engine/index.ts";
import { propertyCall } from "../read/index.ts";
import type { Generated, RegressionInput, TextInsertion } from "./generated.ts";
import { eolOf, indentAt, isTypeScript, callOptions, UNPRINTABLE } from "./generated.ts";
import { calledInPlace, resultChecked, testBody } from "./argumentsTest.ts";
import { replayBody } from "./scheduleReplay.ts";
import { reparsedRepro } from "./schemaArguments.ts";
import { stepsBody } from "./stepsTest.ts";

/** `xit`/`fit` and friends would skip or focus the new test: it uses the plain call. */
const PLAIN_KIND: Record<string, string> = { xit: "it", fit: "it", xtest: "test", xspecify: "specify" };

export function regressionTest(input: RegressionInput): TextInsertion | undefined {
  const p = input.presentation;
  const generated = p.kind === "steps" ? stepsBody(input, p) : argumentsBody(input, p.text, p.inputs);
  if (generated === undefined) return undefined;
  const indent = indentAt(input.source, input.testLineStart);
  const eol = eolOf(input.source);
  const inner = indent + (indent.includes("\t") ? "\t" : "  ");
  const kind = PLAIN_KIND[input.kind] ?? input.kind;
  const name = toLiteral(`${input.name} (regression: minimal counterexample)`);
  const lines = [
    `${indent}${kind}(${name}, ${generated.async ? "async " : ""}() => {`,
    ...generated.lines.map((l) => (l.verbatim || l.text === "" ? l.text : inner + l.text)),
    `${indent}});`,
  ];
  return {
    offset: input.insertAt,
    text: eol + eol + lines.join(eol),
    ...(generated.also ? { also: generated.also } : {}),
  };
}

/** From a property's arguments: its body run on them, or for a simTest body with its schedule, the schedule replayed. */
function argumentsBody(
  input: RegressionInput,
  repro: string,
  inputs: readonly (string | null)[] | undefined,
): Generated | undefined {
  if (UNPRINTABLE.test(repro)) return undefined;
  const call = propertyCall(input.source, input.propertyOffset, callOptions(input.fileName, input.callee));
  if (call === undefined) return undefined;
  const ts = isTypeScript(input.fileName);
  if (call.body.kind !== "simTest") {
    const args = reparsedRepro(call, repro, inputs, input.insertAt);
    return input.returnedFalse === true ? resultChecked(call, call.body, args) : testBody(call, call.body, args, ts);
  }
  return (
    (input.schedule !== undefined ? replayBody(input, call, call.body, input.schedule, repro, ts) : undefined) ??
    calledInPlace(call.t, call.body.range[0], call.body.range[1], repro, true)
  );
}
