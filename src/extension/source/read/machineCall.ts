/**
 * A `machine(Class, spec)` call taken apart for the quick fix and the diagnostics: the class it runs and where that
 * class is declared, with its methods. Pure (no vscode, no file system): a class imported from another file is read
 * through a `ModuleReader` the host provides, which resolves a relative specifier next to the test file.
 *
 * The class argument must be a name or a namespace member (`LedgerMachine`, `models.LedgerMachine`): that text is
 * what the regression test constructs. It is found
 *   - declared in the test file: `class LedgerMachine`, `const LedgerMachine = class …`;
 *   - imported by name or as default from a relative module (`import { LedgerMachine } from "./ledger"`,
 *     `import Ledger from "./ledger.js"`, `const { LedgerMachine } = require("./ledger")`), or as a member of a
 *     namespace import of one (`import * as models from "./models"`), one file deep: re-exports are not followed.
 * Anything else (a package's class, a class expression inline) still converts, but without its methods.
 */
import type { ClassShape } from "./classes.ts";
import { declaredClass, defaultExportedClass } from "./classes.ts";
import type { PropertyCallee } from "./ourCalls.ts";
import { targetCall } from "./propertyCall.ts";
import type { ScanOptions } from "./scan.ts";
import type { SourceText } from "./sourceText.ts";
import { readSource } from "./sourceText.ts";

/** The text of the module a relative specifier names, next to the test file; undefined when there is none to read. */
export type ModuleReader = (specifier: string) => { readonly fileName: string; readonly source: string } | undefined;

export interface MachineCall {
  readonly t: SourceText;
  /** The class argument as written, `LedgerMachine` or `models.LedgerMachine`, its names, and its first token. */
  readonly classRef: string;
  readonly names: readonly string[];
  readonly token: number;
}

export interface MachineClass {
  /** The file it is declared in, as the reader named it; undefined for the test file itself. */
  readonly fileName: string | undefined;
  readonly t: SourceText;
  readonly shape: ClassShape;
}

/** The machine call at `calleeOffset` (or the one a `check(…)` there runs), when its class is a name or a member chain. */
export function machineCall(
  source: string,
  calleeOffset: number,
  options: ScanOptions & { readonly callee?: PropertyCallee } = {},
): MachineCall | undefined {
  const t = readSource(source, options);
  const call = targetCall(t, calleeOffset, options.callee ?? "machine");
  const arg = call?.args[0];
  if (arg === undefined) return undefined;
  const names: string[] = [];
  for (let k = arg[0]; k <= arg[1]; k += 2) {
    const name = t.ident(k);
    if (name === undefined || (k < arg[1] && !t.is(k + 1, "."))) return undefined;
    names.push(name);
  }
  return { t, classRef: names.join("."), names, token: arg[0] };
}

/** Where the machine's class is declared, with its methods; undefined when it cannot be found simply. */
export function machineClass(m: MachineCall, readModule?: ModuleReader): MachineClass | undefined {
  const [root, member, ...rest] = m.names;
  if (root === undefined || rest.length > 0) return undefined;
  // The declaration the class argument means where it is written.
  const declared = m.t.resolve(root, m.token);
  if (declared === undefined) return undefined;
  if (member === undefined && declared.kind !== "import") {
    const here = declaredClass(m.t, declared);
    return here === undefined ? undefined : { fileName: undefined, t: m.t, shape: here };
  }
  const binding = declared.binding;
  if (binding === undefined || readModule === undefined || !binding.specifier.startsWith(".")) return undefined;
  // `models.X` needs a namespace; a plain name needs a named or default import.
  const name = member === undefined ? binding.imported : binding.imported === "*" ? member : undefined;
  if (name === undefined || name === "*") return undefined;
  const module = readModule(binding.specifier);
  if (module === undefined) return undefined;
  const t = readSource(module.source, { fileName: module.fileName });
  const exported = name === "default" ? undefined : t.scopes.topLevel(name);
  const shape = name === "default" ? defaultExportedClass(t) : exported && declaredClass(t, exported);
  return shape === undefined ? undefined : { fileName: module.fileName, t, shape };
}

/** A place in a file: the reader's file name (undefined: the test file), 0-based lines and characters. */
export interface MethodLocation {
  readonly fileName: string | undefined;
  readonly start: { readonly line: number; readonly character: number };
  readonly end: { readonly line: number; readonly character: number };
}

/** Where the failing invariant's or rule's method (`presentation.failedIn`) is declared, when the class can be found. */
export function failingMethod(
  source: string,
  calleeOffset: number,
  failedIn: { readonly name: string },
  options: ScanOptions & { readonly callee?: PropertyCallee; readonly readModule?: ModuleReader } = {},
): MethodLocation | undefined {
  const m = machineCall(source, calleeOffset, options);
  const cls = m && machineClass(m, options.readModule);
  const method = cls?.shape.methods.get(failedIn.name);
  if (cls === undefined || method === undefined) return undefined;
  const token = cls.t.tokens[method.token]!;
  return { fileName: cls.fileName, start: cls.t.position(token.start), end: cls.t.position(token.end) };
}
