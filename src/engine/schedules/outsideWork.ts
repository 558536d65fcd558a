/**
 * Real asynchronous work a simulated task started: a setImmediate, a real timer taken before the simulation
 * began, file or network I/O, a worker's message. The seed controls none of it, so a workload that waits on it
 * can deadlock at one turn and pass at the next (React's act() waits for its flushing on a real setImmediate),
 * and its report must say so by name, not guess. Seen with an async hook, on only while a failing seed is run
 * again (a hook on every promise would slow every run); everything made in that window but the world's own
 * turns is counted, named by the task that made it when its context is known.
 */
import { createHook } from "node:async_hooks";
import { isOwnWork, liveStore } from "./world.ts";

/** Resource types that are the simulation's own business or deterministic within a turn. */
const IGNORED = new Set(["PROMISE", "TickObject", "Microtask"]);

/** What a person calls each kind of real work. */
function kindOf(type: string): string {
  if (type === "Immediate") return "setImmediate";
  if (type === "Timeout") return "a real timer (setTimeout or setInterval taken before the simulation started)";
  if (type.startsWith("FSREQ") || type === "FSEVENTWRAP" || type === "STATWATCHER") return "file system I/O";
  if (/TCP|UDP|PIPE|HTTP|TLS|DNS|GETADDRINFO|GETNAMEINFO|QUERY|SHUTDOWN|WRITEWRAP/.test(type)) return "network I/O";
  if (type === "MESSAGEPORT" || type === "WORKER") return "a worker or MessagePort";
  return type;
}

interface Seen {
  readonly task: string;
  readonly kind: string;
  readonly at: number | undefined;
  count: number;
}

/** Run `run`, noting the real asynchronous work its simulated tasks start: one line per task and kind. */
export async function withOutsideWork<T>(run: () => Promise<T>): Promise<{ result: T; outside: string[] }> {
  const seen = new Map<string, Seen>();
  const hook = createHook({
    init(_id, type) {
      if (IGNORED.has(type) || isOwnWork()) return;
      // A task's store is lost across a custom thenable's then() (React's act returns one): the window is one
      // run, so work made in it outside the world's own turns is the workload's.
      const store = liveStore();
      const task = store?.task.label ?? "the workload";
      const kind = kindOf(type);
      const key = `${task}\u0000${kind}`;
      const known = seen.get(key);
      if (known !== undefined) known.count++;
      else seen.set(key, { task, kind, at: store?.world.now, count: 1 });
    },
  });
  hook.enable();
  let result: T;
  try {
    result = await run();
  } finally {
    hook.disable();
  }
  const outside = [...seen.values()].map(
    (s) =>
      `${s.task} started ${s.kind}${s.count > 1 ? ` ×${s.count}` : ""}${s.at !== undefined ? ` (first at t=${s.at} ms)` : ""}`,
  );
  return { result, outside };
}
