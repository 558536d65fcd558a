/**
 * The pasteable replay: a failure's message ends with `Replay: { replay: "<blob>" }`, and `settings.replay` (or
 * SHRINKSCOPE_REPLAY) runs exactly that test case again — no generation, no shrinking, no database. This is what a
 * CI failure needs when there is no shared database: paste the line, debug locally.
 *
 * A blob is `v1.<fingerprint>.<choices>`: the format version; a short hash of the property's strategies (a
 * machine's: its class and spec), so a blob pasted into another property is refused instead of running a case
 * that means something else there; and the minimal example's choice sequence (compactEncoding.ts).
 */
import type { ChoiceValue } from "../choice/types.ts";
import { decodeCompact, encodeCompact } from "../databases/compactEncoding.ts";
import { InvalidArgument } from "../util/errors.ts";
import { shapeHash } from "./key.ts";

const VERSION = "v1";

/** A replay read from a setting or the environment, checked for its form (not yet against a property). */
export interface Replay {
  readonly text: string;
  readonly fingerprint: string;
  readonly choices: readonly ChoiceValue[];
  /** Where it came from, for messages: `replay` (the setting) or `SHRINKSCOPE_REPLAY`. */
  readonly source: string;
}

/**
 * What a property's blobs are fingerprinted by: its definition's `inputShape` (a machine's class and spec), else its
 * strategies.
 */
export interface Fingerprinted {
  readonly strategies: readonly unknown[];
  readonly inputShape?: unknown;
}

/** The fingerprint a blob of this property carries. */
export function fingerprintOf(def: Fingerprinted): string {
  return shapeHash(def.inputShape ?? def.strategies);
}

/** The blob for a failure of `def` whose minimal example is `choices`. */
export function replayBlob(def: Fingerprinted, choices: readonly ChoiceValue[]): string {
  return `${VERSION}.${fingerprintOf(def)}.${encodeCompact(choices)}`;
}

/** The line a failure's message ends with. */
export function replayLine(blob: string): string {
  return `Replay: { replay: ${JSON.stringify(blob)} }`;
}

/**
 * Read a blob (`source` names where it came from, for the error): InvalidArgument saying what is wrong when it is
 * not one — another format version included, since a run on a misread sequence would mislead.
 */
export function parseReplay(text: string, source: string): Replay {
  const bad = (why: string): never => {
    throw new InvalidArgument(
      `${source}: ${why}; a replay is the text inside the quotes of a failure's "Replay: { replay: \\"…\\" }" line`,
    );
  };
  const trimmed = text.trim();
  const parts = trimmed.split(".");
  if (parts.length !== 3) return bad(`${JSON.stringify(shorten(trimmed))} is not a replay`);
  const [version, fingerprint, payload] = parts as [string, string, string];
  if (/^v\d+$/.test(version) && version !== VERSION)
    bad(`this replay was written in format ${version}, and this version of Shrinkscope reads ${VERSION} only`);
  if (version !== VERSION || !/^[0-9a-f]{8}$/.test(fingerprint))
    bad(`${JSON.stringify(shorten(trimmed))} is not a replay`);
  let choices: ChoiceValue[];
  try {
    choices = decodeCompact(payload);
  } catch (e) {
    return bad(`the replay is damaged: ${(e as Error).message} (was it copied whole?)`);
  }
  return { text: trimmed, fingerprint, choices, source };
}

/** The choices to run for `def`, or InvalidArgument when the replay was made by another property. */
export function replayFor(def: Fingerprinted, replay: Replay): readonly ChoiceValue[] {
  const own = fingerprintOf(def);
  if (own !== replay.fingerprint) {
    throw new InvalidArgument(
      `${replay.source}: this replay was made by another property (its strategies have fingerprint ${replay.fingerprint}, this property's ${own}), so its choices would mean other values here; set it on the property whose failure printed it (run that test alone: node --test --test-name-pattern, vitest -t, jest -t)`,
    );
  }
  return replay.choices;
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
