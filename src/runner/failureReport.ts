/**
 * Turning what a test threw into the protocol's FailureReport: the shrunk example of a PropertyFailure (duck
 * typed by name, since the workspace's engine may be another copy than ours), where in the user's file the
 * error came from, and a readable form of values that are not Errors (`throw "boom"`).
 *
 * Locations come from stack traces, which Node has already mapped through the bundle's source map (main.ts
 * enables source maps before loading it), so they name the original .ts file, 1-based line and column.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import type {
  FailureReport,
  Presentation,
  ResultEvent,
  ScheduleInfo,
  SourceLocation,
  StepInfo,
} from "../shared/protocol.ts";
import type { RunFailure, TestEntry } from "./registry.ts";
import { scheduleOf } from "../engine/internals.ts";

interface PropertyFailureLike {
  readonly name: "PropertyFailure";
  readonly message: string;
  readonly repro: string;
  readonly seed: number;
  readonly cause: unknown;
  readonly flaky?: boolean;
  readonly presentation?: unknown;
}

function isPropertyFailure(e: unknown): e is PropertyFailureLike {
  const x = e as Partial<PropertyFailureLike> | null;
  return attempt(
    () =>
      typeof x === "object" &&
      x !== null &&
      x.name === "PropertyFailure" &&
      typeof x.repro === "string" &&
      typeof x.seed === "number",
    false,
  );
}

/**
 * Reads what user code threw, which may throw in turn (a revoked Proxy, getters that throw): `fallback`
 * then, so that reporting a failure never replaces it with an error of its own.
 */
function attempt<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

function isErrorLike(e: unknown): e is Error {
  return attempt(
    () =>
      e instanceof Error ||
      (typeof e === "object" &&
        e !== null &&
        typeof (e as Error).name === "string" &&
        typeof (e as Error).message === "string"),
    false,
  );
}

/** A stack, when it can be read and is a string. */
function stackOf(e: unknown): string | undefined {
  return attempt(() => {
    const stack = (e as Error).stack;
    return typeof stack === "string" ? stack : undefined;
  }, undefined);
}

/** A thrown value as {name, message, stack}; non-Errors are named "thrown value" and printed. */
export function describeThrown(e: unknown): FailureReport["error"] {
  if (isErrorLike(e)) {
    const name = attempt(() => String(e.name), "Error");
    const message = attempt(() => String(e.message), "(the error's message could not be read)");
    const stack = stackOf(e);
    return stack === undefined ? { name, message } : { name, message, stack };
  }
  return {
    name: "thrown value",
    message: attempt(
      () => (typeof e === "string" ? JSON.stringify(e) : inspect(e, { depth: 4 })),
      `(a thrown ${typeof e} that cannot be printed)`,
    ),
  };
}

interface Frame {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;
/** Dependencies, and the engine itself (its frames map to src/engine when the workspace is this repository). */
const NOT_USER_CODE = /[\\/]node_modules[\\/]|[\\/](src|dist)[\\/]engine\b/;

function frames(stack: string | undefined): Frame[] {
  const out: Frame[] = [];
  for (const line of (stack ?? "").split("\n")) {
    const m = FRAME.exec(line);
    if (m === null) continue;
    let file = m[1];
    if (file.startsWith("file://")) {
      try {
        file = fileURLToPath(file);
      } catch {
        continue;
      }
    }
    out.push({ file, line: Number(m[2]), column: Number(m[3]) });
  }
  return out;
}

function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * The first frame in the test file; failing that, the first in the user's own code (inside the workspace,
 * outside node_modules and the runner/engine), e.g. a helper module the test imports.
 */
export function locate(
  stack: string | undefined,
  testFile: string,
  workspaceRoot: string,
  runnerDir: string,
): SourceLocation | undefined {
  const fs_ = frames(stack);
  const target = real(testFile);
  const inTest = fs_.find((f) => f.file === testFile || real(f.file) === target);
  // Reported under the path the host asked for, even if the stack names it through a symlink's target.
  if (inTest !== undefined) return { file: testFile, line: inTest.line, column: inTest.column };
  const hit = fs_.find(
    (f) =>
      path.isAbsolute(f.file) &&
      f.file.startsWith(workspaceRoot + path.sep) &&
      !NOT_USER_CODE.test(f.file) &&
      !f.file.startsWith(runnerDir + path.sep),
  );
  return hit === undefined ? undefined : { file: hit.file, line: hit.line, column: hit.column };
}

/** The report for a failed run: the property's shrunk example, or a plain test's (or hook's) error. */
export function failureReport(
  failure: RunFailure,
  entry: TestEntry,
  testFile: string,
  workspaceRoot: string,
  runnerDir: string,
): FailureReport {
  const e = failure.error;
  const declared = locate(entry.declaredAt.stack, testFile, workspaceRoot, runnerDir);
  const prefix = failure.where === "test" ? "" : `${failure.where} hook failed: `;
  if (isPropertyFailure(e)) {
    const cause = isErrorLike(e.cause) ? stackOf(e.cause) : undefined;
    return {
      message: prefix + e.message,
      repro: e.repro,
      seed: e.seed,
      error: describeThrown(e.cause),
      location: locate(cause, testFile, workspaceRoot, runnerDir) ?? declared,
      flaky: e.flaky === true,
      presentation: presentationOf(e),
      ...copySchedule(scheduleOf(e.cause)),
    };
  }
  const error = describeThrown(e);
  return {
    message:
      prefix +
      (error.name === "thrown value"
        ? `the test threw a value that is not an Error: ${error.message}`
        : `${error.name}: ${error.message}`),
    repro: "",
    seed: 0,
    error,
    location: (isErrorLike(e) ? locate(stackOf(e), testFile, workspaceRoot, runnerDir) : undefined) ?? declared,
    flaky: false,
    presentation: { kind: "arguments", text: "" },
  };
}

