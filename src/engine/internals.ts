/**
 * The engine's named internals: what code outside the engine may use beyond the public API (index.ts). Nothing
 * else under src/engine/ is imported from outside it — test/repository/boundaries.test.ts holds every file
 * outside the engine to this file and index.ts — so moving or splitting an engine file changes this list, not
 * the runner, the extension host or the wire formats.
 *
 * None of it is part of the package's public API: the runner and the editor's tap are bundled with the engine
 * they were built with, and they observe a user's engine (which may be another copy) through interfaces only.
 */

// The events' and the choices' types, which the wire formats between runtimes carry (src/shared/).
export type * from "./events/events.ts";
export type { ChoiceType, ChoiceValue } from "./choice/types.ts";
export type { SortKeyComparison } from "./choice/order.ts";

// Observing a run: the editor's outbox (src/runner/outbox.ts) is a RunObserver, the runner installs one.
export type { ConcludedCase, KeptCase, RunObserver } from "./events/observer.ts";
export { eventObserver } from "./events/observer.ts";

// How a failure of a body that returned false begins: Convert then writes a test that checks the body's result.
export { RETURNED_FALSE } from "./property/executor.ts";

// A simTest failure's schedule, recognised by its shape in what the user's engine threw (src/runner/failureReport.ts).
export { scheduleOf } from "./property/failureSchedule.ts";

// The monotonic clock the engine times with, so the tap and the outbox measure on the same one.
export { now } from "./util/clock.ts";

// The shared failure database, which the editor reads to show failures saved on other machines.
export { decodeChoices } from "./databases/encoding.ts";
export { isRedisUrl, redactUrl } from "./databases/redis/url.ts";
export { openRedisClient, resolveClient } from "./databases/redis/client.ts";
