/**
 * st.json: values that survive `JSON.parse(JSON.stringify(v))` unchanged — null, booleans, finite numbers (−0
 * is 0), strings, arrays and plain objects — nested up to `maxDepth` containers. It is composed of the other
 * strategies, level by level from the deepest up: each level a weighted st.oneOf of null, a boolean, a number,
 * a string and (above the deepest) an array or an object of the level below. st.oneOf shrinks toward its first
 * alternative, so everything shrinks toward `null`; lists and dictionaries shrink by deleting entries.
 *
 * Generation favours what breaks JSON code: strings of quotes, backslashes, control characters, U+2028 and lone
 * surrogates (queued as st.text's values), big and tiny numbers (st.floats' own), `"__proto__"` keys (st.dictionaries'
 * own), empty containers and deep nesting.
 */
import { invalid } from "../util/errors.ts";
import { describe, Strategy } from "./strategy.ts";
import { checkOptions } from "./options.ts";
import { booleans } from "./booleans.ts";
import { floats } from "./floats.ts";
import { text } from "./text.ts";
import { just } from "./just.ts";
import { oneOf } from "./oneOf.ts";
import { lists } from "./lists.ts";
import { dictionaries } from "./dictionaries.ts";
import { queueSpecial, specialQueued } from "./specials.ts";
import type { TestCase } from "../core/testCase.ts";

/** What JSON.parse returns. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface JsonOptions {
  /** How many containers deep a value may nest (default 5; 0: no arrays or objects). */
  maxDepth?: number;
}

/** Strings that JSON code escapes, or fails to: quotes, backslashes, control characters, separators, surrogates. */
const ESCAPES = ['"', "\\", "\n", "\u0000", "\u001f", "\u2028", "\ud800", '\\"', "</script>", "\t\r\b\f"];

/**
 * The strings of a JSON value: st.text's, one in 16 queued from ESCAPES while generating — generated choices of
 * the same string choice, so shrinking moves them character by character like any other string.
 */
class JsonStrings extends Strategy<string> {
  private readonly text = text();
  constructor() {
    super("json string");
  }
  protected doDraw(tc: TestCase): string {
    const special = queueSpecial(tc, 1 / 16, ESCAPES);
    if (special !== null) tc.setReplayQueue([special]);
    const s = this.text.draw(tc);
    if (special !== null) specialQueued(tc);
    return s;
  }
}

export function jsonStrings(): Strategy<string> {
  return new JsonStrings();
}

/** A finite number as JSON keeps it: −0 becomes 0 (JSON.stringify writes it as 0). */
function jsonNumbers(): Strategy<number> {
  return floats({ allowNaN: false, allowInfinity: false }).map((x) => (x === 0 ? 0 : x));
}

/**
 * JSON values; shrinks toward `null`. Favours escapes in strings, big and tiny numbers, empty containers,
 * `"__proto__"` keys and nesting `maxDepth` deep.
 * @example st.json({ maxDepth: 2 }) // null, 0, "", [], { "": [true, 1.5] }, …
 */
export function json(options?: JsonOptions): Strategy<JsonValue> {
  const api = "st.json";
  const o = checkOptions(api, options, ["maxDepth"]);
  const maxDepth = o.maxDepth ?? 5;
  if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > 100)
    invalid(api, `maxDepth must be an integer from 0 to 100, got ${describe(o.maxDepth)}`);
  const leaf = (): [number, Strategy<JsonValue>][] => [
    [2, just(null)],
    [2, booleans()],
    [3, jsonNumbers()],
    [3, jsonStrings()],
  ];
  let level: Strategy<JsonValue> = oneOf(...leaf());
  for (let d = 0; d < maxDepth; d++) {
    const inner = level;
    level = oneOf(...leaf(), [2, lists(inner)], [2, dictionaries(jsonStrings(), inner)]);
  }
  return level;
}
