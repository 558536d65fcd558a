/**
 * st.ipAddresses: IPv4 addresses as four octets and IPv6 addresses as eight 16-bit groups, one integer choice
 * each, shrinking toward 0 (`0.0.0.0`, `::`); which of the two, a choice of its own when both are allowed (IPv4
 * the simpler). IPv6 is printed in RFC 5952's canonical text: lower case, no leading zeros, the longest run of
 * two or more zero groups as `::`, and an IPv4-mapped address as `::ffff:a.b.c.d`.
 */
import type { IntegerConstraints } from "../../choice/types.ts";
import type { TestCase } from "../../core/testCase.ts";
import { invalid } from "../../util/errors.ts";
import { describe, Strategy } from "../strategy.ts";
import { checkOptions } from "../options.ts";
import { specialQueued } from "../specials.ts";
import { queueOne } from "./parts.ts";
import type { Special } from "./parts.ts";

export interface IpAddressesOptions {
  /** 4 or 6 (default: either, IPv4 the simpler). */
  version?: 4 | 6;
}

const OCTET: IntegerConstraints = { min: 0, max: 255, shrinkTowards: 0 };
const GROUP: IntegerConstraints = { min: 0, max: 0xffff, shrinkTowards: 0 };
const WHICH: IntegerConstraints = { min: 0, max: 1, shrinkTowards: 0 };
/** How often a fresh address is a special one. */
const SPECIAL_P = 1 / 8;

const V4_SPECIALS: Special[] = [() => [127, 0, 0, 1], () => [255, 255, 255, 255], () => [10, 0, 0, 0]];
const V6_SPECIALS: Special[] = [
  () => [0, 0, 0, 0, 0, 0, 0, 1],
  () => [0, 0, 0, 0, 0, 0xffff, 0, 0],
  (r) => [0, 0, 0, 0, 0, 0xffff, r.int(0, 0xffff), r.int(0, 0xffff)],
  (r) => [0xfe80, 0, 0, 0, r.int(0, 0xffff), r.int(0, 0xffff), r.int(0, 0xffff), r.int(0, 0xffff)],
  (r) => [0x2001, 0xdb8, 0, 0, 0, 0, 0, r.int(0, 0xffff)],
  () => [0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff],
];

/** RFC 5952 text of eight groups. */
export function ipv6Text(g: readonly number[]): string {
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff)
    return `::ffff:${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  // The longest run of two or more zero groups (the first of equal runs) becomes "::".
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j;
  }
  const text = (from: number, to: number) =>
    g
      .slice(from, to)
      .map((x) => x.toString(16))
      .join(":");
  return best < 0 ? text(0, 8) : `${text(0, best)}::${text(best + bestLength, 8)}`;
}

class IpAddresses extends Strategy<string> {
  constructor(readonly version: 4 | 6 | null) {
    super("ip address");
  }
  protected doDraw(tc: TestCase): string {
    const v6 = this.version === null ? tc.drawInteger(WHICH) === 1 : this.version === 6;
    const queued = queueOne(tc, SPECIAL_P, v6 ? V6_SPECIALS : V4_SPECIALS);
    const parts: number[] = [];
    for (let i = 0; i < (v6 ? 8 : 4); i++) parts.push(tc.drawInteger(v6 ? GROUP : OCTET));
    if (queued) specialQueued(tc);
    return v6 ? ipv6Text(parts) : parts.join(".");
  }
}

/**
 * IP addresses as text: IPv4 dotted quads, IPv6 in RFC 5952's canonical form; shrinks toward `0.0.0.0` (`::`
 * with `version: 6`). Favours `127.0.0.1`, `255.255.255.255`, `::1`, `::ffff:0.0.0.0` and link-local and
 * documentation prefixes.
 * @example st.ipAddresses({ version: 6 }) // "::", "::1", "fe80::8a2e:370:7334", …
 */
export function ipAddresses(options?: IpAddressesOptions): Strategy<string> {
  const api = "st.ipAddresses";
  const o = checkOptions(api, options, ["version"]);
  const v = o.version as unknown;
  if (v !== undefined && v !== 4 && v !== 6) invalid(api, `version must be 4 or 6, got ${describe(v)}`);
  return new IpAddresses((v as 4 | 6 | undefined) ?? null);
}
