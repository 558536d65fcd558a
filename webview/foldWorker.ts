/**
 * The panel's worker: runs the fold (fold.ts) on its own thread. Built into the panel's script as text and
 * started from a blob: URL (the webview's CSP allows `worker-src blob:` and nothing else for workers).
 */
import { createFold, type FoldIn } from "./fold.ts";

const scope = self as unknown as {
  postMessage(m: unknown): void;
  onmessage: ((e: MessageEvent<FoldIn>) => void) | null;
};
const handle = createFold((out) => scope.postMessage(out));
scope.onmessage = (e) => handle(e.data);
