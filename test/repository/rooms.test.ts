// The engine's rooms and their ranks (docs/architecture.md, "The engine's rooms"): a file under src/engine/<room>/
// imports only files of its own room or of a lower rank; code outside the engine reaches it only through its
// public entry (index.ts) or its list of named internals (internals.ts); and no module anywhere in src/ or
// webview/ imports itself through a circle of imports, type-only ones included.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Each room of the engine and its rank: a room may import its own files and those of lower ranks only. */
const RANKS: Record<string, number> = {
  util: 0,
  choice: 1,
  print: 1,
  databases: 1,
  events: 2,
  core: 3,
  strategies: 4,
  property: 5,
  schemas: 5,
  stateful: 6,
  schedules: 6,
  fc: 7,
  testProp: 8,
};
/** The engine's files outside any room: what the rest of the repository may import. */
const ENTRIES = [
  "src/engine/index.ts",
  "src/engine/internals.ts",
  "src/engine/jsonSchema.ts",
  "src/engine/zod.ts",
  "src/engine/fc.ts",
  "src/engine/vitest.ts",
  "src/engine/jest.ts",
];

/** Every .ts file under `dir` (relative to the repository), fixtures aside. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => path.join(dir, f).split(path.sep).join("/"));
}

/** The relative modules a file imports (static, dynamic, re-exports, type-only too), as repository paths. */
function importsOf(file: string): string[] {
  // Module specifiers only, not the examples in comments.
  const code = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
  const out: string[] = [];
  for (const m of code.matchAll(/\b(?:from\s+|import\s*\(\s*|import\s+)"(\.[^"]+)"/g)) {
    out.push(path.join(path.dirname(file), m[1]).split(path.sep).join("/"));
  }
  return out;
}

function roomOf(file: string): string | undefined {
  const m = /^src\/engine\/([^/]+)\//.exec(file);
  return m === null ? undefined : m[1];
}

const ENGINE = sources("src/engine");

test("every engine file is in a room, or is one of the engine's entry points", () => {
  const stray = ENGINE.filter((f) => !ENTRIES.includes(f) && (roomOf(f) === undefined || !(roomOf(f)! in RANKS)));
  assert.deepEqual(stray, [], "a new folder under src/engine needs a rank here and a line in docs/architecture.md");
});

test("an engine file imports only its own room or rooms of a lower rank", () => {
  const problems: string[] = [];
  for (const file of ENGINE) {
    const room = roomOf(file);
    if (room === undefined) continue; // index.ts and internals.ts gather the rooms
    for (const target of importsOf(file)) {
      const other = roomOf(target);
      if (other === undefined) problems.push(`${file} imports ${target}, an entry point`);
      else if (other !== room && RANKS[other]! >= RANKS[room]!)
        problems.push(`${file} (${room}, rank ${RANKS[room]}) imports ${target} (${other}, rank ${RANKS[other]})`);
    }
  }
  assert.deepEqual(problems, []);
});

test("outside the engine, code imports it only through index.ts or internals.ts", () => {
  const outside = [...sources("src").filter((f) => !f.startsWith("src/engine/")), ...sources("webview")];
  const problems: string[] = [];
  for (const file of outside) {
    for (const target of importsOf(file)) {
      if (target.startsWith("src/engine/") && !ENTRIES.includes(target)) problems.push(`${file} imports ${target}`);
    }
  }
  assert.deepEqual(problems, []);
});

test("no circle of imports in src/ or webview/", () => {
  const files = [...sources("src"), ...sources("webview")];
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => files.includes(t))]));
  // Tarjan's strongly connected components: a component of more than one file, or a file importing itself, is a circle.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.includes(v)) circles.push(component.sort());
    }
  };
  for (const f of files) if (!indices.has(f)) visit(f);
  assert.deepEqual(circles, []);
});

test("the checks above see what they check: the rooms hold the engine, and imports are read", () => {
  // A regression in the readers (a new import syntax, a moved folder) would make every check pass vacuously.
  for (const room of Object.keys(RANKS))
    assert.ok(
      ENGINE.some((f) => roomOf(f) === room),
      `no files in src/engine/${room}/`,
    );
  assert.ok(importsOf("src/engine/core/engine.ts").includes("src/engine/core/testCase.ts"));
  assert.ok(importsOf("src/shared/protocol.ts").includes("src/engine/internals.ts"), "type-only imports are read");
});

/** The integration rooms and their one door to what is below them at run time (esbuild.mjs bundles it as a package). */
const DOORS: Record<string, string> = { fc: "src/engine/fc/engine.ts", testProp: "src/engine/testProp/fc.ts" };

test("shrinkscope/fc and test.prop reach what is below them at run time only through their doors, which the bundles make packages", () => {
  // Any other runtime import of a lower room would be bundled into dist/fc.* (or dist/vitest.*, dist/jest.*) as a
  // second copy of the engine or of the adapter: their arbitraries would not be the user's engine's strategies.
  // Types may come from anywhere below.
  const problems: string[] = [];
  for (const file of ENGINE.filter((f) => roomOf(f)! in DOORS && !Object.values(DOORS).includes(f))) {
    const code = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    for (const m of code.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)"/gm)) {
      const target = path.join(path.dirname(file), m[3]).split(path.sep).join("/");
      if (m[2] === undefined && roomOf(target) !== roomOf(file) && target !== DOORS[roomOf(file)!])
        problems.push(`${file} imports ${target} at run time`);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(
    importsOf("src/engine/fc/arbitrary.ts").includes("src/engine/fc/engine.ts"),
    "the fc room's imports are read",
  );
});
