/**
 * The extension's settings (package.json "contributes.configuration") as one run receives them. Pure (no vscode
 * import): config.ts hands it VS Code's reader, the unit tests a map — and check that every declared setting is
 * read (`shrinkscope.stepCount` was declared for a release before anything read it).
 *
 * The settings a run passes to the engine: seed and deadline, when set, and the database win over the
 * property's own (src/engine/property/settings.ts layers them on top); maxExamples and stepCount apply only where the
 * property sets none, so the editor runs what CI runs. The runner drops a value of the wrong type or range,
 * and the property's own setting applies then.
 */
import type { RunSettings } from "../shared/protocol.ts";
import { databaseFolder, DEFAULT_DATABASE_LOCATION } from "./databaseLocation.ts";
import { RUNNER_SETTINGS, type RunnerSetting } from "./runnerDetect.ts";
import { isRedisUrl } from "../engine/internals.ts";

export interface RunConfig {
  readonly settings: RunSettings;
  readonly timeoutMs: number;
  /** Which test runner runs properties (`shrinkscope.runner`); an unknown value is "auto". */
  readonly runner: RunnerSetting;
}

/** VS Code's `WorkspaceConfiguration.get` for the "shrinkscope" section: the value, or `fallback` when unset. */
export type SettingReader = <T>(key: string, fallback: T) => T;

export function runConfigFrom(
  get: SettingReader,
  workspaceRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): RunConfig {
  const seed = get<number | null>("seed", null);
  const deadline = get<number | null>("deadline", null);
  const shared = sharedDatabaseUrl(get, env);
  return {
    settings: {
      maxExamples: get<number>("maxExamples", 100),
      stepCount: get<number>("stepCount", 50),
      ...(seed !== null && Number.isSafeInteger(seed) ? { seed } : {}),
      ...(deadline !== null ? { deadline } : {}),
      database: databaseFolder(get<unknown>("databaseLocation", DEFAULT_DATABASE_LOCATION), workspaceRoot),
      ...(shared !== undefined ? { sharedDatabase: shared } : {}),
    },
    timeoutMs: Math.max(1000, get<number>("timeout", 60_000)),
    runner: runnerSetting(get<unknown>("runner", "auto")),
  };
}

/**
 * The shared database's URL: `shrinkscope.sharedDatabaseUrl`, else SHRINKSCOPE_DATABASE_URL in VS Code's own
 * environment (what the team's CI sets); undefined when neither is a redis:// URL.
 */
export function sharedDatabaseUrl(get: SettingReader, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const set = get<unknown>("sharedDatabaseUrl", "");
  const url = typeof set === "string" && set.trim() !== "" ? set.trim() : (env.SHRINKSCOPE_DATABASE_URL ?? "").trim();
  return isRedisUrl(url) ? url : undefined;
}

function runnerSetting(value: unknown): RunnerSetting {
  return RUNNER_SETTINGS.find((r) => r === value) ?? "auto";
}
