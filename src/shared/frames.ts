/**
 * The framing of runner messages wherever they travel as bytes — the bundled runner's pipe (channel.ts →
 * runnerClient.ts) and the tap's files (tap.ts → src/extension/externalRun.ts): each message v8-serialised,
 * prefixed with its length (4 bytes, big-endian).
 */
import * as v8 from "node:v8";

/** One message as a frame, in a buffer of its own (transferable to a worker). */
export function encodeFrame(message: unknown): Uint8Array<ArrayBuffer> {
  const payload = v8.serialize(message);
  const frame = new Uint8Array(4 + payload.length);
  new DataView(frame.buffer).setUint32(0, payload.length);
  frame.set(payload, 4);
  return frame;
}

/** Frames from a byte stream that arrives in pieces; a frame that does not deserialise is skipped. */
export class FrameDecoder {
  private pending: Buffer = Buffer.alloc(0);

  /** The messages completed by this chunk, in order. */
  push(chunk: Buffer): unknown[] {
    let pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const out: unknown[] = [];
    while (pending.length >= 4) {
      const size = pending.readUInt32BE(0);
      if (pending.length < 4 + size) break;
      const body = pending.subarray(4, 4 + size);
      pending = pending.subarray(4 + size);
      try {
        out.push(v8.deserialize(body));
      } catch {
        // not ours (garbage): skip it, the framing is intact
      }
    }
    this.pending = pending;
    return out;
  }
}
