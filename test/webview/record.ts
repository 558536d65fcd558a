/**
 * Records real runs (streams.ts) as fixtures: test/webview/fixtures/<name>.json, each the PanelMessages the
 * panel would receive, in the tagged JSON of serialise.ts. The browser tests and bench/panel-replay.mjs
 * replay these. Run: node --import tsx test/webview/record.ts [NAME ...] (only the fixtures of those names, e.g.
 * long-string; all without).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serialise } from "./serialise.ts";
import { ALL } from "./streams.ts";

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
// Stack traces name this checkout's folder; fixtures are committed, so they say "/workspace" instead.
const repoRoot = path.resolve(dir, "..", "..", "..");
const scrub = (text: string) => text.split(repoRoot + path.sep).join("/workspace/");
mkdirSync(dir, { recursive: true });
void (async () => {
  const only = process.argv.slice(2);
  for (const record of ALL) {
    const r = await record();
    if (only.length > 0 && !only.includes(r.name)) continue;
    const file = path.join(dir, `${r.name}.json`);
    writeFileSync(file, scrub(serialise(r.messages)));
    const counts: Record<string, number> = {};
    for (const e of r.events) counts[e.type] = (counts[e.type] ?? 0) + 1;
    console.log(`${path.relative(process.cwd(), file)}: ${r.messages.length} messages, ${JSON.stringify(counts)}`);
  }
})();
