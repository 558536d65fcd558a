/**
 * Printer: turns a counterexample back into TypeScript source.
 *
 * Users paste the printed failing input straight into a regression test, so `toLiteral(v)` has to be an
 * executable expression whose value is deep-equal to `v`, down to -0, NaN, sparse holes, lone surrogates and
 * `__proto__` keys. It is always a single line, and printed strings never contain a raw `*\/`, so the output
 * can also sit in a comment.
 *
 * Aliasing is part of the value: a shrunk bug can depend on two slots holding the same object, or on a
 * cycle. When any object is reachable more than once, the output becomes an IIFE that builds the object once,
 * names it, and reuses the name; cyclic objects are declared empty first and filled in afterwards.
 *
 * Best effort, because these cannot be rebuilt exactly:
 * - class instances (and other objects with an unknown prototype) print as a literal of their own enumerable
 *   properties followed by a `/* ClassName *\/` comment, because the class may not be in scope where the output
 *   is pasted; so the result is a plain object. Subclasses of Map, Array, Error and the like print as the base
 *   type with the same comment. These comments are the only way a `*\/` can get into the output;
 * - symbols are recreated with `Symbol(desc)`, so only registered (`Symbol.for`) and well-known symbols keep
 *   their identity;
 * - functions print as a stub that throws when called, except those st.functions made, which print as the
 *   lookup over the calls their test case made (print/printedAs.ts);
 * - errors keep their type (for the built-in error types), message and own enumerable properties, not their
 *   stack or cause;
 * - non-enumerable properties are dropped everywhere (own enumerable properties beyond the contents of arrays,
 *   Maps, Sets, typed arrays, boxed primitives and buffers are kept: `Object.assign([1, 2], { tag: "x" })`);
 * - objects from another realm are only recognised if they are arrays or typed arrays;
 * - a value that cannot be read at all (a revoked Proxy, a getter or Proxy trap that throws, an output too long
 *   for a string) prints as `/* could not print: why *\/ undefined`, in its place only: printing never throws.
 *
 * Both passes walk the value with an explicit stack, so any nesting depth prints; past every MAX_INLINE_DEPTH
 * levels the expression is named and continued in the next statement, so that the output also parses at any
 * depth (a parser nests on each bracket too).
 */
import { analyze, children, isRef, type Graph } from "./sharing.ts";
import { NULL_PROTOTYPE, type Shape } from "./shapes.ts";
import { propertyKey, primitive } from "./literals.ts";
import { errorText, unprintable } from "./unprintable.ts";

/** An executable TypeScript/JavaScript expression that evaluates to a value deep-equal to `value`. Never throws. */
export function toLiteral(value: unknown): string {
  try {
    const emitter = new Emitter(analyze([value]));
    return emitter.wrap(emitter.expr(value));
  } catch (e) {
    // Only what no single value could cause is left here, e.g. an output longer than a string can hold.
    return unprintable(errorText(e));
  }
}

/**
 * A comma-separated argument list, e.g. `1, "a", [2]`. When arguments share objects with each other, the list is
 * a single spread of an IIFE (`...(() => { …; return [r1, r1]; })()`) so that the sharing survives. TypeScript
 * accepts that spread only for rest parameters, since it cannot see the array's length. Never throws.
 */
