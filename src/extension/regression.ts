/**
 * The text of a regression test for a minimal counterexample: pure string work, no vscode, unit-tested.
 *
 * It reads the failure's presentation: a property's minimal arguments, or a machine's minimal steps. Either way
 * the test goes right after the enclosing test, indented like it, with the file's line endings, uses the
 * enclosing test's call (`test`/`it`, never a skipped `xit` or focused `fit`), and throws the original error (the
 * user's assertion, not a wrapper) until the bug is fixed.
 *
 * Arguments: the test runs the property's own body on them, and reads like a test a person would write:
 *   - an inline body with a block and plain parameters is inlined: each parameter becomes a declaration
 *     (`const xs: number[] = [0, 1];`, type annotations kept) followed by the body's own statements; an
 *     expression body becomes a statement;
 *   - where inlining would change what the code means (a `return` of a value, `this`/`arguments` in a
 *     `function`, a parameter redeclared by `var`, a default that would apply, type parameters the
 *     annotations name, a shared-references argument list) the body is called in place instead,
 *     `((xs) => { … })([0, 1])`;
 *   - a named body (`property(st.integers(), checkSorted)`) is called by name, `checkSorted(10)`, and awaited
 *     unless the file shows it is a plain synchronous function.
 * Async bodies make the test function `async`.
 *
 * Schedules: when the body is `simTest(options, workload)` and the failure carries its schedule, the test replays
 * both halves — the minimal arguments, and the failing seed's shrunk schedule —
 * `const report = await explore(() => replicate(2, ["a"], 0), { seeds: [4], schedule: [0, 2] });` then
 * `if (report !== null) assert.fail(report.render());`. An inline workload is inlined as above (its parameters
 * declared before the call, the function itself without them as the workload); a named one is called by name.
 * `explore` is added to the file's shrinkscope import when it is not there (scheduleSource.ts). Without a
 * schedule, or an import to add it to, the simTest itself is called on the arguments (it explores its seeds again).
 *
 * Steps: the machine's mechanical translation (Hypothesis's): `const state = new LedgerMachine();`, then each step
 * as a call on it — `const accounts_0 = state.open({ name: "a" });` — ending with the failing invariant's call, so
 * the test fails with that invariant's assertion. The statements are rebuilt from each step's parts, never pasted:
 * a method name that is not an identifier is quoted (`state["my-rule"]()`), bundle variables must be identifiers
 * defined by earlier steps, and the arguments must be one object literal as the engine prints them. A step is
 * awaited unless the class (in this file, or one a relative import names, read through `readModule`) shows its
 * method is synchronous. The class is constructed by the name the machine call uses, so it must be declared
 * where the new test goes (not inside the enclosing test); otherwise, and for anything not printable, nothing is
 * offered rather than a test that cannot reproduce the failure.
 */
import type { Presentation, StepInfo } from "../shared/protocol.ts";
import type { Replay } from "./scheduleSource.ts";
import { exploreReference, noFailure, replayOptions } from "./scheduleSource.ts";
import type { FunctionShape, MachineClass, ModuleReader, Param, PlainBody, PropertyBody, PropertyCall, PropertyCallee, ScanOptions, SourceText } from "./source/read/index.ts";
import { machineCall, machineClass, propertyCall, readSnippet } from "./source/read/index.ts";

export interface RegressionInput {
  /** The whole file. */
  readonly source: string;
  /** The file's name: picks TypeScript or JavaScript output and the JSX default. Without one, TypeScript. */
  readonly fileName?: string;
  /** Offset of the `property(`/`check(`/`machine(` call's callee in the file, and which of them it is. */
  readonly propertyOffset: number;
  readonly callee?: PropertyCallee;
  /** The test call's kind (`test`, `it`, …) and its own name. */
  readonly kind: string;
  readonly name: string;
  /** Offset of the start of the test statement's line and of where to insert (just after the statement). */
  readonly testLineStart: number;
  readonly insertAt: number;
  /** The failure's presentation, from the run: the minimal arguments printed as TypeScript, or the minimal steps. */
  readonly presentation: Presentation;
  /** Reads a module the file imports, to find a machine's class declared there (see source/read/machineCall.ts). */
  readonly readModule?: ModuleReader;
  /** A schedule failure's seed and shrunk schedule (the FailureReport's `schedule`), for a simTest body. */
  readonly schedule?: Replay;
}

