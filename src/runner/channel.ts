/**
 * The runner's line to the host, and the host's way to interrupt it — both kept working while a synchronous
 * property holds the main thread's event loop for the whole run.
 *
 * The problem: Node's IPC writes what fits in the OS pipe at once and leaves the rest to the event loop, so
 * during a synchronous property the host sees a pipe-full of events and then nothing until the run ends (or
 * is killed, and the rest is lost); and the host's IPC `stop` is not even read.
 *
 * So an I/O worker thread, whose event loop runs regardless of the main thread:
 *   - writes the messages: when the host forked us with an extra pipe (runnerClient.ts passes its descriptor in
 *     SHRINKSCOPE_EVENTS_FD), the main thread serialises each message, length-prefixes it and hands the bytes
 *     to the worker (a transfer, no copy); the worker writes them in order and counts what was written in
 *     shared memory, which is how the main thread measures its backlog (`congested`). Without that pipe
 *     (forked some other way), messages go over IPC, as before;
 *   - watches stdin: the host writes a byte to stop; the worker sets a shared flag, and the engine's event
 *     tap (main.ts) checks it between test cases and throws StopRun, so the engine unwinds and the runner
 *     answers "stopped" with everything sent. A test case that never returns must still be killed.
 */
import { encodeFrame } from "../shared/frames.ts";
import { Worker } from "node:worker_threads";
import type { RunnerMessage } from "../shared/protocol.ts";

/** Thrown from the event tap to unwind the engine; recognised by main.ts, never shown as a failure. */
export class StopRun extends Error {
  override name = "StopRun";
  constructor() {
    super("the run was stopped");
  }
}

export const EVENTS_FD_ENV = "SHRINKSCOPE_EVENTS_FD";

// Sockets over libuv pipes are non-blocking, so the worker can always be terminated at exit.
const IO_WORKER = `
const { workerData, parentPort } = require("node:worker_threads");
const net = require("node:net");
const { stop, written, fd } = workerData;
try {
  const input = new net.Socket({ fd: 0, readable: true, writable: false });
  input.on("data", () => Atomics.store(stop, 0, 1));
  input.on("error", () => {});
} catch {
  // stdin is not a pipe: no interrupts; the host's kill remains
}
if (fd !== undefined) {
  const out = new net.Socket({ fd, readable: false, writable: true });
  out.on("error", () => {});
  parentPort.on("message", (frame) => {
    const bytes = new Uint8Array(frame);
    out.write(bytes, () => Atomics.add(written, 0, BigInt(bytes.length)));
  });
}
`;

/** Over IPC, the backlog is counted in unconfirmed messages (each at most a few tens of KB). */
const MAX_IPC_IN_FLIGHT = 200;
/** Over the worker's pipe, in bytes. */
const MAX_PIPE_BACKLOG = 8 * 1024 * 1024;

export interface Channel {
  /** Queue a message for the host; messages arrive in order. */
  send(message: RunnerMessage): void;
  /** Too much sent and not yet written out: the outbox sheds test cases. */
  congested(): boolean;
  /** Resolves when everything sent has been written (or after `timeoutMs`). */
  drain(timeoutMs: number): Promise<void>;
  readonly stopRequested: () => boolean;
  readonly requestStop: () => void;
}

export function openChannel(): Channel {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const written = new BigInt64Array(new SharedArrayBuffer(8));
  const raw = process.env[EVENTS_FD_ENV];
  delete process.env[EVENTS_FD_ENV]; // not for the user's own child processes
  const fd = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
  let worker: Worker | undefined;
  try {
    worker = new Worker(IO_WORKER, { eval: true, workerData: { stop, written, fd }, stdout: false, stderr: false });
    worker.on("error", () => {}); // best effort: interrupts stop working, the host's kill remains
    worker.unref();
  } catch {
    worker = undefined;
  }
  const base = { stopRequested: () => Atomics.load(stop, 0) !== 0, requestStop: () => void Atomics.store(stop, 0, 1) };
  const pollUntil = (done: () => boolean, timeoutMs: number) =>
    new Promise<void>((resolve) => {
      const until = Date.now() + timeoutMs;
      const check = () => (done() || Date.now() > until ? resolve() : setTimeout(check, 2));
      check();
    });

  if (worker !== undefined && fd !== undefined) {
    const io = worker;
    let posted = 0;
    const backlog = () => posted - Number(Atomics.load(written, 0));
    return {
      ...base,
      send(message) {
        const frame = encodeFrame(message);
        posted += frame.length;
        io.postMessage(frame.buffer, [frame.buffer]);
      },
      congested: () => backlog() > MAX_PIPE_BACKLOG,
      drain: (timeoutMs) => pollUntil(() => backlog() === 0, timeoutMs),
    };
  }

  let inFlight = 0;
  return {
    ...base,
    send(message) {
      if (!process.connected || process.send === undefined) return;
      process.send(message, () => void inFlight--); // throws on an unserialisable value: the caller's to handle
      inFlight++;
    },
    congested: () => inFlight > MAX_IPC_IN_FLIGHT,
    drain: (timeoutMs) => pollUntil(() => inFlight === 0 || !process.connected, timeoutMs),
  };
}
