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
 * newest kept case is never far behind the newest; outbox/batch.ts): at most (head + tail) per flushMs, ~3000/s by default, the
 * rest counted in `dropped`. Under back-pressure — the channel reports a backlog of sent-but-unwritten data
 * (channel.ts), i.e. the host reads slowly — the head shrinks to `pressureHead`.
 *
 * Messages are kept small (`maxMessageWeight`, ~30 KB, weighing an event as one plus one per choice and span
 * it carries): the host can use each as soon as it arrives, and over IPC during a synchronous property a
 * message that does not fit the OS pipe at once would hold back everything after it.
 *
 * A budget on top (`costShare`, outbox/budget.ts): when the outbox's own work takes more than that share of the
 * run's time, the head and the sample shrink in proportion.
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
import type { EngineEvent, RunnerMessage } from "../shared/protocol.ts";
import { eventObserver, now, type ConcludedCase, type RunObserver } from "../engine/internals.ts";
import {
  Later,
  messagesOf,
  newEventBatch,
  projected,
  thin,
  TreeGrowth,
  type EventBatch,
  type LogChunk,
} from "./outbox/batch.ts";
import { CostBudget } from "./outbox/budget.ts";
import { DEFAULT_OUTBOX, type OutboxOptions } from "./outbox/options.ts";

export { DEFAULT_OUTBOX, type OutboxOptions };

// The engine's clock and the timers as they were at load, not the globals: a test that fakes timers
// (vi.useFakeTimers, jest's, sinon's) replaces the globals and node:timers' exports, and a frozen clock or a
// fake timer would hold every batch back.
const setTimeout = timers.setTimeout;
const clearTimeout = timers.clearTimeout;

/** Where the messages go: the runner's channel to the host. */
export interface Sink {
  send(message: RunnerMessage): void;
  /** Sent but not yet written out is piling up. */
  congested(): boolean;
}

export class Outbox {
  private queue: (EventBatch | LogChunk)[] = [];
  /** Queued messages' size, for maxBatch: kept events and log writes; tree events are tiny and not counted. */
  private pending = 0;
  private lastFlush = now();
  private firstCaseSent = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly treeGrowth = new TreeGrowth();
  private logChars = 0;
  private logDropped = 0;
  /** The test case whose call (`concluded`, `event`) is under way — a concluded case's storage readable — if any. */
  private live: ConcludedCase | EngineEvent | undefined;
  /** Totals, for diagnostics and tests. */
  sentMessages = 0;
  droppedCases = 0;
  private readonly budget: CostBudget;

  constructor(
    private readonly sink: Sink,
    private readonly options: OutboxOptions = DEFAULT_OUTBOX,
  ) {
    this.budget = new CostBudget(options.costShare);
  }

  /** The share of keepHead and keepTail a batch keeps now (the budget's, budget.ts). */
  get scale(): number {
    return this.budget.scale;
  }

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
          if (c.newNodes > 0 || c.exhaustedDepths.length > 0) this.treeGrowth.add(c);
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
      batch = newEventBatch();
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
      if (
        seen % batch.stride === 0 &&
        batch.tail.length >= (scale === 1 ? o.keepTail : Math.ceil(o.keepTail * scale))
      ) {
        const dropped = thin(batch);
        this.droppedCases += dropped;
        this.pending -= dropped;
      }
      if (seen % batch.stride !== 0) {
        batch.dropped++;
        this.droppedCases++;
        // Its place, should it be the batch's newest when the batch is sent (see `flush`): the previous newest's
        // hole when nothing came after it.
        if (batch.newest < 0 || batch.newest !== batch.events.length - 1) {
          if (batch.newest >= 0) batch.events[batch.newest] = undefined;
          this.treeGrowth.queueInto(batch);
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
      this.treeGrowth.queueInto(batch);
      batch.tail.push(batch.events.length);
      batch.tailSeen.push(seen);
    } else {
      entry = this.budget.timed(() => projected(source));
      this.treeGrowth.queueInto(batch);
    }
    batch.events.push(entry);
    this.pending++;
    if (!this.firstCaseSent && this.options.firstCaseAtOnce) {
      this.firstCaseSent = true;
      this.flush();
    } else this.maybeFlush(true);
  }

  private push(e: EngineEvent): void {
    const batch = this.batch();
    this.treeGrowth.queueInto(batch);
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

  /** Send everything queued now (before `done`, on stop, at exit). */
  flush(): void {
    this.budget.timed(() => this.send());
    this.budget.judge();
  }

  private send(): void {
    if (this.treeGrowth.pending) this.treeGrowth.queueInto(this.batch());
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
        for (const message of messagesOf(item, this.options.maxMessageWeight)) this.post(message);
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
