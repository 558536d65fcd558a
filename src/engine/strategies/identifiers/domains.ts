/**
 * st.domains: RFC 1035 hostnames (with RFC 1123's leading digits): labels of letters, digits and hyphens, none
 * at a label's ends, each 1 to 63 characters, then a top-level label of 2 to 63 letters, 253 characters in all.
 *
 * A name is a list of labels drawn as a list's elements (a "one more?" flag, then the label, in one span), then
 * the top-level label. A label is its first character, its middle (a string over letters, digits and hyphens) and
 * its last character, left out when the middle is empty: valid by construction, and shrinking the middle away
 * leaves a one-character label. Every size follows what is left of the 253, so no name is ever too long.
 * Simplest: `0.aa`.
 */
import type { BooleanConstraints } from "../../choice/types.ts";
import type { TestCase } from "../../core/testCase.ts";
import { Strategy } from "../strategy.ts";
import { checkOptions } from "../options.ts";
import { specialQueued } from "../specials.ts";
import { ALNUM, drawItems, LETTERS, queueOne, StringChoices } from "./parts.ts";
import type { Special } from "./parts.ts";

/** The longest name, and the longest label. */
export const MAX_DOMAIN = 253;
const MAX_LABEL = 63;
const MORE: BooleanConstraints = { p: 0.3 };
const SPECIAL_P = 1 / 10;

const EDGE = new StringChoices(ALNUM);
const MIDDLE = new StringChoices(`${ALNUM}-`);
const TOP = new StringChoices(LETTERS);

/** Long labels and long top-level names, queued for the label about to be drawn: [first, middle, last]. */
const LABEL_SPECIALS: Special[] = [
  (r) => [EDGE.random(r, 1), MIDDLE.random(r, MAX_LABEL - 2), EDGE.random(r, 1)],
  (r) => [EDGE.random(r, 1), `${MIDDLE.random(r, 1)}-${MIDDLE.random(r, 1)}`, EDGE.random(r, 1)],
];

/** One label of at most `room` characters (room ≥ 1). */
function drawLabel(tc: TestCase, room: number): string {
  const first = tc.drawString(EDGE.get(1, 1));
  if (room < 3) return first;
  const queued = queueOne(tc, SPECIAL_P, LABEL_SPECIALS);
  const middle = tc.drawString(MIDDLE.get(0, Math.min(MAX_LABEL, room) - 2));
  // The last character is drawn either way (forced when the middle is empty, so it is not a second way to write
  // the same label): shortening the middle to nothing is then one choice's change, not a shift of all that follows.
  const last = middle === "" ? tc.draw("string", EDGE.get(1, 1), "0") : tc.drawString(EDGE.get(1, 1));
  const label = middle === "" ? first : first + middle + last;
  if (queued) specialQueued(tc);
  return label;
}

/** A hostname of at most `budget` characters (budget ≥ 4: "0.aa"). */
export function drawDomain(tc: TestCase, budget = MAX_DOMAIN): string {
  let name = "";
  // Room for this label, a dot, and the shortest top-level label.
  drawItems(
    tc,
    MORE,
    true,
    () => budget - name.length - 3,
    (_, room) => {
      name += `${drawLabel(tc, room)}.`;
    },
  );
  const queued = queueOne(tc, SPECIAL_P, [
    (r) => [TOP.random(r, Math.min(MAX_LABEL, budget - name.length, 6 + r.int(0, 20)))],
  ]);
  const top = tc.drawString(TOP.get(2, Math.min(MAX_LABEL, budget - name.length)));
  if (queued) specialQueued(tc);
  return name + top;
}

class Domains extends Strategy<string> {
  constructor() {
    super("domain");
  }
  protected doDraw(tc: TestCase): string {
    return drawDomain(tc);
  }
}

/**
 * Hostnames (RFC 1035, RFC 1123): lower-case labels, 63 characters at most each, 253 in all, a top-level label
 * of letters; shrinks toward `0.aa`. Favours 63-character labels, hyphens inside labels and long top-level names.
 * @example st.domains() // "0.aa", "x-9.example.museum", …
 */
export function domains(options?: Record<string, never>): Strategy<string> {
  checkOptions("st.domains", options, []);
  return new Domains();
}
