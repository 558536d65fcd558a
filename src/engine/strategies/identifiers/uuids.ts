/**
 * st.uuids: RFC 9562 UUIDs in lower case — 122 random bits as five integer choices (the node's 48 bits as two),
 * the version nibble a choice of its own unless given, and the variant bits (10) fixed. Each choice shrinks
 * toward 0, so the simplest UUID is all zero bits but the version's and the variant's.
 */
import type { IntegerConstraints } from "../../choice/types.ts";
import type { TestCase } from "../../core/testCase.ts";
import { invalid } from "../../util/errors.ts";
import { describe, Strategy } from "../strategy.ts";
import { checkOptions } from "../options.ts";

export interface UuidsOptions {
  /** The version nibble, 1 to 8 (default: any of them, shrinking toward 4, the random one). */
  version?: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
}

const bits = (n: number): IntegerConstraints => ({ min: 0, max: 2 ** n - 1, shrinkTowards: 0 });
const B32 = bits(32);
const B16 = bits(16);
const B12 = bits(12);
const B14 = bits(14);
const B24 = bits(24);
const VERSION: IntegerConstraints = { min: 1, max: 8, shrinkTowards: 4 };

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

class Uuids extends Strategy<string> {
  constructor(readonly version: number | null) {
    super("uuid");
  }
  protected doDraw(tc: TestCase): string {
    const version = this.version ?? tc.drawInteger(VERSION);
    const timeLow = tc.drawInteger(B32);
    const timeMid = tc.drawInteger(B16);
    const timeHigh = tc.drawInteger(B12);
    const clock = tc.drawInteger(B14);
    const node = hex(tc.drawInteger(B24), 6) + hex(tc.drawInteger(B24), 6);
    // The variant: the clock sequence's top two bits are 1 0.
    const clockField = 0x8000 | clock;
    return `${hex(timeLow, 8)}-${hex(timeMid, 4)}-${version}${hex(timeHigh, 3)}-${hex(clockField, 4)}-${node}`;
  }
}

/**
 * UUIDs as RFC 9562 writes them, in lower case, with the version nibble and the variant bits set; shrinks toward
 * `00000000-0000-4000-8000-000000000000` (the version's own nibble when one is given).
 * @example st.uuids({ version: 4 }) // "00000000-0000-4000-8000-000000000000", "9f1c…-…", …
 */
export function uuids(options?: UuidsOptions): Strategy<string> {
  const api = "st.uuids";
  const o = checkOptions(api, options, ["version"]);
  const v = o.version as unknown;
  if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 8))
    invalid(api, `version must be an integer from 1 to 8, got ${describe(v)}`);
  return new Uuids((v as number | undefined) ?? null);
}
