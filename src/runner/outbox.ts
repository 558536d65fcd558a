/**
 * The runner's outgoing queue: engine events and the user's output, batched into few messages, in order.
 *
 * Streaming must never block or noticeably slow the engine, and a synchronous property keeps the event loop
 * busy for the whole run — so timers cannot be relied on: every `event()` call checks the clock itself and
 * flushes inline when the batch is `flushMs` old (or holds `maxBatch` events). A timer covers the async
 * case, where the loop is free but events trickle in.
 *
 * Shedding. Serialising a test case costs ~20 µs (its choices with their constraints), several times what a
 * fast engine spends running it, and no panel can show thousands a second. So a batch keeps its first
 * `keepHead` test-case events and, beyond that, a sample of at most `keepTail` spread over the rest (every
 * case while they fit, then every second, fourth, … — the sample thinned by half each time it fills, so the
 * newest kept case is never far behind the newest): at most (head + tail) per flushMs, ~3000/s by default, the
 * rest counted in `dropped`. Under back-pressure — the channel reports a backlog of sent-but-unwritten data
 * (channel.ts), i.e. the host reads slowly — the head shrinks to `pressureHead`.
 *
 * Messages are kept small (`maxMessageWeight`, ~30 KB, weighing an event as one plus one per choice and span
 * it carries): the host can use each as soon as it arrives, and over IPC during a synchronous property a
 * message that does not fit the OS pipe at once would hold back everything after it.
 *
 * A budget on top (`costShare`): the time the outbox spends projecting, serialising and sending is measured, and
 * when it is over that share of the run's time (a fast property: its cases are cheap next to their events) the
 * head and the sample shrink in proportion, down to a few cases a batch, growing back when there is room — so
 * the panel's feed costs a fast run about that share, while a slow property's cases are all sent, and so are a
 * short run's (the budget applies once the outbox has spent 25 ms in the run).
 *
 * Only test-case events are dropped. Tree events between dropped cases are merged into one (new-node counts
 * summed, the latest totals kept); everything else (run start, phases, shrink passes, candidates and
 * targets, the result) is always sent as is.
 *
 * As the engine's observer (`observer`, engine/observer.ts), the outbox projects only the test cases it keeps:
 * the head's at once, and the sample's from a copy of their choices and spans (reusing the storage of the ones
 * the thinning drops), when the batch is sent. So a case outside the sample costs the engine nothing, and the
 * copies are a few hundred a batch of tens of thousands.
 */
import * as timers from "node:timers";
import { now } from "../engine/internals.ts";
import type { EngineEvent, RunnerMessage, TreeEvent } from "../shared/protocol.ts";
import { eventObserver, type ConcludedCase, type KeptCase, type RunObserver } from "../engine/internals.ts";

// The engine's clock and the timers as they were at load, not the globals: a test that fakes timers
// (vi.useFakeTimers, jest's, sinon's) replaces the globals and node:timers' exports, and a frozen clock or a
// fake timer would hold every batch back.
const setTimeout = timers.setTimeout;
const clearTimeout = timers.clearTimeout;

export interface OutboxOptions {
  /** Flush a batch once it is this old (ms). */
  readonly flushMs: number;
  /** Flush a batch once it holds this many events (besides tree events). */
  readonly maxBatch: number;
  /** Test-case events kept at the start of each batch, and at most in the sample of the rest. */
  readonly keepHead: number;
  readonly keepTail: number;
  /** The head under back-pressure. */
  readonly pressureHead: number;
  /** Split a batch into messages of at most this weight (~100 bytes serialised per unit). */
  readonly maxMessageWeight: number;
  /** Output characters forwarded per flush; the excess is counted and reported in one line. */
  readonly maxLogChars: number;
  /** Send the run's first test case at once, not when its batch is due: it is what the person who clicked waits for. */
  readonly firstCaseAtOnce: boolean;
  /** The share of the time the outbox's own work may take (1: no budget, every batch keeps its head and sample). */
  readonly costShare: number;
}

