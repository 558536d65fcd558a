// The repository stands alone (docs/contributing.md): the docs cite only files that are in it. Every relative
// link in README.md, CHANGELOG.md and docs/ must lead to a file or folder here (and an #anchor into a Markdown
// file to one of its headings), every repository path the docs name in code must exist, and no file may cite the
// design notes the project began from, which whoever clones the repository does not have.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { anchors, relativeLinks, split } from "./markdown.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const docs = [
  "README.md",
  "CHANGELOG.md",
  ...fs
    .readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  "tools/vscode-e2e/README.md",
];

/** The .gitignore patterns of the repository (root and nested), for paths the docs name that are made at run time. */
function ignored(rel: string): boolean {
  const parts = rel.replace(/\/$/, "").split("/");
  for (let depth = 0; depth < parts.length; depth++) {
    const dir = parts.slice(0, depth).join("/");
    const file = path.join(root, dir, ".gitignore");
    if (!fs.existsSync(file)) continue;
    const below = parts.slice(depth);
    for (const raw of fs.readFileSync(file, "utf8").split("\n")) {
      const pattern = raw.trim().replace(/\/$/, "");
      if (pattern === "" || pattern.startsWith("#") || pattern.includes("*")) continue;
      if (pattern.includes("/")) {
        const anchored = pattern.replace(/^\//, "").split("/");
        if (anchored.every((p, i) => below[i] === p)) return true;
      } else if (below.includes(pattern)) return true;
    }
  }
  return false;
}

const TOP = ["src", "test", "bench", "tools", "webview", "scripts", "examples", "docs", "media"];

test("every relative link in README.md, CHANGELOG.md and docs/ leads to a file in the repository, and every #anchor to a heading", () => {
  const problems: string[] = [];
  let checked = 0;
  for (const doc of docs) {
    for (const { target, line } of relativeLinks(fs.readFileSync(path.join(root, doc), "utf8"))) {
      checked++;
      const [file, anchor] = target.split("#") as [string, string | undefined];
      const resolved =
        file === "" ? path.join(root, doc) : path.resolve(path.dirname(path.join(root, doc)), decodeURIComponent(file));
      const where = `${doc}:${line}: ${target}`;
      if (path.relative(root, resolved).startsWith("..")) problems.push(`${where} leads outside the repository`);
      else if (!fs.existsSync(resolved)) problems.push(`${where} does not exist`);
      else if (
        anchor !== undefined &&
        resolved.endsWith(".md") &&
        !anchors(fs.readFileSync(resolved, "utf8")).has(anchor)
      ) {
        problems.push(`${where}: no heading with that anchor`);
      }
    }
  }
  assert.ok(checked > 30, `only ${checked} links found: is the link pattern still right?`);
  assert.deepEqual(problems, []);
});

test("every repository path the docs name in code (`src/…`, commands, code blocks) exists", () => {
  const problems: string[] = [];
  let checked = 0;
  for (const doc of docs) {
    const { prose, code } = split(fs.readFileSync(path.join(root, doc), "utf8"));
    const spans = prose.map((l) => [...l.matchAll(/`([^`]+)`/g)].map((m) => m[1]).join(" "));
    [...spans, ...code].forEach((text, i) => {
      for (const raw of text.split(/\s+/)) {
        const word = raw.replace(/^["'(]+|["'),;:.]+$/g, "");
        if (!TOP.some((t) => word === t || word.startsWith(`${t}/`))) continue;
        // Globs and placeholders (test/e2e/*.e2e.mjs, NAME.e2e.mjs) name no single file.
        if (/[*<>{}…]|\bNAME\b/.test(word)) continue;
        const rel = word.replace(/\/$/, "");
        if (ignored(rel)) continue; // made at run time (screenshots, install.log)
        checked++;
        if (!fs.existsSync(path.join(root, rel)))
          problems.push(`${doc}:${(i % prose.length) + 1}: ${word} does not exist`);
      }
    });
  }
  assert.ok(checked > 20, `only ${checked} paths found: is the path pattern still right?`);
  assert.deepEqual(problems, []);
});

test("no file cites documents outside the repository", () => {
  // Built from parts, so that this file neither cites them itself nor shows up when they are searched for.
  const names = [
    ["BENCH", "MARKS.md"],
    ["DES", "IGN.md"],
    ["STY", "LE.md"],
    ["VSCODE-", "E2E"],
    ["sha", "red/VSCODE"],
  ].map(([a, b]) => a + b);
  // A relative path to a folder named like theirs is fine while it stays inside the repository (src/shared/).
  const outside = new RegExp(`((?:\\.\\./)+)${"sha" + "red"}/`, "g");
  const skip = new Set(["node_modules", "dist", ".git"]);
  const problems: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (skip.has(entry.name) || ignored(rel)) continue;
      if (entry.isDirectory()) walk(rel);
      else if (
        entry.isFile() &&
        entry.name !== "package-lock.json" &&
        !/\.(png|jpe?g|gif|ico|vsix|woff2?)$/.test(entry.name)
      ) {
        const text = fs.readFileSync(path.join(root, rel), "utf8");
        for (const name of names) if (text.includes(name)) problems.push(`${rel} cites ${name}`);
        for (const m of text.matchAll(outside)) {
          const target = path.relative(root, path.resolve(root, path.dirname(rel), m[0]));
          if (target.startsWith("..")) problems.push(`${rel} cites ${m[0]}`);
        }
      }
    }
  };
  walk("");
  assert.deepEqual(problems, []);
});
