/**
 * The string formats a schema may name, each a strategy that generates only strings of the format (so a format
 * is a choice, never a filter) and a check with the reading of ajv-formats' "full" mode, which the repository's
 * tests validate against. A format not listed here is an InvalidArgument naming it (a format an engine does not
 * know would pass any string, and the property would test less than the schema says).
 */
import { isIPv6 } from "node:net";
import { st } from "./engine.ts";
import type { Strategy } from "./engine.ts";

/** The years RFC 3339 writes with four digits. */
const FIRST = new Date("0001-01-01T00:00:00.000Z");
const LAST = new Date("9999-12-31T23:59:59.999Z");

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|([+-])(\d{2}):(\d{2}))$/i;
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const HOSTNAME =
  /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days[mo - 1];
}

function validTime(s: string): boolean {
  const m = TIME.exec(s);
  if (m === null) return false;
  const [h, mi, sec] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const offset = m[4] === undefined || (Number(m[5]) <= 23 && Number(m[6]) <= 59);
  return h <= 23 && mi <= 59 && sec <= 60 && offset;
}

function validUri(s: string): boolean {
  if (!SCHEME.test(s)) return false;
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}

interface Format {
  readonly strategy: () => Strategy<string>;
  readonly check: (s: string) => boolean;
}

const isoStrings = () => st.dates({ min: FIRST, max: LAST }).map((d) => d.toISOString());

const FORMATS: Record<string, Format> = {
  "date-time": {
    strategy: isoStrings,
    check: (s) => {
      const t = s.search(/[tT ]/);
      return t > 0 && validDate(s.slice(0, t)) && validTime(s.slice(t + 1));
    },
  },
  date: { strategy: () => isoStrings().map((s) => s.slice(0, 10)), check: validDate },
  time: { strategy: () => isoStrings().map((s) => s.slice(11)), check: validTime },
  email: { strategy: () => st.emails(), check: (s) => EMAIL.test(s) },
  uuid: { strategy: () => st.uuids(), check: (s) => UUID.test(s) },
  uri: { strategy: () => st.urls(), check: validUri },
  hostname: { strategy: () => st.domains(), check: (s) => HOSTNAME.test(s) },
  ipv4: { strategy: () => st.ipAddresses({ version: 4 }), check: (s) => IPV4.test(s) },
  ipv6: { strategy: () => st.ipAddresses({ version: 6 }), check: (s) => isIPv6(s) },
  // OpenAPI's formats of a string whose content is free: any string is one.
  password: { strategy: () => st.text(), check: () => true },
};

/** The formats this module knows, for an error naming what is. */
export const KNOWN_FORMATS = Object.keys(FORMATS);

export function isKnownFormat(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(FORMATS, name);
}

export function formatStrategy(name: string): Strategy<string> {
  return FORMATS[name].strategy();
}

export function formatCheck(name: string): (s: string) => boolean {
  return FORMATS[name].check;
}
