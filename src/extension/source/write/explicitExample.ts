/**
 * "Add as explicit example": pin a failure's arguments in the property's settings (`examples: [[…]]`) so they
 * run first on every run. The settings object is added to in its own layout (one line, or one entry a line, and
 * after a spread so the base's own `examples` cannot override it); settings passed as a name become
 * `{ ...opts, examples: … }`, leaving the shared object alone.
 */
import type { Presentation } from "../../../shared/protocol.ts";
import type { PropertyCallee, SourceText } from "../read/index.ts";
import { propertyCall } from "../read/index.ts";
import type { TextInsertion } from "./generated.ts";
import { eolOf, isTypeScript, callOptions, UNPRINTABLE } from "./generated.ts";

/**
 * Pin the arguments as an explicit example of the property: add `examples: [[…]]` to its settings object
 * (creating the object if there is none), so they run first on every run. Settings passed as a name become
 * `{ ...opts, examples: … }` (the shared object is left alone); when the file does not show enough to do
 * that safely, nothing is offered.
 */
export function explicitExample(
  source: string,
  propertyOffset: number,
  presentation: Presentation,
  fileName?: string,
  callee?: PropertyCallee,
): TextInsertion | undefined {
  // A machine's case is a sequence of steps, not an argument list: there is nothing to pin.
  if (presentation.kind !== "arguments" || UNPRINTABLE.test(presentation.text)) return undefined;
  const repro = presentation.text;
  const call = propertyCall(source, propertyOffset, callOptions(fileName, callee));
  if (call === undefined) return undefined;
  const t = call.t;
  const example = `[${repro}]`;
  const settings = call.settings;
  if (settings === undefined) {
    const [, last] = call.args[call.bodyIndex]!;
    return { offset: t.tokens[last]!.end, text: `, { examples: [${example}] }` };
  }
  if (settings.kind === "object") return addToObject(t, settings.open, settings.close, example);
  if (settings.kind === "other" || settings.name === undefined) return undefined;
  const name = settings.name;
  const [first, last] = settings.range;
  const start = t.tokens[first]!.start;
  const length = t.tokens[last]!.end - start;
  const d = settings.declared;
  let existing: string;
  if (d.kind === "settings" && d.object !== undefined)
    existing = objectKey(t, d.object[0], d.object[1], "examples") === undefined ? "" : `, ...${name}.examples`;
  else if (d.kind === "settings" || !isTypeScript(fileName)) existing = `, ...(${name}.examples ?? [])`;
  else return undefined; // its type is not in the file: `name.examples` might not compile
  return { offset: start, length, text: `{ ...${name}, examples: [${example}${existing}] }` };
}

/** The top-level property `key` of the object literal `open..close`: the key token and its value's range. */
function objectKey(
  t: SourceText,
  open: number,
  close: number,
  key: string,
): { key: number; value: readonly [number, number] | undefined } | undefined {
  for (const [first, last] of t.splitArguments(open, close)) {
    const name = t.ident(first) ?? t.string(first);
    if (name !== key) continue;
    if (first === last) return { key: first, value: undefined }; // shorthand `{ examples }`
    if (t.is(first + 1, ":") && first + 2 <= last) return { key: first, value: [first + 2, last] };
  }
  return undefined;
}

function addToObject(t: SourceText, open: number, close: number, example: string): TextInsertion {
  const src = t.src;
  const found = objectKey(t, open, close, "examples");
  if (found !== undefined) {
    if (found.value === undefined) {
      const tok = t.tokens[found.key]!;
      return { offset: tok.start, length: tok.end - tok.start, text: `examples: [${example}, ...examples]` };
    }
    const [vf, vl] = found.value;
    if (t.is(vf, "[") && t.close[vf] === vl) {
      const after = t.tokens[vf]!.end;
      return { offset: after, text: t.is(vf + 1, "]") ? example : `${example}, ` };
    }
    const start = t.tokens[vf]!.start;
    return { offset: start, length: t.tokens[vl]!.end - start, text: `[${example}, ...${t.text(vf, vl)}]` };
  }
  const entry = `examples: [${example}]`;
  if (close === open + 1)
    return {
      offset: t.tokens[open]!.start,
      length: t.tokens[close]!.end - t.tokens[open]!.start,
      text: `{ ${entry} }`,
    };
  const multiLine = /[\n\r]/.test(src.slice(t.tokens[open]!.end, t.tokens[open + 1]!.start));
  const eol = eolOf(src);
  const entries = t.splitArguments(open, close);
  // After a spread (`{ ...base }`) a key placed first would be overridden by the base's own `examples`.
  const spread = entries.some(([first]) => t.is(first, "..."));
  if (!spread) {
    if (!multiLine) return { offset: t.tokens[open]!.end, text: ` ${entry},` };
    const next = t.tokens[open + 1]!.start;
    const indent = /[ \t]*$/.exec(src.slice(0, next))![0];
    return { offset: t.tokens[open]!.end, text: `${eol}${indent}${entry},` };
  }
  const lastTok = close - 1;
  const trailingComma = t.is(lastTok, ",");
  if (!multiLine) return { offset: t.tokens[lastTok]!.end, text: trailingComma ? ` ${entry},` : `, ${entry}` };
  const firstEntry = t.tokens[open + 1]!.start;
  const indent = /[ \t]*$/.exec(src.slice(0, firstEntry))![0];
  return {
    offset: t.tokens[lastTok]!.end,
    text: trailingComma ? `${eol}${indent}${entry},` : `,${eol}${indent}${entry}`,
  };
}