export function formatArgs(args: readonly unknown[]): string {
  // Array.from turns holes into undefined: a call cannot contain an elision.
  const values = Array.from(args);
  try {
    const graph = analyze(values);
    if (!graph.crossesRoots) return values.map((value) => toLiteral(value)).join(", ");
    const emitter = new Emitter(graph);
    const exprs = values.map((value) => emitter.expr(value));
    return `...${emitter.wrap(`[${exprs.join(", ")}]`)}`;
  } catch {
    // Each argument on its own (their sharing is lost): one that cannot print does not take the others along.
    return values.map((value) => toLiteral(value)).join(", ");
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Emitting

/** Every this many levels of nesting, the expression so far is named, so no statement nests deeper. */
const MAX_INLINE_DEPTH = 200;

/** An object being emitted: its children's expressions so far, and what to do with them. */
interface Frame {
  readonly value: object;
  readonly shape: Shape;
  /** inline: an expression of the contents; fill: statements that fill the already declared shell `name`. */
  readonly mode: "inline" | "fill";
  /** inline mode: the object is shared, so the finished expression is declared under a name. */
  readonly declare: boolean;
  readonly name: string;
  readonly kids: readonly unknown[];
  readonly results: string[];
  /** fill mode, records: entries waiting for one Object.assign. */
  batch: string[];
}

class Emitter {
  private readonly statements: string[] = [];
  private readonly names = new Map<object, string>();
  private declared = 0;

  constructor(private readonly graph: Graph) {}

  /** `body` alone when nothing needed a name, else an IIFE that declares the names first. */
  wrap(body: string): string {
    if (this.statements.length === 0) return body;
    return `(() => { ${this.statements.join(" ")} return ${body}; })()`;
  }

  /** The expression for `value`: children first, with an explicit stack instead of recursion. */
  expr(value: unknown): string {
    const stack: Frame[] = [];
    const first = this.start(value, stack);
    if (first !== null) return first;
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame.results.length < frame.kids.length) {
        const code = this.start(frame.kids[frame.results.length], stack);
        if (code !== null) this.childDone(frame, code);
        continue;
      }
      stack.pop();
      let code: string;
      if (frame.mode === "fill") {
        this.finishFill(frame);
        code = frame.name;
      } else {
        code = this.inline(frame.shape, frame.results);
        if (frame.declare) code = this.declare(frame.value, code);
        else if (stack.length > 0 && stack.length % MAX_INLINE_DEPTH === 0) code = this.declare(null, code);
      }
      if (stack.length === 0) return code;
      this.childDone(stack[stack.length - 1], code);
    }
  }

  /** The expression at once when no children need building, else null with a frame pushed for them. */
  private start(value: unknown, stack: Frame[]): string | null {
    if (!isRef(value)) return primitive(value);
    const known = this.names.get(value);
    if (known !== undefined) return known;
    const shape = this.graph.shapes.get(value);
    if (shape === undefined) throw new Error("printer: object missed by the sharing analysis");
    const shared = (this.graph.refs.get(value) ?? 0) >= 2;
    if (shape.kind === "leaf") return shared ? this.declare(value, shape.code) : shape.code;
    if (shared && this.graph.cycleTargets.has(value)) {
      // Declare the empty shell before building the contents, which refer back to it.
      const name = this.declare(value, this.shell(shape));
      stack.push({ value, shape, mode: "fill", declare: false, name, kids: children(shape), results: [], batch: [] });
      return null;
    }
    // Contents first, so names are numbered in declaration order.
    stack.push({
      value,
      shape,
      mode: "inline",
      declare: shared,
      name: "",
      kids: children(shape),
      results: [],
      batch: [],
    });
    return null;
  }

  /** A name for `code` (registered for `value` when it is shared; null for a name that only breaks up nesting). */
  private declare(value: object | null, code: string): string {
    const name = `r${++this.declared}`;
    if (value !== null) this.names.set(value, name);
    this.statements.push(`const ${name} = ${code};`);
    return name;
  }

  private childDone(frame: Frame, code: string): void {
    frame.results.push(code);
    if (frame.mode === "fill") this.fillStep(frame, frame.results.length - 1);
  }

  /** The expression of an object from its children's expressions (in `children` order). */
  private inline(shape: Shape, codes: readonly string[]): string {
    if (shape.kind === "array" || shape.kind === "map" || shape.kind === "set") {
      const code = this.inlineContents(shape, codes);
      if (shape.extras.length === 0) return code + shape.note;
      const first = codes.length - shape.extras.length;
      return (
        assigned(
          code,
          shape.extras.map(([k], e) => [k, codes[first + e]] as const),
          false,
        ) + shape.note
      );
    }
    return this.inlineContents(shape, codes);
  }

  /** `inline` without a collection's extra properties and class note. */
  private inlineContents(shape: Shape, codes: readonly string[]): string {
    switch (shape.kind) {
      case "leaf":
        return shape.code;
      case "array": {
        const holes = shape.length - shape.items.length;
        if (holes > 8 && holes > shape.items.length) {
          // Mostly holes: listing them would print one comma per hole.
          const entries = shape.items.map(([i], j) => `${i}: ${codes[j]}`);
          return `Object.assign(new Array(${shape.length}), ${braces(entries)})`;
        }
        const slots: string[] = [];
        let next = 0;
        shape.items.forEach(([i], j) => {
          for (; next < i; next++) slots.push("");
          slots.push(codes[j]);
          next = i + 1;
        });
        for (; next < shape.length; next++) slots.push("");
        // A trailing elision needs its own comma: `[1, ,]` has length 2, `[1, ]` length 1.
        const trailingHole = slots.length > 0 && slots[slots.length - 1] === "";
        return `[${slots.join(", ")}${trailingHole ? "," : ""}]`;
      }
      case "record": {
        if (shape.base === null)
          return braces(shape.entries.map(([k], j) => `${propertyKey(k)}: ${codes[j]}`)) + shape.note;
        return (
          assigned(
            shape.base,
            shape.entries.map(([k], j) => [k, codes[j]] as const),
            shape.base === NULL_PROTOTYPE,
          ) + shape.note
        );
      }
      case "map": {
        if (shape.entries.length === 0) return "new Map()";
        const entries = shape.entries.map((_, j) => `[${codes[2 * j]}, ${codes[2 * j + 1]}]`);
        return `new Map([${entries.join(", ")}])`;
      }
      case "set": {
        if (shape.items.length === 0) return "new Set()";
        return `new Set([${codes.slice(0, shape.items.length).join(", ")}])`;
      }
    }
  }

  private shell(shape: Shape): string {
    switch (shape.kind) {
      case "leaf":
        return shape.code;
      case "array":
        // `new Array()`, not `[]`: TypeScript types it any[], where an empty literal referenced by its own
        // elements is an implicit-any error.
        return (shape.items.length === shape.length ? "new Array()" : `new Array(${shape.length})`) + shape.note;
      case "record":
        return (shape.base ?? "{}") + shape.note;
      case "map":
        return `new Map()${shape.note}`;
      case "set":
        return `new Set()${shape.note}`;
    }
  }

  /**
   * The statements that give a shell its contents, in the original order (which Maps, Sets and keys keep), as
   * each child's expression is ready: child `j` has just been built.
   */
  private fillStep(frame: Frame, j: number): void {
    const { shape, name, results } = frame;
    switch (shape.kind) {
      case "record": {
        // Object.assign rather than `r1.key = …`, which TypeScript rejects on an object typed `{}`.
        // Assigning `__proto__` onto an ordinary object would set its prototype, so that key is defined instead;
        // a null-prototype object has no such setter.
        const k = shape.entries[j][0];
        if (k === "__proto__" && shape.base !== NULL_PROTOTYPE) {
          this.flush(frame);
          this.statements.push(`Object.defineProperty(${name}, "__proto__", ${ownValue(results[j])});`);
        } else frame.batch.push(`${propertyKey(k)}: ${results[j]}`);
        return;
      }
      case "map":
        if (j % 2 === 1 && j < 2 * shape.entries.length)
          this.statements.push(`${name}.set(${results[j - 1]}, ${results[j]});`);
        return;
      case "set":
        if (j < shape.items.length) this.statements.push(`${name}.add(${results[j]});`);
        return;
      default:
        return;
    }
  }

  private finishFill(frame: Frame): void {
    const { shape, name, results } = frame;
    if (shape.kind === "record") this.flush(frame);
    if (shape.kind === "array" && shape.items.length > 0) {
      const elements = results.slice(0, shape.items.length);
      // push, not index assignment, so TypeScript can type the array from its elements.
      if (shape.items.length === shape.length) this.statements.push(`${name}.push(${elements.join(", ")});`);
      else
        this.statements.push(`Object.assign(${name}, ${braces(shape.items.map(([i], j) => `${i}: ${elements[j]}`))});`);
    }
    if ((shape.kind === "array" || shape.kind === "map" || shape.kind === "set") && shape.extras.length > 0) {
      const first = results.length - shape.extras.length;
      this.statements.push(
        `${assigned(
          name,
          shape.extras.map(([k], e) => [k, results[first + e]] as const),
          false,
        )};`,
      );
    }
  }

  private flush(frame: Frame): void {
    if (frame.batch.length > 0) this.statements.push(`Object.assign(${frame.name}, ${braces(frame.batch)});`);
    frame.batch = [];
  }
}

