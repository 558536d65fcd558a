// Bugs of identifier validators for bench/bugs.mjs: entries in the shape of its `bugs` array.
import fc from "fast-check";
import { st } from "shrinkscope";

export const identifierBugs = [
  {
    name: "email-plus",
    what: "an e-mail check whose character class forgot + (a tagged address, a+news@…)",
    holds: (e) => /^[A-Za-z0-9!#$%&'*/=?^_`{|}~.-]+@[a-z0-9.-]+$/.test(e),
    shrinkscope: () => [st.emails()],
    fastcheck: () => [fc.emailAddress()],
  },
  {
    name: "hostname-digit",
    what: "a hostname check that wants a letter first (RFC 952; RFC 1123 allows a digit)",
    holds: (d) => /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/.test(d),
    shrinkscope: () => [st.domains()],
    fastcheck: () => [fc.domain()],
  },
  {
    name: "url-port",
    what: "a URL check that reads a port as one to four digits",
    holds: (u) => /^https?:\/\/[^/:]+(:\d{1,4})?(\/|$)/.test(u),
    shrinkscope: () => [st.urls()],
    fastcheck: () => [fc.webUrl()],
  },
  {
    name: "ipv6-groups",
    what: "an IPv6 reader that expects eight groups (not ::)",
    holds: (ip) => ip.split(":").length === 8,
    shrinkscope: () => [st.ipAddresses({ version: 6 })],
    fastcheck: () => [fc.ipV6()],
  },
];