export const DEFAULT_OUTBOX: OutboxOptions = {
  flushMs: 50,
  maxBatch: 2000,
  keepHead: 100,
  keepTail: 50,
  pressureHead: 25,
  maxMessageWeight: 300,
  maxLogChars: 256 * 1024,
  firstCaseAtOnce: true,
  costShare: 0.05,
};

/** The head and sample never shrink below this share of keepHead and keepTail (at least one case each). */
const MIN_SCALE = 1 / 32;
/** The budget is judged over at least this long (ms): a flush right after another says little. */
const BUDGET_WINDOW_MS = 20;
/**
 * …and only once the outbox has spent this long (ms) on its work in the run: a short run (a few hundred cases)
 * is sent whole, the panel showing every case, at a cost no one waits for.
 */
const BUDGET_FREE_MS = 25;

/** Where the messages go: the runner's channel to the host. */
export interface Sink {
  send(message: RunnerMessage): void;
  /** Sent but not yet written out is piling up. */
  congested(): boolean;
}

function weight(e: EngineEvent): number {
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
function projected(source: EngineEvent | ConcludedCase): EngineEvent {
  return "keep" in source ? source.event() : source;
}

/** A tail test case kept as a copy, projected at flush (see `observer`). */
class Later {
  constructor(public kept: KeptCase) {}
}

interface EventBatch {
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

interface LogChunk {
  readonly kind: "log";
  readonly stream: "stdout" | "stderr";
  readonly parts: string[];
}

/** The batch's events without holes, tree events that were separated only by dropped cases merged. */
function compact(batch: EventBatch): EngineEvent[] {
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

export class Outbox {
  private queue: (EventBatch | LogChunk)[] = [];
  /** Queued messages' size, for maxBatch: kept events and log writes; tree events are tiny and not counted. */
  private pending = 0;
  private lastFlush = now();
  private firstCaseSent = false;
  private timer: NodeJS.Timeout | undefined;
  private logChars = 0;
  private logDropped = 0;
  /** The test case whose call (`concluded`, `event`) is under way — a concluded case's storage readable — if any. */
  private live: ConcludedCase | EngineEvent | undefined;
  /** Totals, for diagnostics and tests. */
  sentMessages = 0;
  droppedCases = 0;
  /** The budget (`costShare`): the outbox's own time (ms) since `windowStart`, and the head and sample's scale now. */
  private spent = 0;
  private spentInRun = 0;
  private windowStart = now();
  scale = 1;

  constructor(
    private readonly sink: Sink,
    private readonly options: OutboxOptions = DEFAULT_OUTBOX,
  ) {}

  event(e: EngineEvent): void {
    if (e.type !== "test-case") return this.push(e);
    this.live = e;
    try {
      this.testCase(e);
    } finally {
      this.live = undefined;
    }
  }

  /**
   * The outbox as the engine's observer: a concluded case is projected only if it is kept (`then`, called
   * after each, is where the caller checks for a stop request).
   */
  observer(then: () => void = () => {}): RunObserver {
    // Candidates and targets as the event tap gets them (a few hundred a run: all kept).
    const plain = eventObserver((e) => this.event(e));
    return {
      event: (e) => {
        this.event(e);
        then();
      },
      concluded: (c) => {
        this.live = c;
        try {
          this.testCase(c);
          if (c.newNodes > 0 || c.exhaustedDepths.length > 0) this.grew(c);
          try {
            then();
          } catch (e) {
            // A stop between cases: what is queued goes now, while this case can still be read.
            this.flush();
            throw e;
          }
        } finally {
          this.live = undefined;
        }
      },
      candidate: (c) => {
        plain.candidate(c);
        then();
      },
      target: (t) => {
        plain.target(t);
        then();
      },
    };
  }

  private batch(): EventBatch {
    let batch = this.queue[this.queue.length - 1];
    if (batch === undefined || batch.kind !== "events") {
      batch = {
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
      this.queue.push(batch);
    }
    return batch;
  }

  /**
   * A test case: its event (projected) in the head; beyond it, a sample (see the file's comment), as a copy
   * (`source.keep`, when it has one) projected at flush. A case outside the sample costs nothing.
   */
  private testCase(source: EngineEvent | ConcludedCase): void {
    const batch = this.batch();
    let entry: EngineEvent | Later;
    const o = this.options;
    const scale = this.scale;
    if (
      ++batch.cases >
      (this.sink.congested() ? o.pressureHead : scale === 1 ? o.keepHead : Math.ceil(o.keepHead * scale))
    ) {
      const seen = ++batch.seen;
      if (seen % batch.stride === 0 && batch.tail.length >= (scale === 1 ? o.keepTail : Math.ceil(o.keepTail * scale)))
        this.thin(batch);
      if (seen % batch.stride !== 0) {
        batch.dropped++;
        this.droppedCases++;
        // Its place, should it be the batch's newest when the batch is sent (see `flush`): the previous newest's
        // hole when nothing came after it.
        if (batch.newest < 0 || batch.newest !== batch.events.length - 1) {
          if (batch.newest >= 0) batch.events[batch.newest] = undefined;
          this.queueGrowth(batch);
          batch.newest = batch.events.push(undefined) - 1;
        }
        batch.newestSource = source;
        this.maybeFlush(true);
        return;
      }
      batch.newest = -1;
      batch.newestSource = undefined;
      if ("keep" in source) {
        const reuse = batch.free.pop();
        const kept = source.keep(reuse?.kept);
        entry = reuse !== undefined && reuse.kept === kept ? reuse : new Later(kept);
      } else entry = source as EngineEvent;
      this.queueGrowth(batch);
      batch.tail.push(batch.events.length);
      batch.tailSeen.push(seen);
    } else {
      entry = this.timed(() => projected(source));
      this.queueGrowth(batch);
    }
    batch.events.push(entry);
    this.pending++;
    if (!this.firstCaseSent && this.options.firstCaseAtOnce) {
      this.firstCaseSent = true;
      this.flush();
    } else this.maybeFlush(true);
  }

  /** Halve the batch's sample beyond the head: every other kept case goes (a hole), and the stride doubles. */
  private thin(batch: EventBatch): void {
    const stride = batch.stride * 2;
    let w = 0;
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
      batch.dropped++;
      this.droppedCases++;
      this.pending--;
    }
    batch.tail.length = w;
    batch.tailSeen.length = w;
    batch.stride = stride;
  }

  /**
   * The DataTree grew with a concluded case: added up here, and queued as one tree event before whatever is queued
   * next (compact would merge the tree events of the dropped cases in between anyway), so a run of cases that
   * are not sent makes no event objects.
   */
  private grew(c: ConcludedCase): void {
    const t = this.treeGrowth;
    t.newNodes += c.newNodes;
    t.totalNodes = c.totalNodes;
    t.rootExhausted = c.rootExhausted;
    if (c.exhaustedDepths.length > 0) for (const d of c.exhaustedDepths) t.exhaustedDepths.push(d);
    t.pending = true;
  }
  private treeGrowth = {
    pending: false,
    newNodes: 0,
    totalNodes: 0,
    exhaustedDepths: [] as number[],
    rootExhausted: false,
  };

  /** Queue the tree growth added up so far (`grew`), if any, as one event. */
  private queueGrowth(batch: EventBatch): void {
    const t = this.treeGrowth;
    if (!t.pending) return;
    batch.events.push({
      type: "tree",
      newNodes: t.newNodes,
      totalNodes: t.totalNodes,
      exhaustedDepths: t.exhaustedDepths,
      rootExhausted: t.rootExhausted,
    });
    this.treeGrowth = {
      pending: false,
      newNodes: 0,
      totalNodes: t.totalNodes,
      exhaustedDepths: [],
      rootExhausted: t.rootExhausted,
    };
  }

  private push(e: EngineEvent): void {
    const batch = this.batch();
    this.queueGrowth(batch);
    batch.events.push(e);
    if (e.type !== "tree") this.pending++;
    this.maybeFlush(e.type === "tree");
  }

  log(stream: "stdout" | "stderr", text: string): void {
    if (text.length === 0) return;
    if (this.logChars + text.length > this.options.maxLogChars) {
      this.logDropped += text.length;
    } else {
      this.logChars += text.length;
      const last = this.queue[this.queue.length - 1];
      if (last !== undefined && last.kind === "log" && last.stream === stream) last.parts.push(text);
      else this.queue.push({ kind: "log", stream, parts: [text] });
    }
    this.pending++;
    this.maybeFlush();
  }

  /** `work`, its time counted against the budget (when there is one). */
  private timed<T>(work: () => T): T {
    if (this.options.costShare >= 1) return work();
    const t0 = now();
    try {
      return work();
    } finally {
      const t = now() - t0;
      this.spent += t;
      this.spentInRun += t;
    }
  }

  /**
   * After a flush: the outbox's share of the time since the budget was last judged, and the scale of the head
   * and sample that would have kept it at `costShare` (the work is about proportional to the cases kept),
   * growing at most twofold at a time; not before the run's first BUDGET_FREE_MS of the outbox's work.
   */
  private judgeBudget(): void {
    const share = this.options.costShare;
    if (share >= 1) return;
    const t = now();
    const window = t - this.windowStart;
    if (window < BUDGET_WINDOW_MS) return;
    if (this.spentInRun < BUDGET_FREE_MS) {
      this.spent = 0;
      this.windowStart = t;
      return;
    }
    const used = this.spent / window;
    this.scale = Math.min(1, Math.max(MIN_SCALE, used > 0 ? this.scale * Math.min(2, share / used) : this.scale * 2));
    this.spent = 0;
    this.windowStart = t;
  }

  /** Send everything queued now (before `done`, on stop, at exit). */
  flush(): void {
    this.timed(() => this.send());
    this.judgeBudget();
  }

  private send(): void {
    if (this.treeGrowth.pending) this.queueGrowth(this.batch());
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const queue = this.queue;
    this.queue = [];
    this.pending = 0;
    this.lastFlush = now();
    this.sinceClock = 0;
    if (this.logDropped > 0) {
      queue.push({
        kind: "log",
        stream: "stderr",
        parts: [`[shrinkscope: ${this.logDropped} characters of output were not forwarded]\n`],
      });
      this.logDropped = 0;
    }
    this.logChars = 0;
    for (const item of queue) {
      if (item.kind === "events" && item.newest >= 0 && item.newestSource !== undefined) {
        const source = item.newestSource;
        if (source === this.live) item.events[item.newest] = projected(source);
        if (item.events[item.newest] !== undefined) {
          item.dropped--;
          this.droppedCases--;
        }
      }
      if (item.kind === "log") {
        this.post({ type: "log", stream: item.stream, text: item.parts.join("") });
      } else {
        let w = 0;
        let events: EngineEvent[] = [];
        let dropped = item.dropped;
        for (const e of compact(item)) {
          const ew = weight(e);
          if (events.length > 0 && w + ew > this.options.maxMessageWeight) {
            this.post({ type: "events", events, dropped });
            events = [];
            dropped = 0;
            w = 0;
          }
          events.push(e);
          w += ew;
        }
        if (events.length > 0 || dropped > 0) this.post({ type: "events", events, dropped });
      }
    }
  }

  private post(message: RunnerMessage): void {
    this.sentMessages++;
    this.sink.send(message);
  }

  /** Calls of maybeFlush since the clock was last read. */
  private sinceClock = 0;

  private maybeFlush(frequent = false): void {
    // The clock is read for every event but test cases and tree growth, and for those on the first after a flush
    // and every eighth (an engine sends hundreds of thousands a second; eight take microseconds): a run that
    // hangs right after its start or a phase still sends them.
    const due =
      this.pending >= this.options.maxBatch ||
      ((!frequent || (this.sinceClock++ & 7) === 0) && now() - this.lastFlush >= this.options.flushMs);
    if (due) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, this.options.flushMs);
      this.timer.unref();
    }
  }
}
