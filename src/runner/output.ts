/**
 * Forward what the user's code prints: every write to process.stdout/stderr (console.* included, it writes
 * through them) is copied to `sink` and still written to the real stream, so the process output — which the
 * host keeps to explain a crash — stays complete.
 */
type Write = typeof process.stdout.write;

export function captureOutput(sink: (stream: "stdout" | "stderr", text: string) => void): () => void {
  const restore: (() => void)[] = [];
  for (const stream of ["stdout", "stderr"] as const) {
    const target = process[stream];
    const original = target.write;
    const patched = function (this: unknown, chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
      try {
        sink(stream, toText(chunk, encoding));
      } catch {
        // forwarding is best effort; the real write below must happen regardless
      }
      return (original as (...a: unknown[]) => boolean).call(target, chunk, encoding, callback);
    };
    target.write = patched as Write;
    restore.push(() => {
      target.write = original;
    });
  }
  return () => restore.forEach((r) => r());
}

function toText(chunk: unknown, encoding: unknown): string {
  if (typeof chunk === "string") return chunk;
  if (chunk instanceof Uint8Array)
    return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString(
      typeof encoding === "string" && Buffer.isEncoding(encoding) ? encoding : "utf8",
    );
  return String(chunk);
}
