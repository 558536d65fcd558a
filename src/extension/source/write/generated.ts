/**
 * What the writers take and give: the failure and the place a regression test goes (`RegressionInput`), the
 * statements a generator writes (`Generated`, as `Line`s the test indents) and the edit a quick fix makes
 * (`TextInsertion`). Each generator (argumentsTest.ts, stepsTest.ts, scheduleReplay.ts) and the test that
 * assembles them (regressionTest.ts) share these, so none of them imports another's entry point.
 */
import type { Presentation, ScheduleInfo } from "../../../shared/protocol.ts";
import type { ModuleReader, PropertyCallee, ScanOptions } from "../read/index.ts";

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
  /**
   * The failure was the body returning false (a predicate, fast-check's style): the test checks what the body returns,
   * since run as statements a `false` would pass.
   */
  readonly returnedFalse?: boolean;
}

/** The part of a failure's schedule a replay needs. */
export type Replay = Pick<ScheduleInfo, "seed" | "schedule">;

/** Replace `length` characters at `offset` (none: a plain insertion) with `text`. */
export interface TextInsertion {
  readonly offset: number;
  readonly text: string;
  readonly length?: number;
  /** Other edits the same fix makes elsewhere in the file (an import), none overlapping this one. */
  readonly also?: readonly TextInsertion[];
}

/** One output line; `verbatim` lines are inside a multi-line string or template and keep their exact text. */
export interface Line {
  readonly text: string;
  readonly verbatim: boolean;
}

/** A generator's statements, unindented, whether the test function must be async, and edits elsewhere (an import). */
export interface Generated {
  readonly lines: Line[];
  readonly async: boolean;
  readonly also?: readonly TextInsertion[];
}

/** What the printer writes for a value it could not print: a test built on it would not reproduce the failure. */
export const UNPRINTABLE = /\/\*\s*could not print\b/;

export function isTypeScript(fileName: string | undefined): boolean {
  return fileName === undefined || /\.[mc]?tsx?$/i.test(fileName);
}

/** The file's line ending: CRLF when it has any, else LF. */
export function eolOf(source: string): string {
  return source.includes("\r\n") ? "\r\n" : "\n";
}

/** The whitespace a line starts with, from its first offset. */
export function indentAt(source: string, lineStart: number): string {
  return /^[ \t]*/.exec(source.slice(lineStart))![0];
}

/** How the call at the failure's offset is read: the file's name picks the JSX default, and which call discovery found there. */
export function callOptions(
  fileName: string | undefined,
  callee: PropertyCallee | undefined,
): ScanOptions & { readonly callee?: PropertyCallee } {
  return { ...(fileName === undefined ? {} : { fileName }), ...(callee === undefined ? {} : { callee }) };
}
