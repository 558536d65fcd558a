/**
 * README.md is also the front page of the npm package (on the registry's site and in node_modules/shrinkscope)
 * and of the .vsix (the extension's page in VS Code). There, a relative link or image can only lead to a file the
 * package ships: .npmignore and .vscodeignore list what each ships. This asks npm (`npm pack --dry-run --json`)
 * and vsce (`vsce ls`) for the files each would pack, and checks that every relative link and image in the packed
 * README, and in every packed Markdown page (the docs it links to, the changelog), leads to a packed file — and
 * each #anchor to a heading of the page it names. The repository-wide check (docs-links.test.ts) cannot see this:
 * there every file exists.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { anchors, relativeLinks } from "./markdown.ts";

const ROOT = path.resolve(__dirname, "..", "..");

/** The problems of the Markdown pages among `files` (paths relative to the package root, "/"-separated). */
function brokenLinks(files: readonly string[]): string[] {
  const shipped = new Set(files);
  const folders = new Set(
    files.flatMap((f) =>
      f
        .split("/")
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
    ),
  );
  const pages = files.filter((f) => f.endsWith(".md") && !f.startsWith("dist/"));
  assert.ok(pages.includes("README.md"), `README.md is not in the package: ${files.join(", ")}`);
  const problems: string[] = [];
  for (const page of pages) {
    for (const { target, line } of relativeLinks(fs.readFileSync(path.join(ROOT, page), "utf8"))) {
      const [file, anchor] = target.split("#") as [string, string | undefined];
      const resolved =
        file === ""
          ? page
          : path.posix
              .normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(file)))
              .replace(/\/$/, "");
      const where = `${page}:${line}: ${target}`;
      if (resolved.startsWith("..")) problems.push(`${where} leads outside the package`);
      else if (!shipped.has(resolved) && !folders.has(resolved))
        problems.push(`${where}: ${resolved} is not in the package`);
      else if (
        anchor !== undefined &&
        resolved.endsWith(".md") &&
        !anchors(fs.readFileSync(path.join(ROOT, resolved), "utf8")).has(anchor)
      ) {
        problems.push(`${where}: no heading with that anchor`);
      }
    }
  }
  return problems;
}

test("every relative link and image in the npm package's README and Markdown pages leads to a file in the package", () => {
  // --ignore-scripts: only the file list is wanted (the package has no pack scripts today; a future one must not run here).
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  const files = pack.files.map((f) => f.path);
  assert.ok(
    files.includes("dist/engine.mjs") || !fs.existsSync(path.join(ROOT, "dist", "engine.mjs")),
    "the engine build is not in the package",
  );
  assert.deepEqual(brokenLinks(files), []);
  // Every entry point package.json exports is in the package (shrinkscope/json-schema's build was left out once).
  const exported = JSON.stringify(JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).exports);
  const targets = [...exported.matchAll(/"\.\/(dist\/[^"]+)"/g)].map((m) => m[1]);
  if (fs.existsSync(path.join(ROOT, "dist", "engine.mjs")))
    assert.deepEqual(
      targets.filter((t) => !files.includes(t)),
      [],
      "package.json exports files the package does not hold",
    );
});

test("every relative link and image in the .vsix's README and Markdown pages leads to a file in the .vsix", () => {
  const out = execFileSync(
    process.execPath,
    [path.join(ROOT, "node_modules", "@vscode", "vsce", "vsce"), "ls", "--no-dependencies"],
    { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  const files = out
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  assert.ok(files.includes("package.json"), `vsce ls printed no file list:\n${out}`);
  assert.deepEqual(brokenLinks(files), []);
});
