/**
 * Settings: what the user may pass, the defaults and the SHRINKSCOPE_SEED override, resolved once per run into
 * the engine's plain EngineSettings. The profile's layers under a property's own (profiles.ts) and the editor's
 * layer on top (runnerLayer.ts) are found by the caller and handed in.
 */
import * as path from "node:path";
import type { ExampleDatabase } from "../databases/exampleDatabase.ts";
import { DirectoryDatabase } from "../databases/directory.ts";
import { GuardedDatabase, missingMethods } from "../databases/guarded.ts";
import { isRedisUrl, redactUrl, redisUrlProblem } from "../databases/redis/url.ts";
import { sharedDatabase } from "../databases/redis/sharedDatabase.ts";
import type { EngineSettings } from "../core/engine.ts";
import { invalid, InvalidArgument } from "../util/errors.ts";
import type { HealthCheck } from "../core/health.ts";
import { HEALTH_CHECKS } from "../core/health.ts";
import type { EngineEvent, Phase } from "../events/events.ts";
import { keyLabel, keyText, resolveKey, seedHashOf, seedTextOf, type KeyRef } from "./key.ts";
import { stringHash } from "../core/fingerprints.ts";
import { printingObserver } from "./verbosity.ts";
import { freshSeed } from "../util/random.ts";
import { reasonOf } from "./failureMessage.ts";
import { bothObservers, eventObserver, type RunObserver } from "../events/observer.ts";
import { parseReplay, type Replay } from "./replay.ts";

export interface Settings {
  /** Valid examples to try before passing (default 100). */
  maxExamples?: number;
  /** Seed for generation; SHRINKSCOPE_SEED overrides it, and the failure message prints it. */
  seed?: number;
  /** Derive the seed from the property itself, so every run tries the same cases (default: on in CI). */
  derandomize?: boolean;
  /** A single test case taking longer than this (ms) fails; null for no limit (default 200). */
  deadline?: number | null;
  /**
   * An async body whose promise has not settled after this many ms fails its case with a TimeoutError (and
   * shrinking goes on), so a body that never settles cannot hang the run; null to wait forever. Default:
   * 10 × deadline (2000 ms with the default deadline), or 60000 ms when deadline is null. Synchronous bodies
   * cannot be interrupted; the deadline judges them when they return.
   */
  timeout?: number | null;
  /**
   * Folder for saved failing examples (default ".shrinkscope/examples"; off in CI), an ExampleDatabase (an
   * object with fetch, save and delete), or null. An empty string turns it off, as in the extension's
   * setting. A database that throws or returns malformed data is warned about; the run goes on.
   */
  database?: string | ExampleDatabase | null;
  /** Phases to run (default all): explicit, reuse, generate, target, shrink, explain. */
  phases?: readonly Phase[];
  /** Steps per state-machine sequence at most (machine() only; default 50). */
  stepCount?: number;
  /** Receives every engine event (the extension's runner uses this to stream the run). */
  onEvent?: (event: EngineEvent) => void;
  /** Examples always run first, as argument lists: [[arg1, arg2], …]. */
  examples?: readonly (readonly unknown[])[];
  /**
   * Identity of the property in the database: a non-empty string. The default is derived from the file that
   * called property(), the structure of its strategies, and the test's full name when the test runner gives
   * it (node:test's `t.fullName`, mocha's `this.test.fullTitle()`, vitest's task, jest's `currentTestName`) —
   * else the source text of the body — plus an occurrence number among otherwise identical properties of the
   * file. It survives whitespace edits, new tests above, and bundling (the extension's runner computes the
   * same key when the name is known). Set it to keep a property's saved failures across a rename or a move,
   * or to separate properties built in a loop at one line.
   */
  key?: string;
  /**
   * Budget of choices in one test case; beyond it the case is abandoned as an overrun (default 8192). Each
   * character of a string and each byte of a byte array counts as one choice too.
   */
  maxChoices?: number;
  /** Budget of property calls while shrinking (default 5000) and of time (ms, default 60000). */
  maxShrinkCalls?: number;
  maxShrinkTimeMs?: number;
  /**
   * Health checks to skip (health.ts): "filterTooMuch", "tooSlow", "dataTooLarge". A suppressed check lets a run
   * with some valid cases go on; a run in which no generated case is valid still gives up (Unsatisfiable).
   */
  suppressHealthCheck?: readonly (HealthCheck | (string & Record<never, never>))[];
  /**
   * Run exactly one test case: the one a failure's message printed as `Replay: { replay: "<blob>" }` — no
   * generation, no shrinking, no database. SHRINKSCOPE_REPLAY=<blob> does the same from the environment. A blob of
   * another property, or of another format version, is InvalidArgument.
   */
  replay?: string;
  /**
   * What a run prints besides a failure's message (default "normal": nothing). "verbose": one statistics line per
   * property, passing or not, and each accepted shrink; "debug": every test case too; "quiet": nothing, not even a
   * replay's "passes now". SHRINKSCOPE_VERBOSITY overrides it.
   */
  verbosity?: Verbosity;
}

