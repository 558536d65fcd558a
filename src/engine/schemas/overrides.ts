/**
 * The options the schema entry points share: `overrides`, strategies for places of the schema by data path
 * (`.user.email`, `.tags[]`, `.` for the root, `.[]` for its items; read as paths from "" for the root) and, for
 * JSON Schema, by JSON pointer (`#/$defs/Money`); and `invalid`, values the schema rejects for one reason. Misuse — an option that is not one, an override that is not a
 * strategy, a place that is not a path, a place the schema does not have — is an InvalidArgument naming the API.
 */
import { InvalidArgument, Strategy } from "./engine.ts";

/** The options of `options`: the overrides, by the place as the readers name it, and `invalid`. */
export function readOptions(
  api: string,
  options: unknown,
  pointers: boolean,
): { overrides: Map<string, Strategy<unknown>>; invalid: boolean } {
  if (options !== undefined && (options === null || typeof options !== "object"))
    throw new InvalidArgument(`${api}: options must be an object ({ overrides, invalid }), got ${String(options)}`);
  const o = (options ?? {}) as { overrides?: Record<string, unknown>; invalid?: unknown };
  for (const key of Object.keys(o))
    if (key !== "overrides" && key !== "invalid")
      throw new InvalidArgument(`${api}: unknown option "${key}" (known: overrides, invalid)`);
  if (o.invalid !== undefined && typeof o.invalid !== "boolean")
    throw new InvalidArgument(`${api}: invalid must be a boolean, got ${typeof o.invalid}`);
  const overrides = new Map<string, Strategy<unknown>>();
  for (const [place, strategy] of Object.entries(o.overrides ?? {})) {
    if (!(strategy instanceof Strategy))
      throw new InvalidArgument(
        `${api}: the override for "${place}" must be a strategy (st.…), got ${typeof strategy}`,
      );
    const path = place.startsWith(".") || place.startsWith("[");
    if (!path && !(pointers && place.startsWith("#")))
      throw new InvalidArgument(
        `${api}: the override "${place}" is not a data path (".user.email", ".tags[]", ".")${pointers ? ' nor a JSON pointer ("#/$defs/Money")' : ""}`,
      );
    overrides.set(place === "." ? "" : place.startsWith(".[") ? place.slice(1) : place, strategy);
  }
  return { overrides, invalid: o.invalid === true };
}

/** InvalidArgument when an override names no place the reading met. */
export function checkOverridesUsed(
  api: string,
  overrides: ReadonlyMap<string, unknown>,
  used: ReadonlySet<string>,
): void {
  const unused = [...overrides.keys()].filter((k) => !used.has(k)).map((u) => `"${u === "" ? "." : u}"`);
  if (unused.length > 0)
    throw new InvalidArgument(
      `${api}: the override${unused.length > 1 ? "s" : ""} ${unused.join(", ")} name${unused.length > 1 ? "" : "s"} no place in the schema`,
    );
}

/**
 * Read a schema: what its own code throws while it is read (a getter, a Proxy's trap, a z.lazy function) is an
 * InvalidArgument naming the API, with the error as its cause; a stack overflow is a schema that never bottoms out.
 */
export function readingErrors<T>(api: string, readIt: () => T): T {
  try {
    return readIt();
  } catch (e) {
    if (e instanceof InvalidArgument) throw e;
    const overflow = e instanceof RangeError && /call stack/.test(e.message);
    throw new InvalidArgument(
      overflow
        ? `${api}: reading the schema never bottoms out (a recursion with nothing but itself in it?)`
        : `${api}: reading the schema threw: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
}
