/**
 * The options of explore() and simTest(), read once and checked: misuse throws InvalidArgument naming the
 * function, before any seed runs, and what is read is a copy, so a caller changing its options later changes
 * nothing (a simTest property stays a function of its arguments).
 */
import { describe } from "../strategies/strategy.ts";
import { invalid } from "../util/errors.ts";

export interface ExploreOptions {
  /** How many seeds (0..n−1), or the seeds themselves (required unless `schedule` is given). */
  readonly seeds?: number | readonly number[];
  /** How each seed picks among ready tasks: "random" (default) or "pct" (priorities with `depth` − 1 change points). */
  readonly strategy?: "random" | "pct";
  /** PCT's bug depth d (default 2). */
  readonly depth?: number;
  /** Replay exactly these decisions (FIFO after them) instead of exploring seeds: a schedule from a report. */
  readonly schedule?: readonly number[];
  /** Shrink a failing schedule toward FIFO (default true). */
  readonly shrink?: boolean;
  /** Budgets per run: scheduling steps (default 100,000) and virtual time in ms (default 1 day). */
  readonly maxSteps?: number;
  readonly maxTime?: number;
  /**
   * The UI library's act() (React's, or @testing-library/react's): each scheduling step — a task resumed and its
   * continuations run — is wrapped in it and waited for, so the renders and effects the step caused are done
   * before the next step and before the workload's assertions read the screen.
   */
  readonly act?: Act;
}

/** An act() function as React and its testing libraries export it: runs the callback, flushes, and returns a thenable. */
export type Act = (callback: () => Promise<void>) => unknown;

function posInt(api: string, name: string, v: unknown, min = 1): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min)
    invalid(api, `${name} must be an integer ≥ ${min}, got ${describe(v)}`);
  return v;
}

/** A list of safe integers ≥ `min`, copied (so a caller changing it later changes nothing), or undefined. */
function integers(v: unknown, min: number): number[] | undefined {
  if (!Array.isArray(v)) return undefined;
  // Array.from turns holes into undefined: every() skips holes, so [, 1] would pass as a list of integers.
  const copy = Array.from(v as unknown[]);
  return copy.every((x) => Number.isSafeInteger(x) && (x as number) >= min) ? (copy as number[]) : undefined;
}

/** PCT's depth at most: its d − 1 change points each cost an array slot (2^40 was a RangeError from inside). */
const MAX_DEPTH = 1000;

export function readOptions(
  api: string,
  options: unknown,
): {
  seeds: number[];
  strategy: "random" | "pct";
  depth: number;
  schedule: number[] | undefined;
  shrink: boolean;
  maxSteps: number;
  maxTime: number;
  act: Act | undefined;
} {
  if (typeof options !== "object" || options === null)
    invalid(api, `options must be an object ({ seeds, strategy?, … }), got ${describe(options)}`);
  const o = options as Record<string, unknown>;
  const known = ["seeds", "strategy", "depth", "schedule", "shrink", "maxSteps", "maxTime", "act"];
  for (const k of Object.keys(o))
    if (!known.includes(k)) invalid(api, `unknown option "${k}" (known: ${known.join(", ")})`);
  let seeds: number[] | undefined;
  if (typeof o.seeds === "number") {
    if (!Number.isSafeInteger(o.seeds) || o.seeds < 1 || o.seeds > 1_000_000)
      invalid(api, `seeds must be a count from 1 to 1,000,000 or a list of integers, got ${describe(o.seeds)}`);
    seeds = Array.from({ length: o.seeds }, (_, i) => i);
  } else if (o.seeds === undefined && o.schedule !== undefined) seeds = [0];
  else seeds = integers(o.seeds, Number.MIN_SAFE_INTEGER);
  if (seeds === undefined || seeds.length === 0)
    invalid(api, `seeds must be a count or a non-empty list of integers, got ${describe(o.seeds)}`);
  if (o.strategy !== undefined && o.strategy !== "random" && o.strategy !== "pct")
    invalid(api, `strategy must be "random" or "pct", got ${describe(o.strategy)}`);
  if (o.depth !== undefined) {
    if (typeof o.depth !== "number" || !Number.isSafeInteger(o.depth) || o.depth < 1 || o.depth > MAX_DEPTH)
      invalid(api, `depth must be an integer ≥ 1 and at most ${MAX_DEPTH}, got ${describe(o.depth)}`);
    // Ignored otherwise: the user would believe a depth-d search ran.
    if (o.strategy !== "pct")
      invalid(api, `depth applies only to strategy: "pct" (the strategy is ${describe(o.strategy ?? "random")})`);
  }
  const schedule = o.schedule === undefined ? undefined : integers(o.schedule, 0);
  if (o.schedule !== undefined && schedule === undefined)
    invalid(api, `schedule must be a list of integers ≥ 0 (a report's schedule), got ${describe(o.schedule)}`);
  if (o.shrink !== undefined && typeof o.shrink !== "boolean")
    invalid(api, `shrink must be a boolean, got ${describe(o.shrink)}`);
  if (o.act !== undefined && typeof o.act !== "function")
    invalid(api, `act must be a function (React's act, from react or @testing-library/react), got ${describe(o.act)}`);
  return {
    seeds,
    strategy: (o.strategy as "random" | "pct" | undefined) ?? "random",
    depth: (o.depth as number | undefined) ?? 2,
    schedule,
    shrink: (o.shrink as boolean | undefined) ?? true,
    maxSteps: posInt(api, "maxSteps", o.maxSteps) ?? 100_000,
    maxTime: posInt(api, "maxTime", o.maxTime) ?? 86_400_000,
    act: o.act as Act | undefined,
  };
}

export type Options = ReturnType<typeof readOptions>;
