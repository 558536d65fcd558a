/**
 * What README.md says about the public API stays true; its examples themselves run in readme-examples.test.ts.
 * The public API is src/engine/index.ts, a contract: the README's list of strategies must be the whole `st`
 * namespace (no strategy missing, none that is not there), its list of settings every setting property() accepts,
 * every call it names in inline code (`find(…)`, `st.lists(…)`, `sim.sleep`, `.filter(…)`) and every class it names
 * must exist, and a PropertyFailure must carry the fields the README says it does.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import * as api from "../../src/engine/index.ts";
import * as jsonSchemaApi from "../../src/engine/jsonSchema.ts";
import * as zodApi from "../../src/engine/zod.ts";
import { split } from "./markdown.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const prose = split(fs.readFileSync(path.join(ROOT, "README.md"), "utf8")).prose;

/** The prose of README's section `## title`, up to the next `## `. */
function section(title: string): string {
  const start = prose.findIndex((l) => l === `## ${title}`);
  assert.ok(start >= 0, `README.md has no section "## ${title}"`);
  const end = prose.findIndex((l, i) => i > start && l.startsWith("## "));
  return prose.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

/** The inline code spans of a text. */
const spans = (text: string): string[] => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);

/** What README names that is not the engine's: the test runners' functions, Node's, and a data object's method. */
const NOT_THE_ENGINE = new Set(["test", "it", "describe", "expect", "require", "promisify", "draw"]);

test("README's list of strategies is exactly the st namespace", () => {
  // Each row of the table names its strategies in its first cell: "| `nullable(s)`, `optional(s)` | …".
  const heads = [...section("Strategies").matchAll(/^\| (`[^|]*) \|/gm)].map((m) => m[1]);
  const listed = [...new Set(heads.flatMap((h) => [...h.matchAll(/`(\w+)\(/g)].map((m) => m[1])))];
  assert.deepEqual([...listed].sort(), Object.keys(api.st).sort());
  for (const method of ["map", "filter", "flatMap"]) {
    assert.match(section("Strategies"), new RegExp(`\`\\.${method}\\(`), `README does not list .${method}`);
    assert.equal(typeof (api.Strategy.prototype as unknown as Record<string, unknown>)[method], "function");
  }
});

test("README's settings are exactly the settings property() accepts", () => {
  let known: string[] = [];
  try {
    api.property(api.st.booleans(), () => {}, { "not a setting": 1 } as never);
  } catch (e) {
    known = /\(known: ([^)]*)\)/.exec((e as Error).message)?.[1].split(", ") ?? [];
  }
  assert.ok(known.length > 5, "property() no longer names the known settings when given an unknown one");
  const named = spans(section("Settings")).filter((s) => /^[a-z][A-Za-z]+$/.test(s) && s !== "null" && !(s in api));
  assert.deepEqual([...new Set(named)].sort(), [...known].sort());
});

test("every call and class README names in inline code is in the public API", () => {
  const problems: string[] = [];
  let checked = 0;
  const strategies = section("Strategies");
  for (const span of spans(prose.join("\n"))) {
    for (const m of span.matchAll(/(^|[^\w$.])(\.?)([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))?(\(|\*|<|$)/g)) {
      const [, , dot, head, member, after] = m;
      const where = `\`${span}\``;
      checked++;
      if (dot === ".") {
        if (typeof (api.Strategy.prototype as unknown as Record<string, unknown>)[head] !== "function")
          problems.push(`${where}: .${head} is not a strategy method`);
      } else if (head === "st" || head === "sim") {
        if (member !== undefined && !(member in api[head])) problems.push(`${where}: ${head}.${member} does not exist`);
      } else if (/^[A-Z][a-z]/.test(head) && member === undefined) {
        if (!(head in api) && !(head in globalThis))
          problems.push(`${where}: ${head} is neither exported nor a JavaScript global`);
      } else if (after === "(" && member === undefined && !NOT_THE_ENGINE.has(head)) {
        // In the list of strategies a bare call is a member of st; elsewhere an export.
        const inList = strategies.includes(`\`${span}\``) && head in api.st;
        // The integration entry points' exports count too (shrinkscope/json-schema, shrinkscope/zod).
        if (!(head in api) && !(head in jsonSchemaApi) && !(head in zodApi) && !inList)
          problems.push(`${where}: ${head} is not exported by shrinkscope or its entry points`);
      } else checked--;
    }
  }
  assert.ok(checked > 25, `only ${checked} names checked: is the pattern still right?`);
  assert.deepEqual(problems, []);
});

test("a PropertyFailure carries the fields README says it does", () => {
  const sentence = /`PropertyFailure` with (.*?)\.\s/s.exec(prose.join("\n"))?.[1];
  assert.ok(sentence !== undefined, "README no longer says what a PropertyFailure carries");
  const fields = spans(sentence);
  assert.ok(fields.length >= 4, `only ${fields.join(", ")}`);
  let failure: unknown;
  try {
    api.check(
      api.property(api.st.integers(), (n) => assert.ok(n < 10)),
      { database: null, seed: 1 },
    );
  } catch (e) {
    failure = e;
  }
  assert.ok(failure instanceof api.PropertyFailure);
  for (const field of fields)
    assert.notEqual(
      (failure as unknown as Record<string, unknown>)[field],
      undefined,
      `PropertyFailure has no ${field}`,
    );
});
