// The bugs of bench/bugs.mjs whose inputs are strings of a format given by a regular expression: a validator or
// parser written by hand for the format, run on what st.fromRegex and fast-check's fc.stringMatching generate for
// the same RegExp. Each entry has the shape of bench/bugs.mjs's `bugs` (name, what, holds, and each library's
// strategies), and is spread into that list.
import fc from "fast-check";
import { st } from "shrinkscope";

/** Country, check digits, then 1 to 30 letters or digits: the shape of an IBAN. */
const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/;

/** The IBAN shape checked by hand, its account part read into a 30-character buffer bounded with `<`, not `<=`. */
function ibanShape(s) {
  const account = s.slice(4);
  return (
    /^[A-Z]{2}[0-9]{2}$/.test(s.slice(0, 4)) && account.length > 0 && account.length < 30 && /^[A-Z0-9]+$/.test(account)
  );
}

/** A JavaScript identifier of at most 16 characters. */
const IDENTIFIER = /^[A-Za-z_$][\w$]{0,15}$/;

/** The identifier check by hand: `$` was allowed after the first character but forgotten at it. */
function identifier(s) {
  return /^[A-Za-z_]/.test(s) && /^[\w$]*$/.test(s.slice(1)) && s.length <= 16;
}

/** A semantic version: three numbers without leading zeros, and an optional pre-release of dot-separated parts. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** Parses a version by splitting on dots: a pre-release with a dot in it ("1.0.0-rc.1") has more than three. */
function parseVersion(s) {
  const parts = s.split(".");
  if (parts.length !== 3) return null;
  const [major, minor, rest] = parts;
  const [patch, pre] = rest.split(/-(.*)/s);
  return { major: Number(major), minor: Number(minor), patch: Number(patch), pre: pre ?? null };
}

export const regexBugs = [
  {
    name: "iban-length",
    what: "an IBAN-shape check that refuses a 30-character account part (the longest valid numbers)",
    holds: (s) => ibanShape(s),
    shrinkscope: () => [st.fromRegex(IBAN)],
    fastcheck: () => [fc.stringMatching(IBAN)],
  },
  {
    name: "identifier-dollar",
    what: "an identifier check that forgot `$` as the first character",
    holds: (s) => identifier(s),
    shrinkscope: () => [st.fromRegex(IDENTIFIER)],
    fastcheck: () => [fc.stringMatching(IDENTIFIER)],
  },
  {
    name: "semver-prerelease",
    what: "a version parser splitting on dots, given a pre-release with a dot in it",
    holds: (s) => parseVersion(s) !== null,
    shrinkscope: () => [st.fromRegex(SEMVER)],
    fastcheck: () => [fc.stringMatching(SEMVER)],
  },
];
