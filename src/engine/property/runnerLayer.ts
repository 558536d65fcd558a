/**
 * The editor's layer of settings, which the extension lays over properties it did not construct (see
 * runnerLayer below), and the settings of a run with it on top (resolveSettings). A run the engine makes for
 * itself goes without it, and without the user's profiles (resolveIsolatedSettings).
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import type { RunObserver } from "../events/observer.ts";
import { reasonOf } from "./failureMessage.ts";
import type { EditorLayer, ResolvedSettings, Settings } from "./settings.ts";
import { env, resolveWith, SKIP_REUSE } from "./settings.ts";
import { activeProfile, builtInProfile } from "./profiles.ts";
import { parseReplay } from "./replay.ts";
import type { KeyRef } from "./key.ts";

/**
 * The settings of a property's run: the profile's layers, its own, the editor's on top when the editor runs it;
 * SHRINKSCOPE_REPLAY, when set, replays one case instead of searching.
 */
export function resolveSettings(key: KeyRef, ...layers: (Settings | undefined)[]): ResolvedSettings {
  const resolved = resolveWith(runnerLayer(), key, layers, activeProfile());
  const replay = env("SHRINKSCOPE_REPLAY");
  if (replay === undefined || replay.trim() === "") return resolved;
  return { ...resolved, replay: parseReplay(replay, "SHRINKSCOPE_REPLAY") };
}

/**
 * Settings for a run the engine makes for itself (explore's schedule shrinking): the extension's runner layer
 * does not apply — its database, event tap and limits belong to the user's property, not to this inner run — nor
 * do configure() and registered profiles; the environment's built-in profile (ci in CI) does.
 */
export function resolveIsolatedSettings(key: KeyRef, ...layers: (Settings | undefined)[]): ResolvedSettings {
  return resolveWith(undefined, key, layers, builtInProfile());
}

/**
 * Settings injected by the extension, which runs properties it did not construct: its event tap is added to
 * the user's, and its seed, deadline, database and replay-only mode win over the property's own. Its
 * maxExamples and stepCount are defaults only: a property that sets its own runs the same in the editor as in
 * CI (see resolveWith).
 *
 * Two ways in: the extension's bundled runner (src/runner/main.ts) sets a global before loading the test file;
 * inside the user's own test runner (vitest, jest, mocha, node:test) no global set from outside reaches this
 * module (jest evaluates it in a realm of its own per test file), so the extension names its tap module in
 * SHRINKSCOPE_TAP_MODULE and it is loaded here with Node's own require — outside any runner's module
 * registry, so one tap per process whatever the realm — and hands back the same hook (src/runner/tap.ts).
 */
export function runnerLayer(): EditorLayer | undefined {
  const hook = ((globalThis as Record<symbol, unknown>)[Symbol.for("shrinkscope.runner")] ?? tapHook()) as
    { settings: Settings & { replayOnly?: boolean; fresh?: boolean; observer?: RunObserver } } | undefined;
  if (hook === undefined) return undefined;
  const { replayOnly, fresh, ...rest } = hook.settings;
  if (replayOnly) return { ...rest, phases: ["explicit", "reuse"] };
  return fresh ? { ...rest, [SKIP_REUSE]: true } : rest;
}

/** The extension's tap inside the user's own test runner: the module named by SHRINKSCOPE_TAP_MODULE. */
function tapHook(): unknown {
  const modulePath = env("SHRINKSCOPE_TAP_MODULE");
  if (modulePath === undefined || modulePath === "") return undefined;
  try {
    const load = createRequire(path.join(process.cwd(), "noop.js"));
    return (load(modulePath) as { runnerHook(): unknown }).runnerHook();
  } catch (e) {
    // The run itself must not depend on the editor's feed: warn (once per process, as the tap is cached) and go on.
    if (!tapWarned)
      console.warn(
        `Shrinkscope: the editor's event tap could not be loaded from ${modulePath} (${reasonOf(e)}); the property runs without it`,
      );
    tapWarned = true;
    return undefined;
  }
}
let tapWarned = false;