export const VERBOSITIES = ["quiet", "normal", "verbose", "debug"] as const;
export type Verbosity = (typeof VERBOSITIES)[number];

/** The profile a run resolves with (profiles.ts): its layers under the property's own settings, first the weakest. */
export interface ActiveProfile {
  readonly name: string;
  readonly layers: readonly Settings[];
  /** Whether the default folder database is off (the `ci` profile and those built on it). */
  readonly noLocalDatabase: boolean;
}

/** The longest delay a Node timer takes (a longer one fires after 1 ms). */
const MAX_TIMEOUT = 2 ** 31 - 1;

/** The timeout when none is set: generous against the deadline, since any case over the deadline fails anyway. */
export function defaultTimeout(deadline: number | null): number {
  return deadline === null ? 60_000 : Math.min(10 * deadline, MAX_TIMEOUT);
}

/** What the property driver reads besides the engine's settings. */
export interface ResolvedSettings extends EngineSettings {
  /** Per-case limit for async bodies (ms), or null for none. */
  readonly timeout: number | null;
  /** Steps per state-machine sequence at most (machine() only). */
  readonly stepCount: number;
  /** The replay to run instead of a search (replay.ts), checked for its form; undefined: a search. */
  readonly replay: Replay | undefined;
  readonly verbosity: Verbosity;
  /** The profile the settings came from. */
  readonly profile: string;
}

export const ALL_PHASES: readonly Phase[] = ["explicit", "reuse", "generate", "target", "shrink", "explain"];
const SETTING_NAMES = new Set([
  "maxExamples",
  "seed",
  "derandomize",
  "deadline",
  "timeout",
  "database",
  "phases",
  "stepCount",
  "onEvent",
  "examples",
  "key",
  "maxChoices",
  "maxShrinkCalls",
  "maxShrinkTimeMs",
  "suppressHealthCheck",
  "replay",
  "verbosity",
]);

export function env(name: string): string | undefined {
  return typeof process !== "undefined" ? process.env[name] : undefined;
}

export function inCI(): boolean {
  const ci = env("CI");
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false";
}