/** Replace `length` characters at `offset` (none: a plain insertion) with `text`. */
export interface TextInsertion {
  readonly offset: number;
  readonly text: string;
  readonly length?: number;
  /** Other edits the same fix makes elsewhere in the file (an import), none overlapping this one. */
  readonly also?: readonly TextInsertion[];
}

/** JS string literal for a test name (any string round-trips). */
export function quote(s: string): string {
  return JSON.stringify(s).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

function isTypeScript(fileName: string | undefined): boolean {
  return fileName === undefined || /\.[mc]?tsx?$/i.test(fileName);
}

function scanOptions(fileName: string | undefined): ScanOptions {
  return fileName === undefined ? {} : { fileName };
}

/** `xit`/`fit` and friends would skip or focus the new test: it uses the plain call. */
const PLAIN_KIND: Record<string, string> = { xit: "it", fit: "it", xtest: "test", xspecify: "specify" };

/** One output line; `verbatim` lines are inside a multi-line string or template and keep their exact text. */
interface Line {
  readonly text: string;
  readonly verbatim: boolean;
}

export function regressionTest(input: RegressionInput): TextInsertion | undefined {
  const p = input.presentation;
  const generated = p.kind === "steps" ? stepsBody(input, p) : argumentsBody(input, p.text);
  if (generated === undefined) return undefined;
  const indent = /^[ \t]*/.exec(input.source.slice(input.testLineStart))?.[0] ?? "";
  const eol = input.source.includes("\r\n") ? "\r\n" : "\n";
  const inner = indent + (indent.includes("\t") ? "\t" : "  ");
  const kind = PLAIN_KIND[input.kind] ?? input.kind;
  const name = quote(`${input.name} (regression: minimal counterexample)`);
  const lines = [
    `${indent}${kind}(${name}, ${generated.async ? "async " : ""}() => {`,
    ...generated.lines.map((l) => (l.verbatim || l.text === "" ? l.text : inner + l.text)),
    `${indent}});`,
  ];
  return { offset: input.insertAt, text: eol + eol + lines.join(eol), ...(generated.also ? { also: generated.also } : {}) };
}

/** What the printer writes for a value it could not print: a test built on it would not reproduce the failure. */
const UNPRINTABLE = /\/\*\s*could not print\b/;

interface Generated {
  readonly lines: Line[];
  readonly async: boolean;
  readonly also?: readonly TextInsertion[];
}

function argumentsBody(input: RegressionInput, repro: string): Generated | undefined {
  if (UNPRINTABLE.test(repro)) return undefined;
  const call = propertyCall(input.source, input.propertyOffset, { ...scanOptions(input.fileName), ...(input.callee ? { callee: input.callee } : {}) });
  if (call === undefined) return undefined;
  const ts = isTypeScript(input.fileName);
  if (call.body.kind !== "simTest") return testBody(call, call.body, repro, ts);
  return (input.schedule !== undefined ? replayBody(input, call, call.body, input.schedule, repro, ts) : undefined) ?? calledInPlace(call.t, call.body.range[0], call.body.range[1], repro, true);
}

/** The regression test's statements, unindented, and whether the test function must be async. */
function testBody(call: PropertyCall, body: PlainBody, repro: string, ts: boolean): Generated | undefined {
  if (body.kind === "named") return { lines: [{ text: `${body.await ? "await " : ""}${body.text}(${repro});`, verbatim: false }], async: body.await };
  const inlined = inline(call.t, body.fn, repro, ts);
  if (inlined !== undefined) return inlined;
  // Called in place. Awaited when it is async or returns a value (which may be a promise the engine awaited).
  return calledInPlace(call.t, body.range[0], body.range[1], repro, body.fn.async || returnsValue(call.t, body.fn));
}

/** `(the expression at tokens first..last)(repro);`, awaited or not. */
function calledInPlace(t: SourceText, first: number, last: number, repro: string, awaited: boolean): Generated {
  return { lines: wrap(linesOf(t, t.tokens[first]!.start, t.tokens[last]!.end, false), `${awaited ? "await " : ""}(`, `)(${repro});`), async: awaited };
}

/** `lines` with `prefix` before the first and `suffix` after the last. */
function wrap(lines: readonly Line[], prefix: string, suffix: string): Line[] {
  const first = lines[0]!;
  const last = lines[lines.length - 1]!;
  if (lines.length === 1) return [{ text: prefix + first.text + suffix, verbatim: false }];
  return [{ text: prefix + first.text, verbatim: false }, ...lines.slice(1, -1), { text: last.text + suffix, verbatim: last.verbatim }];
}

// ─────────────────────────────────────────── schedules ───────────────────────────────────────────

/**
 * `const report = await explore(workload, { seeds: [seed], schedule: [...] });` and the assertion that it found
 * nothing, after the workload's parameters declared as the minimal arguments; undefined when the file does not
 * give what that needs (explore, or options that can be written).
 */
function replayBody(input: RegressionInput, call: PropertyCall, sim: Extract<PropertyBody, { kind: "simTest" }>, replay: Replay, repro: string, ts: boolean): Generated | undefined {
  const t = call.t;
  if (sim.workload === undefined) return undefined;
  const options = replayOptions(t, sim.options, replay);
  const explore = exploreReference(t, t.ident(sim.range[0]), input.insertAt);
  if (options === undefined || explore === undefined) return undefined;
  const unit = /^[ \t]*/.exec(input.source.slice(input.testLineStart))![0].includes("\t") ? "\t" : "  ";
  const { declarations, fn } = workloadOf(t, sim.workload, repro, ts, unit);
  const report = declarations.some((l) => /^(const|let) \{?[^=]*\breport\b/.test(l.text)) ? "seedReport" : "report";
  const lines = [...declarations, ...wrap(fn, `const ${report} = await ${explore.name}(`, `, ${options});`), { text: noFailure(t, report, input.insertAt), verbatim: false }];
  return { lines, async: true, ...(explore.also ? { also: [explore.also] } : {}) };
}

/** The workload as a function of no arguments: its parameters declared before it (inlined), called by name, or called in place. */
function workloadOf(t: SourceText, w: PlainBody, repro: string, ts: boolean, unit: string): { declarations: Line[]; fn: Line[] } {
  if (w.kind === "named") return { declarations: [], fn: [{ text: `() => ${w.text}(${repro})`, verbatim: false }] };
  const fn = w.fn;
  const declarations = parameterDeclarations(t, fn, repro, ts);
  if (declarations === undefined) return { declarations: [], fn: wrap(linesOf(t, t.tokens[w.range[0]]!.start, t.tokens[w.range[1]]!.end, false), "() => (", `)(${repro})`) };
  const head = `${fn.async ? "async " : ""}() => `;
  if (fn.body.kind === "expression") return { declarations, fn: wrap(linesOf(t, t.tokens[fn.body.first]!.start, t.tokens[fn.body.last]!.end, false), head, "") };
  const inside = linesOf(t, t.tokens[fn.body.open]!.end, t.tokens[fn.body.close]!.start, true).map((l) => (l.verbatim || l.text === "" ? l : { text: unit + l.text, verbatim: false }));
  return { declarations, fn: [{ text: `${head}{`, verbatim: false }, ...inside, { text: "}", verbatim: false }] };
}

// ─────────────────────────────────────────── inlining ───────────────────────────────────────────

/** The body inlined: declarations for the parameters, then its statements; undefined when that would change its meaning. */
function inline(t: SourceText, fn: FunctionShape, repro: string, ts: boolean): Generated | undefined {
  if (fn.body.kind === "block" && returnsValue(t, fn)) return undefined;
  const lines = parameterDeclarations(t, fn, repro, ts);
  if (lines === undefined) return undefined;

  let async = fn.async;
  if (fn.body.kind === "block") {
    const { open, close } = fn.body;
    lines.push(...linesOf(t, t.tokens[open]!.end, t.tokens[close]!.start, true));
  } else {
    const { first, last } = fn.body;
    // A statement starting with these words would be a declaration, not the expression.
    if (["function", "class", "let"].includes(t.ident(first) ?? "") || t.is(first, "{")) return undefined;
    const expression = t.text(first, last);
    // The engine awaits a returned promise (`expect(p).resolves…`): so must the test.
    const awaited = /\.(resolves|rejects)\b|\.then\s*\(|\bPromise\b/.test(expression) && !/^\s*await\b/.test(expression);
    if (awaited) async = true;
    const exprLines = linesOf(t, t.tokens[first]!.start, t.tokens[last]!.end, false);
    const prefix = awaited ? "await " : "";
    exprLines[0] = { text: prefix + exprLines[0]!.text, verbatim: false };
    const end = exprLines.length - 1;
    exprLines[end] = { text: exprLines[end]!.text + ";", verbatim: exprLines[end]!.verbatim };
    lines.push(...exprLines);
  }
  return { lines, async };
}

/** The parameters declared as the minimal arguments; undefined when that would change what the body means. */
function parameterDeclarations(t: SourceText, fn: FunctionShape, repro: string, ts: boolean): Line[] | undefined {
  if (fn.generator || fn.typeParameters || fn.params === undefined) return undefined;
  const args = reproArguments(repro);
  if (args === undefined) return undefined;
  const params = fn.params;
  const scope: readonly [number, number] = fn.body.kind === "block" ? [fn.body.open + 1, fn.body.close - 1] : [fn.body.first, fn.body.last];
  const names = params.flatMap((p) => boundNames(t, p));
  // `this` and `arguments` belong to a `function` body; in the test they would mean something else.
  if (!fn.arrow && anyToken(t, scope, (k) => t.ident(k) === "this" || t.ident(k) === "arguments")) return undefined;
  // `var x` / `function x` next to a parameter `x` is legal in a function, a redeclaration error after a `const x`.
  if (anyToken(t, scope, (k) => names.includes(t.ident(k) ?? "") && ["var", "function", "class"].includes(t.ident(k - 1) ?? "") && !t.isMemberAccess(k))) return undefined;
  const lines: Line[] = [];
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    let value: string;
    let literal: Literal | undefined;
    if (p.rest) {
      value = `[${args.slice(i).map((a) => a.text).join(", ")}]`;
    } else {
      const arg = args[i];
      // A missing or `undefined` argument would let a default apply: the call form states that exactly.
      if (arg === undefined || arg.text === "undefined") return undefined;
      value = arg.text;
      literal = arg.literal;
    }
    const declared = ts && p.type !== undefined ? `: ${t.text(p.type[0], p.type[1])}` : ts && literal !== undefined && p.name !== undefined ? `: ${literal}` : "";
    const keyword = boundNames(t, p).some((n) => reassigned(t, scope, n)) ? "let" : "const";
    lines.push({ text: `${keyword} ${t.text(p.pattern[0], p.pattern[1])}${declared} = ${value};`, verbatim: false });
  }
  return lines;
}

/** The widened type of a primitive literal argument: `const n = 10` alone would be typed `10`, and `n === 5` would not compile. */
type Literal = "number" | "string" | "boolean" | "bigint" | "never[]";

interface ReproArgument {
  readonly text: string;
  readonly literal: Literal | undefined;
}

/** The repro's arguments; undefined for the shared-references form (`...(() => { … })()`). */
function reproArguments(repro: string): ReproArgument[] | undefined {
  const r = readSnippet(repro);
  if (r.is(0, "...")) return undefined;
  return r.splitArguments(-1, r.n).map(([first, last]) => {
    const text = r.text(first, last);
    return { text, literal: literalType(r, first, last) };
  });
}

function literalType(r: SourceText, first: number, last: number): Literal | undefined {
  const k = r.is(first, "-") ? first + 1 : first;
  if (k !== last) return r.is(first, "[") && r.is(last, "]") && last === first + 1 ? "never[]" : undefined;
  const tok = r.tokens[k]!;
  if (tok.kind === "number") return /n$/.test(r.src.slice(tok.start, tok.end)) ? "bigint" : "number";
  if (k !== first) return undefined;
  if (tok.kind === "string" || (tok.kind === "template" && !tok.substitutions)) return "string";
  if (tok.text === "true" || tok.text === "false") return "boolean";
  return undefined;
}

/** The names a parameter binds (for a destructuring pattern, every name in it: a superset is only more careful). */
function boundNames(t: SourceText, p: Param): string[] {
  if (p.name !== undefined) return [p.name];
  const out: string[] = [];
  for (let k = p.pattern[0]; k <= p.pattern[1]; k++) {
    const name = t.ident(k);
    if (name !== undefined) out.push(name);
  }
  return out;
}

function anyToken(t: SourceText, [first, last]: readonly [number, number], test: (k: number) => boolean): boolean {
  for (let k = first; k <= last; k++) if (test(k)) return true;
  return false;
}

const ASSIGNMENT = /^(=(?!=)|\+=|-=|\*=|\/=|%=|\*\*=|<<=|>>=|>>>=|&=|\|=|\^=|&&=|\|\|=|\?\?=)/;

/** Whether the body assigns to `name` (`name = …`, `name += …`, `name++`): then it is declared with `let`. */
function reassigned(t: SourceText, scope: readonly [number, number], name: string): boolean {
  return anyToken(t, scope, (k) => {
    if (t.ident(k) !== name || t.isMemberAccess(k)) return false;
    if ((t.is(k - 1, "++") || t.is(k - 1, "--")) && t.touching(k - 1)) return true;
    if (t.is(k + 1, "++") || t.is(k + 1, "--")) return true;
    if (t.is(k - 1, "(") && t.ident(k - 2) === "for" && (t.ident(k + 1) === "of" || t.ident(k + 1) === "in")) return true;
    let op = "";
    for (let j = k + 1; j < t.n && op.length < 4 && t.tokens[j]!.kind === "punct" && (j === k + 1 || t.touching(j - 1)); j++) op += t.tokens[j]!.text;
    return ASSIGNMENT.test(op);
  });
}

/** Control statements whose `(…) {` is a block, not a function or method body. */
const CONTROL = new Set(["if", "for", "while", "switch", "catch", "with", "await"]);

/**
 * Whether a block body has a `return <value>` of its own (not in a nested function). Inlined, that value
 * would become the test callback's return, which runners treat differently (jest rejects one).
 */
function returnsValue(t: SourceText, fn: FunctionShape): boolean {
  if (fn.body.kind === "expression") return true;
  const { open, close } = fn.body;
  for (let k = open + 1; k < close; k++) {
    if (t.is(k, "{") && nestedFunctionBody(t, k)) {
      k = t.close[k]!;
      continue;
    }
    if (t.ident(k) !== "return" || t.isMemberAccess(k)) continue;
    const next = t.tokens[k + 1];
    const bare = next === undefined || t.is(k + 1, ";") || k + 1 === close || /[\n\r\u2028\u2029]/.test(t.src.slice(t.tokens[k]!.end, next.start));
    if (!bare) return true;
  }
  return false;
}

/** Whether the `{` at `k` opens a function's body: after `=>`, or after the `)` of a function's or method's parameters. */
function nestedFunctionBody(t: SourceText, k: number): boolean {
  if (t.is(k - 1, "=>")) return true;
  if (!t.is(k - 1, ")")) return false;
  // Find the `(` this `)` closes: walk back over the parameters by bracket matching.
  let depth = 0;
  for (let j = k - 1; j >= 0; j--) {
    if (t.is(j, ")") || t.is(j, "]") || t.is(j, "}")) depth++;
    else if (t.is(j, "(") || t.is(j, "[") || t.is(j, "{")) {
      if (--depth === 0) {
        const before = t.ident(j - 1);
        return before !== undefined && !CONTROL.has(before);
      }
    }
  }
  return false;
}

/**
 * The source between two offsets as lines, re-indented to start at column 0 (keeping their relative
 * indentation); lines that begin inside a multi-line template or string keep their exact text. Blank lines
 * at either end are dropped when `trim` is set (a block's inside).
 */
function linesOf(t: SourceText, from: number, to: number, trim: boolean): Line[] {
  const src = t.src;
  const out: Array<{ start: number; text: string; verbatim: boolean }> = [];
  let start = from;
  for (;;) {
    const m = /\r\n|\n|\r|\u2028|\u2029/g;
    m.lastIndex = start;
    const found = m.exec(src);
    const end = found === null || found.index >= to ? to : found.index;
    out.push({ start, text: src.slice(start, end), verbatim: start !== from && insideLiteral(t, start) });
    if (end >= to) break;
    start = end + found![0].length;
  }
  if (trim) {
    while (out.length > 0 && out[0]!.text.trim() === "" && !out[0]!.verbatim) out.shift();
    while (out.length > 0 && out[out.length - 1]!.text.trim() === "" && !out[out.length - 1]!.verbatim) out.pop();
  }
  if (out.length === 0) return [];
  // The first line may continue the `{` line (`(x) => { f(x);`): its own indentation does not count.
  const firstOnOwnLine = out[0]!.start !== from || isLineStart(src, from);
  const measured = out.filter((l, i) => !l.verbatim && l.text.trim() !== "" && (i > 0 || firstOnOwnLine));
  const common = measured.length === 0 ? 0 : Math.min(...measured.map((l) => /^[ \t]*/.exec(l.text)![0].length));
  return out.map((l, i) => {
    if (l.verbatim) return { text: l.text, verbatim: true };
    if (i === 0 && !firstOnOwnLine) return { text: l.text.trimStart().trimEnd(), verbatim: false };
    return { text: l.text.slice(Math.min(common, /^[ \t]*/.exec(l.text)![0].length)).trimEnd(), verbatim: false };
  });
}

function isLineStart(src: string, offset: number): boolean {
  return /^[ \t]*$/.test(src.slice(src.lastIndexOf("\n", offset - 1) + 1, offset));
}

/** Whether an offset is inside a template or string token (a multi-line literal). */
function insideLiteral(t: SourceText, offset: number): boolean {
  let lo = 0;
  let hi = t.n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.tokens[mid]!.start < offset) lo = mid;
    else hi = mid - 1;
  }
  const tok = t.tokens[lo];
  return tok !== undefined && tok.start < offset && offset < tok.end && (tok.kind === "template" || tok.kind === "string");
}

