// How the panel's script is bundled, for the build (esbuild.mjs) and for the tests' and benchmarks' harness,
// so both run the same panel. Its fold worker (webview/foldWorker.ts) is bundled first and put into it as
// text: the webview starts it from a blob: URL, since a webview cannot start a worker from its resource URLs
// (another origin).
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const browser = { bundle: true, platform: "browser", target: "es2022", format: "iife", minify: true };

/** esbuild options for webview/main.ts (add an outfile, or write: false). */
export async function webviewBuildOptions() {
  const worker = await build({
    ...browser,
    entryPoints: [path.join(repo, "webview/foldWorker.ts")],
    write: false,
    logLevel: "silent",
  });
  return {
    ...browser,
    entryPoints: [path.join(repo, "webview/main.ts")],
    define: { SHRINKSCOPE_FOLD_WORKER: JSON.stringify(worker.outputFiles[0].text) },
  };
}