/** Throws naming the API and the setting for anything malformed, before any test case runs. */
export function validateSettings(api: string, s: unknown): asserts s is Settings {
  if (s === undefined) return;
  if (typeof s !== "object" || s === null || Array.isArray(s))
    invalid(api, `settings must be an object, got ${JSON.stringify(s)}`);
  const o = s as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!SETTING_NAMES.has(k)) invalid(api, `unknown setting "${k}" (known: ${[...SETTING_NAMES].join(", ")})`);
  const posInt = (k: string) => {
    const v = o[k];
    if (v !== undefined && (typeof v !== "number" || !Number.isInteger(v) || v < 1))
      invalid(api, `${k} must be a positive integer, got ${String(v)}`);
  };
  posInt("maxExamples");
  posInt("stepCount");
  posInt("maxChoices");
  posInt("maxShrinkCalls");
  posInt("maxShrinkTimeMs");
  if (o.seed !== undefined && (typeof o.seed !== "number" || !Number.isSafeInteger(o.seed)))
    invalid(api, `seed must be a safe integer, got ${String(o.seed)}`);
  if (o.deadline !== undefined && o.deadline !== null && (typeof o.deadline !== "number" || !(o.deadline > 0)))
    invalid(api, `deadline must be a positive number of milliseconds or null, got ${String(o.deadline)}`);
  if (
    o.timeout !== undefined &&
    o.timeout !== null &&
    (typeof o.timeout !== "number" || !(o.timeout > 0) || o.timeout > MAX_TIMEOUT)
  ) {
    invalid(
      api,
      `timeout must be a positive number of milliseconds or null, at most ${MAX_TIMEOUT} (a timer's limit), got ${String(o.timeout)}`,
    );
  }
  if (o.onEvent !== undefined && typeof o.onEvent !== "function") invalid(api, "onEvent must be a function");
  if (o.derandomize !== undefined && typeof o.derandomize !== "boolean")
    invalid(api, `derandomize must be true or false, got ${describeValue(o.derandomize)}`);
  if (o.phases !== undefined && (!Array.isArray(o.phases) || !o.phases.every((p) => ALL_PHASES.includes(p))))
    invalid(api, `phases must be a subset of ${JSON.stringify(ALL_PHASES)}`);
  // Phases that run no test case (e.g. [] or ["shrink"]) could only report a pass having tested nothing.
  if (Array.isArray(o.phases) && !o.phases.some((p) => p === "explicit" || p === "reuse" || p === "generate")) {
    invalid(
      api,
      `phases ${JSON.stringify(o.phases)} include none that runs test cases: add "generate" (or "explicit" with examples, or "reuse")`,
    );
  }
  if (o.examples !== undefined && (!Array.isArray(o.examples) || !o.examples.every(Array.isArray)))
    invalid(api, "examples must be an array of argument arrays, e.g. [[1, 'a']]");
  const db = o.database;
  if (typeof db === "string" && isRedisUrl(db)) {
    const problem = redisUrlProblem(db);
    if (problem !== undefined) invalid(api, `database: ${problem}`);
  }
  if (db !== undefined && db !== null && typeof db !== "string") {
    if (typeof db !== "object")
      invalid(api, `database must be a folder path, an ExampleDatabase, or null, got ${typeof db}`);
    // All three are called during a run; checking only fetch would fail mid-run, after the failure was found.
    const missing = missingMethods(db);
    if (missing.length > 0)
      invalid(
        api,
        `database must be a folder path, an ExampleDatabase (fetch, save and delete methods), or null; this object has no ${missing.join(", ")} method`,
      );
  }
  const suppress = o.suppressHealthCheck;
  if (suppress !== undefined) {
    const known = `known: ${HEALTH_CHECKS.join(", ")}`;
    if (!Array.isArray(suppress))
      invalid(
        api,
        `suppressHealthCheck must be an array of health check names (${known}), got ${describeValue(suppress)}`,
      );
    for (const c of suppress as unknown[]) {
      if (!(HEALTH_CHECKS as readonly unknown[]).includes(c))
        invalid(
          api,
          `suppressHealthCheck: unknown health check ${typeof c === "string" ? JSON.stringify(c) : describeValue(c)} (${known})`,
        );
    }
  }
  if (o.replay !== undefined) {
    if (typeof o.replay !== "string")
      invalid(api, `replay must be the text of a failure's "Replay:" line, got ${describeValue(o.replay)}`);
    parseReplay(o.replay, `${api}: replay`);
  }
  if (o.verbosity !== undefined && !(VERBOSITIES as readonly unknown[]).includes(o.verbosity))
    invalid(
      api,
      `verbosity must be one of ${VERBOSITIES.map((v) => `"${v}"`).join(", ")}, got ${describeValue(o.verbosity)}`,
    );
  if (o.key !== undefined && (typeof o.key !== "string" || o.key === ""))
    invalid(api, `key must be a non-empty string, got ${typeof o.key === "string" ? '""' : String(o.key)}`);
}

/**
 * A derandomised run's seed from the string hash (the fingerprints') of its seed text (key.ts: the property's kind
 * and body text, or a key given as a string): its low 32 bits, so that a run in CI makes no key.
 */
function hashSeed(hash: number): number {
  return hash % 0x100000000;
}

/**
 * SHRINKSCOPE_SHARD=i/n (1 ≤ i ≤ n): n machines running the same properties derandomised each start from a
 * seed of their own, so together they explore n runs' worth instead of repeating one. 1/1, or unset, is the
 * plain derandomised seed. An explicit seed (setting or SHRINKSCOPE_SEED) is never changed.
 */
function shardSeed(key: KeyRef): number {
  const raw = env("SHRINKSCOPE_SHARD");
  if (raw === undefined || raw.trim() === "") return hashSeed(seedHashOf(key));
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  const i = m === null ? NaN : Number(m[1]);
  const n = m === null ? NaN : Number(m[2]);
  if (!(Number.isSafeInteger(i) && Number.isSafeInteger(n) && i >= 1 && i <= n)) {
    throw new InvalidArgument(
      `SHRINKSCOPE_SHARD must be "i/n" with 1 <= i <= n (this machine's shard and the number of shards, e.g. 2/4), got ${JSON.stringify(raw)}`,
    );
  }
  return n === 1 ? hashSeed(seedHashOf(key)) : hashSeed(stringHash(`${seedTextOf(key)}\0shard ${i}/${n}`));
}

