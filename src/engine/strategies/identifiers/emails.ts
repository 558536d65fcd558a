/**
 * st.emails: addresses in RFC 5322's addr-spec, dot-atom form: a local part of atoms (letters, digits and
 * ``!#$%&'*+/=?^_`{|}~-``) joined by single dots, 64 characters at most, then `@` and a hostname (st.domains),
 * 254 characters in all. The local part is a list of atoms drawn as a list's elements, so shrinking deletes
 * atoms and shortens them; the simplest address is `0@0.aa`. Generation favours `+` tags (`a+tag@…`) and
 * 64-character local parts.
 */
import type { BooleanConstraints } from "../../choice/types.ts";
import type { TestCase } from "../../core/testCase.ts";
import { Strategy } from "../strategy.ts";
import { checkOptions } from "../options.ts";
import { specialQueued } from "../specials.ts";
import { drawDomain, MAX_DOMAIN } from "./domains.ts";
import { drawItems, queueOne, StringChoices } from "./parts.ts";
import type { Special } from "./parts.ts";

const MAX_LOCAL = 64;
const MAX_ADDRESS = 254;
const ATEXT = new StringChoices("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~-");
const WORD = new StringChoices("abcdefghijklmnopqrstuvwxyz0123456789");
const MORE: BooleanConstraints = { p: 0.2 };
const SPECIAL_P = 1 / 6;

/** Queued for the first atom: a `+` tag, or the longest local part. */
const LOCAL_SPECIALS: Special[] = [
  (r) => [`${WORD.random(r, r.int(1, 8))}+${WORD.random(r, r.int(0, 8))}`],
  (r) => [`${WORD.random(r, 1)}+`],
  (r) => [ATEXT.random(r, MAX_LOCAL)],
];

class Emails extends Strategy<string> {
  constructor() {
    super("email");
  }
  protected doDraw(tc: TestCase): string {
    let local = "";
    // Room for a dot (after the first atom) and one character.
    drawItems(
      tc,
      MORE,
      true,
      (n) => MAX_LOCAL - local.length - (n === 0 ? 0 : 1),
      (n, room) => {
        const queued = n === 0 && queueOne(tc, SPECIAL_P, LOCAL_SPECIALS);
        local += (n === 0 ? "" : ".") + tc.drawString(ATEXT.get(1, room));
        if (queued) specialQueued(tc);
      },
    );
    return `${local}@${drawDomain(tc, Math.min(MAX_DOMAIN, MAX_ADDRESS - local.length - 1))}`;
  }
}

/**
 * E-mail addresses (RFC 5322 addr-spec, dot-atom local part); shrinks toward `0@0.aa`. Favours `+` tags and
 * 64-character local parts, and long hostnames.
 * @example st.emails() // "0@0.aa", "ada+news@x-1.example.org", …
 */
export function emails(options?: Record<string, never>): Strategy<string> {
  checkOptions("st.emails", options, []);
  return new Emails();
}