/**
 * `base` with the entries (key, code) added as own properties, in order: Object.assign in batches, except that
 * `__proto__` is defined — assigning it would replace the base's prototype (unless the base has none).
 */
function assigned(
  base: string,
  entries: readonly (readonly [string | symbol, string])[],
  nullPrototype: boolean,
): string {
  if (entries.length === 0) return base;
  const literal = ([k, code]: readonly [string | symbol, string]) => `${propertyKey(k)}: ${code}`;
  if (nullPrototype || !entries.some(([k]) => k === "__proto__"))
    return `Object.assign(${base}, ${braces(entries.map(literal))})`;
  let code = base;
  let batch: string[] = [];
  for (const entry of entries) {
    if (entry[0] !== "__proto__") batch.push(literal(entry));
    else {
      if (batch.length > 0) code = `Object.assign(${code}, ${braces(batch)})`;
      batch = [];
      code = `Object.defineProperty(${code}, "__proto__", ${ownValue(entry[1])})`;
    }
  }
  if (batch.length > 0) code = `Object.assign(${code}, ${braces(batch)})`;
  return code;
}

/** The descriptor of an ordinary own data property holding `code`. */
function ownValue(code: string): string {
  return `{ value: ${code}, writable: true, enumerable: true, configurable: true }`;
}

function braces(entries: readonly string[]): string {
  return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
}