/** A setting's value for a message (strings quoted, so "false" is not read as false). */
function describeValue(v: unknown): string {
  return typeof v === "string" ? JSON.stringify(v) : typeof v === "object" && v !== null ? "an object" : String(v);
}

/** SHRINKSCOPE_DATABASE_URL: a redis:// URL for every property of the run, or undefined when unset or empty. */
function databaseUrlFromEnv(): string | undefined {
  const raw = env("SHRINKSCOPE_DATABASE_URL");
  if (raw === undefined || raw.trim() === "") return undefined;
  if (!isRedisUrl(raw))
    throw new InvalidArgument(
      `SHRINKSCOPE_DATABASE_URL must be a redis:// or rediss:// URL (e.g. redis://127.0.0.1:6379/0), got ${JSON.stringify(redactUrl(raw))}`,
    );
  const problem = redisUrlProblem(raw);
  if (problem !== undefined) throw new InvalidArgument(`SHRINKSCOPE_DATABASE_URL: ${problem}`);
  return raw;
}

/**
 * The seed pinned by the environment. Only a plain decimal integer: Number() would take " " as 0 and "0x10"
 * as 16, silently pinning a seed nobody wrote. Unset or empty (`SHRINKSCOPE_SEED= npm test`, the shell's way
 * to clear it) means no override; anything else malformed, blank included, is InvalidArgument naming it.
 */
function seedFromEnv(): number | undefined {
  const raw = env("SHRINKSCOPE_SEED");
  if (raw === undefined || raw === "") return undefined;
  const n = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n))
    throw new InvalidArgument(
      `SHRINKSCOPE_SEED must be an integer (decimal digits, an optional sign, at most 2^53 - 1), got ${JSON.stringify(raw)}`,
    );
  return n === 0 ? 0 : n; // "-0" is seed 0
}

/**
 * An event tap that cannot end the run: a tap that throws is the user's bug (or the runner's), and the
 * failure, its seed and its arguments must still come back. Warns once per run; later events still go to it.
 */
function guardTap(tap: (e: EngineEvent) => void): (e: EngineEvent) => void {
  let warned = false;
  return (e) => {
    try {
      tap(e);
    } catch (error) {
      if (warned) return;
      warned = true;
      console.warn(
        `Shrinkscope: the onEvent callback threw (${reasonOf(error)}); the run goes on, and further events still go to it`,
      );
    }
  };
}

function pick<K extends keyof Settings>(s: Settings, ...keys: K[]): Pick<Settings, K> {
  const out = {} as Pick<Settings, K>;
  for (const k of keys) if (s[k] !== undefined) out[k] = s[k];
  return out;
}

/** The folder of the default database, relative to the working directory. */
const LOCAL_DATABASE = path.join(".shrinkscope", "examples");

/** The editor's "Run fresh": the property's phases, less the replay of the database's saved failures. */
export const SKIP_REUSE = Symbol("shrinkscope.skipReuse");

/**
 * The settings the editor's runner lays over a property's own (runnerLayer.ts), besides its tap: as an
 * observer (observer.ts) or as onEvent.
 */
export type EditorLayer = Settings & { [SKIP_REUSE]?: true; observer?: RunObserver; sharedDatabase?: string };

/**
 * The settings of one run: the layers given (the property's own, then check()'s) merged, with the editor's
 * layer, when there is one, on top — except its maxExamples and stepCount, which the property's own override.
 */