// ─────────────────────────────────────────── machine steps ───────────────────────────────────────────

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** How the engine names a bundle's values (`accounts_0`): a name of that shape no earlier step defined is not in scope. */
const BUNDLE_VARIABLE = /^[A-Za-z_$][\w$]*_\d+$/;

function stepsBody(input: RegressionInput, p: Extract<Presentation, { kind: "steps" }>): Generated | undefined {
  const m = machineCall(input.source, input.propertyOffset, { ...scanOptions(input.fileName), ...(input.callee ? { callee: input.callee } : {}) });
  if (m === undefined) return undefined;
  const root = m.names[0]!;
  const targets = p.steps.flatMap((s) => (s.target === undefined ? [] : [s.target]));
  // The test's own names would shadow the class; and it must be declared where the new test goes.
  if (root === "state" || targets.includes(root) || !m.t.visibleAt(root, input.insertAt)) return undefined;
  const cls = machineClass(m, input.readModule);
  const lines: Line[] = [{ text: `const state = new ${m.classRef}();`, verbatim: false }];
  const defined = new Set<string>();
  let async = false;
  for (const step of p.steps) {
    const statement = stepStatement(step, cls, defined);
    if (statement === undefined) return undefined;
    lines.push({ text: statement.text, verbatim: false });
    async ||= statement.awaited;
    if (step.target !== undefined) defined.add(step.target);
  }
  return { lines, async };
}

