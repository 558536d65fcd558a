/**
 * Settings for every property of a process: `configure(settings)` sets defaults, `registerProfile(name, settings)`
 * names a set that SHRINKSCOPE_PROFILE=name selects. Called from a test runner's setup file (vitest's and jest's
 * setupFiles, `node --import ./setup.js`), they hold for every property that runs after.
 *
 * Built-in profiles: `default` (a developer's machine: fresh seeds, saved failures in .shrinkscope/examples),
 * `ci` (derandomised, no local database folder — what a run in CI gets without asking) and `dev` (20 examples
 * a property, for quick feedback while editing). Without SHRINKSCOPE_PROFILE the profile is `ci` where the CI
 * variable says so, else `default`; a profile you register starts from that same one, so it stays derandomised
 * in CI; registering a built-in name adds to it.
 *
 * Layers, the later winning: a built-in profile's settings, configure()'s, the selected profile's registered
 * settings, then the property's own (and check()'s, and the editor's). A profile chosen at the command line
 * thus wins over defaults set in code, and a property's own settings over both.
 *
 * The state lives on globalThis under a registered symbol: a setup file and a test file may load two copies of
 * the engine (an ES module and a CommonJS one), and both must see the same profiles.
 */
import { invalid, InvalidArgument } from "../util/errors.ts";
import type { ActiveProfile, Settings } from "./settings.ts";
import { env, inCI, validateSettings } from "./settings.ts";

/** Settings that belong to one property: a process-wide value would make every property the same one. */
const PER_PROPERTY = ["key", "examples", "replay"] as const;

export const BUILT_IN_PROFILES = ["default", "ci", "dev"] as const;

/** A built-in profile: its settings, and whether the default folder database is off under it. */
interface BuiltIn {
  readonly settings: Settings;
  readonly noLocalDatabase: boolean;
}

const BUILT_IN: Readonly<Record<(typeof BUILT_IN_PROFILES)[number], BuiltIn>> = {
  default: { settings: {}, noLocalDatabase: false },
  ci: { settings: { derandomize: true }, noLocalDatabase: true },
  dev: { settings: { maxExamples: 20 }, noLocalDatabase: false },
};

interface ProfileState {
  configured: Settings;
  readonly registered: Map<string, Settings>;
}

const STATE = Symbol.for("shrinkscope.profiles");

function state(): ProfileState {
  const g = globalThis as { [STATE]?: ProfileState };
  return (g[STATE] ??= { configured: {}, registered: new Map() });
}

function checkShared(api: string, settings: unknown): asserts settings is Settings {
  if (settings === undefined || settings === null || typeof settings !== "object" || Array.isArray(settings))
    invalid(api, `settings must be an object, got ${settings === null ? "null" : typeof settings}`);
  validateSettings(api, settings);
  for (const k of PER_PROPERTY) {
    if ((settings as Settings)[k] !== undefined)
      invalid(api, `${k} belongs to one property: give it in that property's settings, not to every property`);
  }
}

/**
 * Defaults for every property in this process (a property's own settings win). Each call adds the settings it
 * names to those given before; a setting given as `undefined` goes back to its default.
 * @example configure({ maxExamples: 500, deadline: null }); // in a test runner's setup file
 */
export function configure(settings: Settings): void {
  checkShared("configure", settings);
  const next: Record<string, unknown> = { ...state().configured, ...settings };
  for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
  state().configured = next as Settings;
}

/**
 * Name a set of settings; SHRINKSCOPE_PROFILE=name selects it for a run. A new name starts from the profile a run
 * gets without one (`ci` in CI, else `default`); a built-in name (`default`, `ci`, `dev`) adds to that profile.
 * Registering a name again replaces what was registered under it.
 * @example registerProfile("thorough", { maxExamples: 2000 }); // SHRINKSCOPE_PROFILE=thorough npm test
 */
export function registerProfile(name: string, settings: Settings): void {
  if (typeof name !== "string" || name.trim() === "" || name !== name.trim())
    invalid(
      "registerProfile",
      `the name must be a non-empty string without surrounding spaces, got ${JSON.stringify(name) ?? String(name)}`,
    );
  checkShared("registerProfile", settings);
  state().registered.set(name, { ...settings });
}

/** The built-in profile of the environment (ci in CI, else default), without configure()'s or registered settings. */
export function builtInProfile(): ActiveProfile {
  const name = inCI() ? "ci" : "default";
  const { settings, noLocalDatabase } = BUILT_IN[name];
  return { name, layers: [settings], noLocalDatabase };
}

/** The profile named by SHRINKSCOPE_PROFILE (InvalidArgument for a name nobody registered), else ci or default. */
export function activeProfile(): ActiveProfile {
  const raw = env("SHRINKSCOPE_PROFILE");
  const { configured, registered } = state();
  const fallback = inCI() ? "ci" : "default";
  const name = raw === undefined || raw.trim() === "" ? fallback : raw.trim();
  const builtIn = BUILT_IN[name as keyof typeof BUILT_IN] as BuiltIn | undefined;
  const own = registered.get(name);
  if (builtIn === undefined && own === undefined) {
    const known = [...new Set([...BUILT_IN_PROFILES, ...registered.keys()])].join(", ");
    throw new InvalidArgument(
      `SHRINKSCOPE_PROFILE=${name}: no profile of that name (known: ${known}); register it with registerProfile(${JSON.stringify(name)}, settings) in a setup file that runs before the tests`,
    );
  }
  const base = builtIn ?? BUILT_IN[fallback];
  return { name, layers: [base.settings, configured, own ?? {}], noLocalDatabase: base.noLocalDatabase };
}