export function resolveWith(
  editor: EditorLayer | undefined,
  key: KeyRef,
  layers: (Settings | undefined)[],
  profile: ActiveProfile,
): ResolvedSettings {
  const own: Settings = Object.assign({}, ...profile.layers, ...layers.filter(Boolean));
  // The property's own choice, before the editor's folder replaces it: turned off (null or "") keeps it off the
  // shared database, in the editor too.
  const propertyDatabase = own.database;
  const sharingOff =
    propertyDatabase === null || (typeof propertyDatabase === "string" && propertyDatabase.trim() === "");
  // The property's own maxExamples and stepCount win over the editor's defaults: the editor must agree with CI.
  const runner = editor === undefined ? undefined : { ...editor, ...pick(own, "maxExamples", "stepCount") };
  const s: Settings = Object.assign(own, runner);
  // The user's tap is guarded: it must not cut the runner's stream. The runner's own tap is not: it throws
  // StopRun on purpose, between test cases, to stop a synchronous run that never yields.
  const userTap = layers.reduce<Settings["onEvent"]>((tap, l) => l?.onEvent ?? tap, undefined);
  const mine = userTap === undefined ? undefined : eventObserver(guardTap(userTap));
  const editorTap = editor?.observer ?? (editor?.onEvent === undefined ? undefined : eventObserver(editor.onEvent));
  const taps = mine === undefined ? editorTap : editorTap === undefined ? mine : bothObservers(mine, editorTap);
  const deadline = s.deadline === undefined ? 200 : s.deadline;
  const noLocal = profile.noLocalDatabase;
  const derandomize = s.derandomize ?? false;
  const seed = seedFromEnv() ?? s.seed ?? (derandomize ? shardSeed(key) : freshSeed());
  let database: ExampleDatabase | null = null;
  let databasePath: string | null = null;
  const ownDb = s.database === undefined ? (noLocal ? null : LOCAL_DATABASE) : s.database;
  // A redis:// database (the setting, or SHRINKSCOPE_DATABASE_URL for a whole run: CI sets it, no code changes)
  // is shared, and joined to the property's own: its folder (the default one on a developer's machine, none in
  // CI), or its custom database. A property that turned its database off (null or "") gets none.
  // (The editor's shared database, its `shrinkscope.sharedDatabaseUrl`, comes first: the editor's folder wins too.)
  const url =
    sharingOff || s.database === null
      ? undefined
      : (editor?.sharedDatabase ??
        databaseUrlFromEnv() ??
        (typeof ownDb === "string" && isRedisUrl(ownDb) ? ownDb : undefined));
  const folder =
    typeof ownDb === "string"
      ? isRedisUrl(ownDb)
        ? noLocal
          ? null
          : LOCAL_DATABASE
        : ownDb.trim() === ""
          ? null
          : ownDb
      : null;
  if (url !== undefined) {
    const alongside = typeof ownDb === "object" && ownDb !== null ? ownDb : folder;
    databasePath = redactUrl(url);
    database = new GuardedDatabase(sharedDatabase(url, alongside), `database ${databasePath}`);
  } else if (folder !== null) {
    // ("" is off, as the extension's setting documents; resolving it would scatter example folders in the cwd.)
    databasePath = folder;
    database = new GuardedDatabase(new DirectoryDatabase(path.resolve(folder)), `database ${folder}`);
  } else if (ownDb !== null && typeof ownDb === "object") {
    database = new GuardedDatabase(ownDb, "custom database");
    databasePath = "(custom)";
  }
  const verbosity = verbosityFromEnv() ?? s.verbosity ?? "normal";
  const printsKey = verbosity === "verbose" || verbosity === "debug";
  // Made when first read: by a run with a database, or printing its key (key.ts).
  const runKey = resolveKey(key, s.key, database !== null || printsKey);
  const printing = printsKey ? printingObserver(verbosity, keyLabel(keyText(runKey))) : undefined;
  const observer = printing === undefined ? taps : taps === undefined ? printing : bothObservers(taps, printing);
  return {
    maxExamples: s.maxExamples ?? 100,
    seed,
    derandomize,
    deadline,
    timeout: s.timeout === undefined ? defaultTimeout(deadline) : s.timeout,
    database,
    databasePath,
    get databaseKey() {
      return keyText(runKey);
    },
    phases: editor?.[SKIP_REUSE] ? (s.phases ?? ALL_PHASES).filter((p) => p !== "reuse") : (s.phases ?? ALL_PHASES),
    observer,
    maxChoices: s.maxChoices ?? 8192,
    maxShrinkCalls: s.maxShrinkCalls ?? 5000,
    maxShrinkTimeMs: s.maxShrinkTimeMs ?? 60_000,
    examples: s.examples ?? [],
    suppressHealthCheck: (s.suppressHealthCheck ?? []) as readonly HealthCheck[],
    stepCount: s.stepCount ?? 50,
    replay: s.replay === undefined ? undefined : parseReplay(s.replay, "replay"),
    verbosity,
    profile: profile.name,
  };
}

/** SHRINKSCOPE_VERBOSITY, when set: InvalidArgument naming it for anything but the four levels. */
function verbosityFromEnv(): Verbosity | undefined {
  const raw = env("SHRINKSCOPE_VERBOSITY");
  if (raw === undefined || raw.trim() === "") return undefined;
  const v = raw.trim().toLowerCase();
  if (!(VERBOSITIES as readonly string[]).includes(v))
    throw new InvalidArgument(
      `SHRINKSCOPE_VERBOSITY must be one of ${VERBOSITIES.join(", ")}, got ${JSON.stringify(raw)}`,
    );
  return v as Verbosity;
}