/** One step as a statement on `state`, or undefined when a part of it cannot be written safely. */
function stepStatement(step: StepInfo, cls: MachineClass | undefined, defined: ReadonlySet<string>): { text: string; awaited: boolean } | undefined {
  if (step.target !== undefined && (!IDENTIFIER.test(step.target) || step.target === "state" || defined.has(step.target))) return undefined;
  const called = step.kind === "rule" || step.kind === "initialize";
  if (step.args !== "" && (!called || !isArgumentObject(step.args, defined))) return undefined;
  const member = IDENTIFIER.test(step.name) ? `.${step.name}` : `[${quote(step.name)}]`;
  // Awaited unless the class shows a plain method: an async rule's value (or rejection) only exists once awaited.
  const awaited = cls?.shape.methods.get(step.name)?.async ?? true;
  const call = `${awaited ? "await " : ""}state${member}(${step.args});`;
  return { text: step.target === undefined ? call : `const ${step.target} = ${call}`, awaited };
}

/** The engine's printed argument object: one balanced `{ … }`, fully printed, using only bundle variables already defined. */
function isArgumentObject(args: string, defined: ReadonlySet<string>): boolean {
  if (UNPRINTABLE.test(args)) return false;
  const r = readSnippet(args);
  if (!r.is(0, "{") || !r.proper[0] || r.close[0] !== r.n - 1) return false;
  for (let k = 1; k < r.n - 1; k++) {
    const name = r.ident(k);
    if (name !== undefined && !r.isMemberAccess(k) && !r.is(k + 1, ":") && BUNDLE_VARIABLE.test(name) && !defined.has(name)) return false;
  }
  return true;
}

