/**
 * A batch of the outbox's queue (outbox.ts) and what it keeps: the events in order, with holes where test cases
 * were dropped, and the sample of the cases beyond the head — every case while they fit, then every second,
 * fourth, … (`thin` halves it each time it fills), so the newest kept case is never far behind the newest.
 * `compact` turns a batch into the events sent, `weight` sizes them into messages.
 */
import type { EngineEvent, RunnerMessage, TreeEvent } from "../../shared/protocol.ts";
import type { ConcludedCase, KeptCase } from "../../engine/internals.ts";

export function weight(e: EngineEvent): number {
  switch (e.type) {
    case "test-case":
    case "shrink-target":
      return 1 + e.choices.length + e.spans.length;
    case "shrink-candidate":
      return 1 + e.choices.length;
    default:
      return 1;
  }
}

/** A test case's event: an event as given, or a concluded case projected now. */
export function projected(source: EngineEvent | ConcludedCase): EngineEvent {
  return "keep" in source ? source.event() : source;
}

/** A tail test case kept as a copy, projected at flush (see `observer`). */
export class Later {
  constructor(public kept: KeptCase) {}
}

export interface EventBatch {
  readonly kind: "events";
  /** Dropped test cases leave a hole (undefined) so dropping is O(1); holes are removed at flush. */
  readonly events: (EngineEvent | Later | undefined)[];
  cases: number;
  /** Test cases after the head so far, and the sample's stride: the n-th of them is kept while n % stride is 0. */
  seen: number;
  stride: number;
  /** The kept test cases after the head: their indices in `events`, and their n. */
  readonly tail: number[];
  readonly tailSeen: number[];
  /** Copies of cases the thinning dropped, whose storage the next kept ones reuse. */
  readonly free: Later[];
  /**
   * The batch's newest case when the sample left it out: its place in `events` (−1: the newest was kept) and
   * what it came from. It is sent after all when the batch goes during the call that brought it (a flush
   * inline, as the engine's loop triggers them, or a stop between cases), while a concluded case can still be
   * read: so every batch a synchronous run sends ends on its newest case.
   */
  newest: number;
  newestSource: EngineEvent | ConcludedCase | undefined;
  dropped: number;
}

export interface LogChunk {
  readonly kind: "log";
  readonly stream: "stdout" | "stderr";
  readonly parts: string[];
}

/** The batch's events without holes, tree events that were separated only by dropped cases merged. */
export function compact(batch: EventBatch): EngineEvent[] {
  const out: EngineEvent[] = [];
  let last: EngineEvent | undefined;
  for (const entry of batch.events) {
    if (entry === undefined) continue;
    const e = entry instanceof Later ? entry.kept.event() : entry;
    if (e.type === "tree" && last?.type === "tree") {
      const merged: TreeEvent = {
        type: "tree",
        newNodes: last.newNodes + e.newNodes,
        totalNodes: e.totalNodes,
        exhaustedDepths: [...last.exhaustedDepths, ...e.exhaustedDepths],
        rootExhausted: e.rootExhausted,
      };
      out[out.length - 1] = last = merged;
      continue;
    }
    out.push((last = e));
  }
  return out;
}

/** An empty batch of events. */
export function newEventBatch(): EventBatch {
  return {
    kind: "events",
    events: [],
    cases: 0,
    seen: 0,
    stride: 1,
    tail: [],
    tailSeen: [],
    free: [],
    newest: -1,
    newestSource: undefined,
    dropped: 0,
  };
}

/**
 * Halve the batch's sample beyond the head: every other kept case goes (a hole, its copy's storage kept for
 * reuse), and the stride doubles. Returns how many cases it dropped.
 */
export function thin(batch: EventBatch): number {
  const stride = batch.stride * 2;
  let w = 0;
  let dropped = 0;
  for (let j = 0; j < batch.tail.length; j++) {
    const at = batch.tail[j];
    if (batch.tailSeen[j] % stride === 0) {
      batch.tail[w] = at;
      batch.tailSeen[w++] = batch.tailSeen[j];
      continue;
    }
    const old = batch.events[at];
    if (old instanceof Later) batch.free.push(old);
    batch.events[at] = undefined;
    dropped++;
  }
  batch.dropped += dropped;
  batch.tail.length = w;
  batch.tailSeen.length = w;
  batch.stride = stride;
  return dropped;
}

/** The batch as messages of at most `maxWeight` each (`weight`), its dropped count on the first. */
export function messagesOf(batch: EventBatch, maxWeight: number): RunnerMessage[] {
  const out: RunnerMessage[] = [];
  let w = 0;
  let events: EngineEvent[] = [];
  let dropped = batch.dropped;
  for (const e of compact(batch)) {
    const ew = weight(e);
    if (events.length > 0 && w + ew > maxWeight) {
      out.push({ type: "events", events, dropped });
      events = [];
      dropped = 0;
      w = 0;
    }
    events.push(e);
    w += ew;
  }
  if (events.length > 0 || dropped > 0) out.push({ type: "events", events, dropped });
  return out;
}

/**
 * The DataTree's growth over concluded cases, added up (`add`) and queued as one tree event before whatever is
 * queued next (`queueInto`; compact would merge the tree events of the dropped cases in between anyway), so a
 * run of cases that are not sent makes no event objects.
 */
export class TreeGrowth {
  pending = false;
  private newNodes = 0;
  private totalNodes = 0;
  private exhaustedDepths: number[] = [];
  private rootExhausted = false;

  add(c: ConcludedCase): void {
    this.newNodes += c.newNodes;
    this.totalNodes = c.totalNodes;
    this.rootExhausted = c.rootExhausted;
    if (c.exhaustedDepths.length > 0) for (const d of c.exhaustedDepths) this.exhaustedDepths.push(d);
    this.pending = true;
  }

  /** Queue the growth added up so far, if any, as one event. */
  queueInto(batch: EventBatch): void {
    if (!this.pending) return;
    batch.events.push({
      type: "tree",
      newNodes: this.newNodes,
      totalNodes: this.totalNodes,
      exhaustedDepths: this.exhaustedDepths,
      rootExhausted: this.rootExhausted,
    });
    this.pending = false;
    this.newNodes = 0;
    this.exhaustedDepths = [];
  }
}
