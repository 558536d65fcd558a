// st.uuids, st.ipAddresses, st.domains, st.emails, st.urls: the strategy laws (laws.ts) with independent oracles
// (a UUID regex with its version and variant nibbles, node:net, WHATWG URL, the RFC grammars written out here);
// the documented simplest values; four validator bugs found and shrunk to their minimal examples.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isIPv4, isIPv6 } from "node:net";
import { find, st } from "../../../src/engine/index.ts";
import { strategyLaws } from "./laws.ts";
import { bugRuns } from "./bugScenario.ts";

const QUIET = { database: null, deadline: null, seed: 1 } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-([1-8])[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;

function validDomain(d: string): true | string {
  if (typeof d !== "string") return "not a string";
  if (d.length > 253) return `${d.length} characters`;
  const labels = d.split(".");
  if (labels.length < 2) return "no top-level label";
  if (!/^[a-z]{2,63}$/.test(labels[labels.length - 1])) return "a top-level label that is not 2 to 63 letters";
  if (!labels.every((l) => LABEL.test(l))) return "a label breaks RFC 1123";
  return new URL(`http://${d}/`).hostname === d || "WHATWG reads another hostname";
}

function validEmail(e: string): true | string {
  const at = e.lastIndexOf("@");
  const local = e.slice(0, at);
  if (at < 1 || local.length > 64) return `a local part of ${local.length} characters`;
  if (e.length > 254) return `${e.length} characters`;
  if (!local.split(".").every((a) => ATOM.test(a))) return "the local part is not a dot-atom";
  return validDomain(e.slice(at + 1));
}

function validIp(version?: 4 | 6): (ip: string) => true | string {
  return (ip) => {
    if (version !== 6 && isIPv4(ip)) return true;
    if (version === 4 || !isIPv6(ip)) return "not an address of the version";
    if (ip.startsWith("::ffff:") && ip.includes(".")) return true;
    // Canonical (RFC 5952): WHATWG prints IPv6 hosts that way.
    return new URL(`http://[${ip}]/`).hostname === `[${ip}]` || "not in canonical form";
  };
}

strategyLaws({
  name: "st.uuids()",
  strategy: st.uuids(),
  valid: (u) => UUID.test(u) || "not an RFC 9562 UUID",
  simplest: "00000000-0000-4000-8000-000000000000",
  boundaries: {
    "version 1": (u) => u[14] === "1",
    "version 8": (u) => u[14] === "8",
    "variant nibble b": (u) => u[19] === "b",
    "a group of all f": (u) => u.includes("ffffffff"),
  },
  badOptions: [
    [() => st.uuids({ version: 9 as never }), /^st\.uuids: version must be an integer from 1 to 8, got number 9/],
    [() => st.uuids({ variant: 1 } as never), /^st\.uuids: unknown option "variant"/],
  ],
});

strategyLaws({
  name: "st.uuids({ version: 7 })",
  strategy: st.uuids({ version: 7 }),
  valid: (u) => (UUID.test(u) && u[14] === "7") || "not a version 7 UUID",
  simplest: "00000000-0000-7000-8000-000000000000",
  seeds: 3,
});

strategyLaws({
  name: "st.ipAddresses()",
  strategy: st.ipAddresses(),
  valid: validIp(),
  simplest: "0.0.0.0",
  boundaries: {
    "127.0.0.1": (ip) => ip === "127.0.0.1",
    "255.255.255.255": (ip) => ip === "255.255.255.255",
    "::1": (ip) => ip === "::1",
    "an IPv4-mapped address": (ip) => ip.startsWith("::ffff:"),
  },
  badOptions: [
    [() => st.ipAddresses({ version: 5 as never }), /^st\.ipAddresses: version must be 4 or 6, got number 5/],
  ],
});

strategyLaws({
  name: "st.ipAddresses({ version: 6 })",
  strategy: st.ipAddresses({ version: 6 }),
  valid: validIp(6),
  simplest: "::",
  boundaries: {
    "::ffff:0.0.0.0": (ip) => ip === "::ffff:0.0.0.0",
    ":: inside": (ip) => /[0-9a-f]::[0-9a-f]/.test(ip),
    "no ::": (ip) => !ip.includes("::"),
  },
});

strategyLaws({
  name: "st.domains()",
  strategy: st.domains(),
  valid: validDomain,
  simplest: "0.aa",
  boundaries: {
    "a 63-character label": (d) => d.split(".").some((l) => l.length === 63),
    "a hyphen inside a label": (d) => d.includes("-"),
    "a top-level label of 10 letters or more": (d) => d.split(".").pop()!.length >= 10,
    "four labels or more": (d) => d.split(".").length >= 4,
  },
  badOptions: [[() => st.domains({ tld: "com" } as never), /^st\.domains: unknown option "tld"/]],
});

strategyLaws({
  name: "st.emails()",
  strategy: st.emails(),
  valid: validEmail,
  simplest: "0@0.aa",
  boundaries: {
    "a + tag": (e) => /^[^@]*\+/.test(e),
    "a 64-character local part": (e) => e.indexOf("@") === 64,
    "a dot in the local part": (e) => e.slice(0, e.indexOf("@")).includes("."),
  },
});

strategyLaws({
  name: "st.urls()",
  strategy: st.urls(),
  valid: (u) => {
    const url = new URL(u);
    if (url.href !== u) return `new URL() prints ${url.href}`;
    if (url.protocol !== "http:" && url.protocol !== "https:") return `scheme ${url.protocol}`;
    return validDomain(url.hostname);
  },
  simplest: "http://0.aa/",
  boundaries: {
    "port 65535": (u) => new URL(u).port === "65535",
    "a percent escape": (u) => /%[0-9A-F]{2}/.test(u),
    https: (u) => u.startsWith("https:"),
    "a query": (u) => u.includes("?"),
    "a fragment": (u) => u.includes("#"),
  },
});

test("the simplest values are typed strings", () => {
  const e: string = find(st.emails(), (e) => e.includes("+"), QUIET);
  assert.equal(e, "+@0.aa");
  assert.equal(
    find(st.domains(), (d) => d.includes("-"), QUIET),
    "0-0.aa",
  );
  assert.equal(
    find(st.urls(), (u) => new URL(u).port !== "", QUIET),
    "http://0.aa:0/",
  );
});

/** The bugs, in the shape of bench/bugs/identifiers.mjs: found within 100 examples, and shrunk to one example. */
const BUGS: { name: string; strategy: ReturnType<typeof st.emails>; holds: (v: string) => boolean; minimal: string }[] =
  [
    {
      name: "an e-mail check whose character class forgot +",
      strategy: st.emails(),
      holds: (e) => /^[A-Za-z0-9!#$%&'*/=?^_`{|}~.-]+@[a-z0-9.-]+$/.test(e),
      minimal: '"+@0.aa"',
    },
    {
      name: "a hostname check that wants a letter first (RFC 952, before RFC 1123 allowed digits)",
      strategy: st.domains(),
      holds: (d) => /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/.test(d),
      minimal: '"0.aa"',
    },
    {
      name: "a URL check that reads the port as one to four digits",
      strategy: st.urls(),
      holds: (u) => /^https?:\/\/[^/:]+(:\d{1,4})?(\/|$)/.test(u),
      minimal: '"http://0.aa:10000/"',
    },
    {
      name: "an IPv6 reader that expects eight groups",
      strategy: st.ipAddresses({ version: 6 }),
      holds: (ip) => ip.split(":").length === 8,
      minimal: '"::"',
    },
  ];

for (const bug of BUGS) {
  test(`${bug.name}: found on at least 18 of 20 seeds, minimal ${bug.minimal} on each`, () => {
    const { minimal, foundEarly } = bugRuns(bug.strategy, bug.holds);
    assert.ok(foundEarly >= 18, `found within 100 examples on ${foundEarly}/20 seeds`);
    assert.deepEqual(
      minimal.map((m) => m?.repro),
      minimal.map(() => bug.minimal),
    );
  });
}
