/**
 * The page's end of the fold (fold.ts): the fold runs in a worker when one starts, else on the page, and the
 * page talks to it through the function startFold returns, whichever it is.
 */
import { createFold, type FoldIn, type FoldOut } from "./fold.ts";

/** The fold worker's script (webview/foldWorker.ts, bundled), put here by the build (tools/webview-bundle.mjs). */
declare const SHRINKSCOPE_FOLD_WORKER: string | undefined;

/**
 * The fold: in a worker when one starts (its script is in this one, started from a blob: URL), else on this
 * thread. What the page sends before the worker first answers is kept, so a worker that cannot start (a CSP,
 * a browser without workers) loses nothing: the page folds it all itself. (A message the fold cannot fold is
 * logged there and skipped; the worker goes on.)
 */
export function startFold(folded: (out: FoldOut) => void): (input: FoldIn) => void {
  let local: ((input: FoldIn) => void) | undefined;
  let early: FoldIn[] | undefined = [];
  const onPage = (why: unknown): void => {
    console.warn("shrinkscope: folding on the page, not in a worker:", why);
    document.body.dataset.fold = "page";
    local = createFold((out) => queueMicrotask(() => folded(out)));
    for (const i of early ?? []) local(i);
    early = undefined;
  };
  try {
    if (typeof SHRINKSCOPE_FOLD_WORKER !== "string") throw new Error("no worker script in this build");
    const worker = new Worker(URL.createObjectURL(new Blob([SHRINKSCOPE_FOLD_WORKER], { type: "text/javascript" })), {
      name: "shrinkscope-fold",
    });
    document.body.dataset.fold = "worker";
    worker.onmessage = (e: MessageEvent<FoldOut>) => {
      early = undefined;
      folded(e.data);
    };
    worker.onerror = (e) => {
      if (early === undefined) return; // it started: an error there was logged there
      worker.terminate();
      onPage(e.message || "the worker did not start");
    };
    return (input) => {
      if (local !== undefined) return local(input);
      if (early !== undefined) {
        early.push(input);
        worker.postMessage(input);
        return;
      }
      // A batch's bytes move to the worker without a copy (the page has no further use for them).
      const wire = input.type === "message" ? (input.data as { wire?: unknown }).wire : undefined;
      worker.postMessage(input, wire instanceof Uint8Array ? [wire.buffer] : []);
    };
  } catch (e) {
    onPage(e);
    return (input) => local!(input);
  }
}
