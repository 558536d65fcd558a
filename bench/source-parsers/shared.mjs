// What the two parser-based discoveries of bench/source-parsers.mjs share with each other and with
// src/extension/discovery.ts: which calls are tests and suites, which are ours, and how a discovered test is
// written as a line of a corpus .expected file's "## discovery" section. Each parser's file walks its own tree
// and asks these, so the comparison measures the parsers, not two readings of the rules.

/** Test and suite functions across node:test, vitest, jest and mocha (as discovery.ts's ROLES). */
export const ROLES = new Map([
  ...["test", "it", "specify", "fit", "xit", "xtest", "xspecify"].map((n) => [n, "test"]),
  ...["describe", "suite", "context", "fdescribe", "xdescribe", "xcontext"].map((n) => [n, "suite"]),
]);
/** `test.<modifier>` chains that still make a test; the parameterised ones take their own arguments first. */
export const MODIFIERS = new Set([
  "only",
  "skip",
  "todo",
  "concurrent",
  "sequential",
  "fails",
  "failing",
  "shuffle",
  "each",
  "for",
  "skipIf",
  "runIf",
]);
export const PARAMETERISED = new Set(["each", "for", "skipIf", "runIf"]);
/** Our calls that make a test a property test. */
export const PROPERTY_CALLEES = new Set(["property", "check", "find", "machine"]);

/** Our package, or a relative path (as source/read/imports.ts's isOurModule). */
export function isOurModule(specifier) {
  return (
    specifier === "shrinkscope" ||
    specifier.startsWith("shrinkscope/") ||
    specifier.startsWith(".") ||
    specifier.startsWith("/")
  );
}

/**
 * What the file's imports make of a name: `{ kind: "ours", callee }`, `{ kind: "namespace" }` (ours), or
 * `{ kind: "other" }`; a name not imported is ours when it is one of our callees (a global).
 */
export function importsTable(bindings) {
  const table = new Map();
  for (const { local, imported, specifier } of bindings) {
    if (!isOurModule(specifier)) table.set(local, { kind: "other" });
    else if (imported === "*" || imported === "default") table.set(local, { kind: "namespace" });
    else table.set(local, PROPERTY_CALLEES.has(imported) ? { kind: "ours", callee: imported } : { kind: "other" });
  }
  return table;
}

/** The callee a bare name calls, or one a namespace member calls: undefined when not ours. */
export function ourCallee(table, name, member) {
  const entry = table.get(name);
  if (member === undefined)
    return entry === undefined
      ? PROPERTY_CALLEES.has(name)
        ? name
        : undefined
      : entry.kind === "ours"
        ? entry.callee
        : undefined;
  return entry?.kind === "namespace" && PROPERTY_CALLEES.has(member) ? member : undefined;
}

/** Line and character as VS Code counts them. */
export function position(source, offset) {
  const before = source.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length - 1, character: before[before.length - 1].length };
}

const at = (source, offset) => {
  const p = position(source, offset);
  return `${p.line + 1}:${p.character + 1}`;
};

/** A discovered test as the corpus .expected files write it (test/extension/source-shapes-corpus.test.ts). */
export function expectedLine(source, t) {
  const call = t.propertyCall ? ` | ${t.propertyCall.callee} at ${at(source, t.propertyCall.offset)}` : "";
  return `${t.isProperty ? "P" : "-"} ${t.path.join(" > ")} | ${t.kind} | ${t.range.start}..${t.range.end} (${at(source, t.range.start)}) | insert after ${at(source, t.insertAfter.offset)}${call}`;
}

/** The JS string escapes discovery decodes in a name (as source/read/tokens.ts's decodeEscapes). */
export function decodeEscapes(raw) {
  if (!raw.includes("\\")) return raw;
  const simple = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", v: "\v", 0: "\0" };
  return raw.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S]?)/g, (_, e) => {
    if (e.length > 1 && (e[0] === "u" || e[0] === "x"))
      return String.fromCodePoint(parseInt(e[1] === "{" ? e.slice(2, -1) : e.slice(1), 16));
    if (e === "\r\n" || e === "\n" || e === "\r" || e === "\u2028" || e === "\u2029") return "";
    return simple[e] ?? e;
  });
}