// ─────────────────────────────────────────── explicit examples ───────────────────────────────────────────

/**
 * Pin the arguments as an explicit example of the property: add `examples: [[…]]` to its settings object
 * (creating the object if there is none), so they run first on every run. Settings passed as a name become
 * `{ ...opts, examples: … }` (the shared object is left alone); when the file does not show enough to do
 * that safely, nothing is offered.
 */
export function explicitExample(source: string, propertyOffset: number, presentation: Presentation, fileName?: string, callee?: PropertyCallee): TextInsertion | undefined {
  // A machine's case is a sequence of steps, not an argument list: there is nothing to pin.
  if (presentation.kind !== "arguments" || UNPRINTABLE.test(presentation.text)) return undefined;
  const repro = presentation.text;
  const call = propertyCall(source, propertyOffset, { ...scanOptions(fileName), ...(callee ? { callee } : {}) });
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
  if (d.kind === "settings" && d.object !== undefined) existing = objectKey(t, d.object[0], d.object[1], "examples") === undefined ? "" : `, ...${name}.examples`;
  else if (d.kind === "settings" || !isTypeScript(fileName)) existing = `, ...(${name}.examples ?? [])`;
  else return undefined; // its type is not in the file: `name.examples` might not compile
  return { offset: start, length, text: `{ ...${name}, examples: [${example}${existing}] }` };
}

/** The top-level property `key` of the object literal `open..close`: the key token and its value's range. */
function objectKey(t: SourceText, open: number, close: number, key: string): { key: number; value: readonly [number, number] | undefined } | undefined {
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
  if (close === open + 1) return { offset: t.tokens[open]!.start, length: t.tokens[close]!.end - t.tokens[open]!.start, text: `{ ${entry} }` };
  const multiLine = /[\n\r]/.test(src.slice(t.tokens[open]!.end, t.tokens[open + 1]!.start));
  const eol = src.includes("\r\n") ? "\r\n" : "\n";
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
  return { offset: t.tokens[lastTok]!.end, text: trailingComma ? `${eol}${indent}${entry},` : `,${eol}${indent}${entry}` };
}