/** A simTest failure's schedule (scheduleOf, or a result event's), copied as plain data. */
function copySchedule(i: ScheduleInfo | undefined): { schedule?: ScheduleInfo } {
  return attempt((): { schedule?: ScheduleInfo } => {
    if (typeof i !== "object" || i === null || !Array.isArray(i.events)) return {};
    const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);
    return {
      schedule: {
        seed: num(i.seed),
        passedBefore: Array.isArray(i.passedBefore) ? i.passedBefore.map(num) : [],
        strategy: i.strategy === "pct" ? "pct" : "random",
        traceHash: String(i.traceHash),
        schedule: Array.isArray(i.schedule) ? i.schedule.map(num) : [],
        events: i.events.map((e) => ({ t: num(e.t), task: String(e.task), what: String(e.what) })),
        truncated: num(i.truncated),
        tasks: Array.isArray(i.tasks) ? i.tasks.map(String) : [],
        deviations: Array.isArray(i.deviations)
          ? i.deviations.map((d) => ({
              decision: num(d.decision),
              t: num(d.t),
              chosen: String(d.chosen),
              fifo: String(d.fifo),
            }))
          : [],
        text: String(i.text),
      },
    };
  }, {});
}

/**
 * The report for a failure seen only through the engine's `result` event — inside the user's own test runner,
 * which catches the thrown PropertyFailure itself (src/runner/tap.ts). The same fields as failureReport's.
 */
export function failureFromResult(
  result: ResultEvent,
  testFile: string,
  workspaceRoot: string,
  runnerDir: string,
): FailureReport {
  const repro = result.repro ?? "";
  const error = result.error ?? { name: "Error", message: result.message };
  return {
    message: result.message,
    repro,
    seed: result.seed,
    error,
    location: locate(error.stack, testFile, workspaceRoot, runnerDir),
    flaky: result.flaky === true,
    presentation: presentationOf({ repro, presentation: result.presentation }),
    ...copySchedule(result.schedule),
  };
}

/**
 * The failure's presentation, copied as plain data (it crosses a process boundary); an older engine copy in
 * the workspace may not have one: its repro is then the arguments.
 */
function presentationOf(e: Pick<PropertyFailureLike, "repro" | "presentation">): Presentation {
  return attempt(
    (): Presentation => {
      const p = e.presentation as Presentation | undefined;
      if (p?.kind === "steps" && Array.isArray(p.steps)) {
        const str = (x: unknown) => (typeof x === "string" ? x : undefined);
        const steps: StepInfo[] = p.steps.map((s) => {
          const kind = (["initialize", "rule", "invariant", "teardown"] as const).find((k) => k === s.kind) ?? "rule";
          const target = str(s.target);
          const free = Array.isArray(s.free) ? s.free.map(String) : [];
          return {
            kind,
            name: String(s.name),
            args: String(s.args),
            code: String(s.code),
            ...(target !== undefined ? { target } : {}),
            ...(Number.isInteger(s.start) && Number.isInteger(s.end) ? { start: s.start, end: s.end } : {}),
            ...(free.length > 0 ? { free } : {}),
          };
        });
        const failedIn =
          p.failedIn !== undefined && (["invariant", "rule", "initialize"] as const).includes(p.failedIn.kind)
            ? { kind: p.failedIn.kind, name: String(p.failedIn.name) }
            : undefined;
        const explanation = str(p.explanation);
        const state = str(p.state);
        return {
          kind: "steps",
          className: String(p.className),
          steps,
          ...(failedIn ? { failedIn } : {}),
          ...(explanation !== undefined ? { explanation } : {}),
          ...(state !== undefined ? { state } : {}),
        };
      }
      // The explain phase's marks: each argument printed, and whether it is free.
      const args =
        p?.kind === "arguments" && Array.isArray(p.args)
          ? p.args.map((a) => ({ text: String(a.text), free: a.free === true }))
          : [];
      // The inputs a schema parsed into the arguments (fromZod), for Convert's `Schema.parse(…)`.
      const inputs =
        p?.kind === "arguments" && Array.isArray(p.inputs)
          ? p.inputs.map((i) => (typeof i === "string" ? i : null))
          : [];
      return {
        kind: "arguments",
        text: e.repro,
        ...(args.some((a) => a.free) ? { args } : {}),
        ...(inputs.some((i) => i !== null) ? { inputs } : {}),
      };
    },
    { kind: "arguments", text: e.repro },
  );
}

/** An error as text for a `reason`: its stack when it has one. */
export function errorText(e: unknown): string {
  const error = describeThrown(e);
  if (error.name === "thrown value") return error.message;
  return error.stack ?? `${error.name}: ${error.message}`;
}
