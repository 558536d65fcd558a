/**
 * Async workloads for simTest runs the panel's Timeline is tested on (streams.ts records them):
 *  - the replicated log (reserve the index, then write after an await), whose lost append needs no deviation from FIFO (every event at t = 0);
 *  - a config reload that clears the old value before the new one is parsed, which a reader only sees when
 *    the reload starts before it: exactly one non-FIFO decision, and virtual time that moves.
 */
import assert from "node:assert/strict";
import { sim } from "../../src/engine/index.ts";

async function reserveThenWrite(log: string[], payload: string, delay: number): Promise<void> {
  const index = log.length;
  await sim.sleep(delay);
  log[index] = payload;
}

export async function replicate(writers: number, payloads: string[], delay: number): Promise<void> {
  const log: string[] = [];
  const batch = async () => {
    for (const p of payloads) await reserveThenWrite(log, p, delay);
  };
  await Promise.all(Array.from({ length: writers }, () => sim.spawn(batch)));
  assert.equal(log.length, writers * payloads.length, `lost ${writers * payloads.length - log.length} appends`);
}

/** Reader i arrives at (i + 1) × latency; the reload fetches for `latency`, clears, parses (a turn), then sets. */
export async function reloadWhileReading(readers: number, latency: number): Promise<void> {
  let config: string | undefined = "v1";
  const seen: (string | undefined)[] = [];
  const reads = Array.from({ length: readers }, (_, i) =>
    sim.spawn(
      async () => {
        await sim.sleep(latency * (i + 1));
        seen.push(config);
      },
      `reader ${i + 1}`,
    ),
  );
  const reload = sim.spawn(async () => {
    await sim.sleep(latency);
    config = undefined; // the bug: cleared before the new value is ready
    await sim.sleep(0);
    config = "v2";
  }, "reload");
  await Promise.all([...reads, reload]);
  assert.ok(
    seen.every((c) => c !== undefined),
    `a reader saw no config: ${JSON.stringify(seen)}`,
  );
}
