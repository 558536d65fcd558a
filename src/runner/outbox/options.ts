/**
 * The outbox's knobs (outbox.ts says what each trades): how often and how much it sends, how much of a batch's
 * test cases it keeps, and the share of the run's time its own work may take. Tests shrink them to see each
 * rule act; the runner uses DEFAULT_OUTBOX.
 */
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
