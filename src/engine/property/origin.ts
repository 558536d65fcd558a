/**
 * A failure's identity (its origin): the error's type and the first stack frame outside the engine. Two
 * failures with the same origin are the same bug, for the shrinker (a candidate must fail the same way to be
 * accepted, so it cannot slip from one bug to another), the DataTree (a case's conclusion), the flakiness check
 * and the schedule shrinker (schedules/). It reads what the user's code threw, so it never throws itself.
 */

/**
 * Frames skipped when a failure's origin is the first frame of the user's: the engine's files, Node's internals,
 * and a generator's native resumption frame ("at run.next (<anonymous>)": no place in anyone's source). The
 * generate loop runs cases from inside the engine's generator, the shrinker from outside it: an error the engine
 * raised for the body, such as an unreadable `then`, must have one origin in both.
 */
const ENGINE_FRAME = /[\\/](src[\\/]engine|dist[\\/]engine)|node:internal|^\s+at \S+\.next \(<anonymous>\)$/;

/** Which failure this is. An error that cannot be read is identified by what can be (its type, or "unreadable"). */
export function errorOrigin(error: unknown): string {
  let isError: boolean;
  try {
    isError = error instanceof Error;
  } catch {
    return `thrown ${typeof error} (unreadable)`;
  }
  if (!isError) return `thrown ${error === null ? "null" : typeof error}`;
  const e = error as Error;
  let name: string;
  try {
    name = String(e.name);
  } catch {
    name = "Error (unreadable name)";
  }
  let stack: unknown;
  try {
    stack = e.stack;
  } catch {
    stack = undefined;
  }
  const frames = (typeof stack === "string" ? stack : "").split("\n").filter((l) => /^\s+at /.test(l));
  const frame = frames.find((l) => !ENGINE_FRAME.test(l)) ?? frames[0] ?? "";
  const location = frame.replace(/^\s+at /, "").replace(/^.*\((.*)\)$/, "$1");
  return `${name}@${location}`;
}
