/**
 * The terminal demo (README: `npm run demo:terminal`, with `-- --machine` for a state machine) against the built
 * package: it must end on the minimal example, and for the machine show the steps disappearing on the way.
 *
 * Needs `npm run build` first (the demo imports "shrinkscope", which resolves to dist/).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { test } from "node:test";

const ROOT = path.resolve(__dirname, "..", "..");

function demo(...args: string[]): string {
  const r = spawnSync(process.execPath, [path.join(ROOT, "examples", "demo.mjs"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, CI: "" },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test("the property demo ends on the minimal failing list", () => {
  const out = demo("3");
  assert.match(out, /Minimal failing arguments \(TypeScript\):\n\s+\[-1, -2\]/);
  assert.match(out, /The same run again: npm run demo:terminal -- 3\n$/);
});

test("the property demo shows each shrink as the list it now is, with its pass, cut to fit a screen; --verbose shows the raw choices", () => {
  const out = demo("3");
  const story = out.slice(0, out.indexOf("FAILED"));
  const shrinks = [...story.matchAll(/^ {2}↓ (.{20}) (\[.*\])$/gm)].map((m) => ({ pass: m[1].trim(), value: m[2] }));
  assert.ok(shrinks.length === 10, `the first 4 and the last 6 shrinks:\n${story}`);
  assert.deepEqual(shrinks.at(-1), { pass: "try small pairs", value: "[-1, -2]" });
  assert.match(story, /^ {2}… \d+ more shrinks …$/m);
  assert.ok(story.split("\n").length < 25, `fits a screen:\n${story}`);
  assert.match(out, /FAILED in \d+ ms: found at test case \d+, then (\d+) shrinks in \d+ calls of the property/);
  const verbose = demo("3", "--verbose");
  const raw = [...verbose.matchAll(/^ {2}↓ .{20} +(\d+) choices {2}\[/gm)];
  assert.equal(raw.length, Number(/then (\d+) shrinks/.exec(out)![1]), "every shrink, as choices");
});

test("the machine demo shows the steps shrinking and ends on the four steps that explain the LRU bug", () => {
  const out = demo("--machine", "3");
  const counts = [...out.matchAll(/↓ .{17} +(\d+) steps/g)].map((m) => Number(m[1]));
  assert.ok(counts.length > 3 && counts[0]! > 4 && counts.at(-1) === 4, `step counts ${counts.join(" ")}`);
  // The values put are free (the explain phase): each put prints its arguments one per line, the value marked.
  const put = (key: string) => [
    "  state.put({",
    `    key: "${key}",`,
    "    value: 0 // or any other generated value",
    "  });",
  ];
  assert.ok(
    out.includes(
      [...put("0"), ...put("1"), '  state.get({ key: "0" });', ...put("2"), "  state.keysMatch();"].join("\n"),
    ),
    out,
  );
  assert.match(out, /Explanation: assertion failed in invariant keysMatch/);
  assert.match(out, /cache keys \["1","2"\], model keys \["0","2"\]/);
});

test("a seed that is not a whole number is refused with the usage, not run as a failing property", () => {
  for (const bad of ["abc", "1.5", "99999999999999999999"]) {
    const r = spawnSync(process.execPath, [path.join(ROOT, "examples", "demo.mjs"), bad], {
      cwd: ROOT,
      encoding: "utf8",
    });
    assert.equal(r.status, 2, `${bad}: ${r.stdout}${r.stderr}`);
    assert.match(
      r.stderr,
      /demo: a seed is a whole number below 2\^53, not ".*" \(usage: npm run demo:terminal -- \[SEED\] \[--machine\] \[--verbose\]\)/,
    );
    assert.equal(r.stdout, "");
  }
});
