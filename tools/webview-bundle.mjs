// The panel's fold worker (webview/foldWorker.ts), bundled as text for the panel's script: the webview starts
// it from a blob: URL, since a webview cannot start a worker from its resource URLs (another origin). Used by
// the build (esbuild.mjs) and by the tests' and benchmarks' harness, so both run the same panel.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** esbuild `define`s for webview/main.ts: the worker's script as a string constant. */
export async function foldWorkerDefine() {
  const r = await build({ entryPoints: [path.join(repo, "webview/foldWorker.ts")], bundle: true, platform: "browser", target: "es2022", format: "iife", minify: true, write: false, logLevel: "silent" });
  return { SHRINKSCOPE_FOLD_WORKER: JSON.stringify(r.outputFiles[0].text) };
}
