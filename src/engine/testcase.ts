/**
 * A TestCase is one run of the property: the choices it drew, the spans that say which strategy call drew
 * which run of choices, and how it ended.
 *
 * Where values come from, in order: a forced value (the strategy fixed it); the replayed prefix (a value
 * that no longer fits its constraints is replaced by the simplest legal one — "misaligned"); fresh random
 * generation steered by the DataTree away from exhausted subtrees; or, when replaying without randomness
 * (shrinking), the simplest legal value. A case that draws more than `maxChoices` stops as an overrun, so no
 * strategy can loop forever.
 */
import type { ChoiceNode, ChoiceType, ChoiceValue, Choices, ConstraintsOf, ValueOf } from "./choices.ts";
import { choiceFromIndex, domainSize, permitted, simplest } from "./choices.ts";
import { Status } from "./datatree.ts";
import type { TreeCursor } from "./datatree.ts";
import { generateChoice } from "./generate.ts";
import type { Random } from "./random.ts";

/** A labelled run of choices [start, end) drawn by one strategy call. */
export interface Span {
  readonly label: string;
  readonly start: number;
  end: number;
  readonly depth: number;
  readonly parent: number;
  /** Set when the strategy threw the span's draws away (a rejected filter attempt, a duplicate). */
  discarded: boolean;
}

/** Thrown to unwind a test case that has concluded early (overrun or rejected); never seen by users. */
export class StopTest extends Error {
  constructor(readonly status: Status) {
    super("Shrinkscope StopTest (internal control flow)");
  }
}

const MAX_SPAN_DEPTH = 400;

export interface TargetObservation {
  readonly label: string;
  readonly value: number;
}

export class TestCase {
  readonly nodes: ChoiceNode[] = [];
  readonly spans: Span[] = [];
  status: Status = Status.Valid;
  misaligned = 0;
  /** For interesting cases: the error and which failure it is (type and location), set by the executor. */
  error: unknown = undefined;
  origin: string | undefined = undefined;
  /** The arguments the body was called with, and how long the call took. */
  args: unknown[] = [];
  durationMs = 0;
  /** For explicit examples: the arguments to call the body with, instead of drawing them. */
  explicitArgs: unknown[] | undefined = undefined;
  /** The arguments were drawn and the DataTree already had this exact case: the body was not called. */
  duplicate = false;
  /** Human-readable notes (note()), events (event()) and target observations (target()). */
  readonly notes: string[] = [];
  readonly events: string[] = [];
  readonly targets: TargetObservation[] = [];
  /** The values drawn interactively (st.data()), for printing. */
  readonly interactiveDraws: { label: string | undefined; value: unknown }[] = [];
  private readonly recentIntegers: number[] = [];
  private openSpan = -1;
  private depth = 0;
  /**
   * Values to generate next instead of random ones (while they fit): how a list repeats an earlier element
   * during generation, so duplicates are common. Only consulted when generating, never when replaying.
   */
  replayQueue: ChoiceValue[] | null = null;
  /** Recursion bookkeeping for st.recursive: leaves drawn in the current top-level recursive value. */
  recursionLeaves = 0;

  constructor(
    readonly prefix: Choices,
    readonly random: Random | null,
    readonly maxChoices: number,
    readonly cursor: TreeCursor | null = null,
  ) {}

  /** Draw one choice. `forced` fixes the value (it is recorded, never shrunk). */
  draw<T extends ChoiceType>(type: T, constraints: ConstraintsOf[T], forced?: ValueOf[T]): ValueOf[T] {
    const i = this.nodes.length;
    if (i >= this.maxChoices) {
      this.status = Status.Overrun;
      throw new StopTest(Status.Overrun);
    }
    let value: ChoiceValue;
    if (forced !== undefined) {
      value = forced;
    } else if (i < this.prefix.length) {
      value = this.prefix[i];
      if (!permitted(type, value, constraints)) {
        this.misaligned++;
        value = simplest(type, constraints);
      }
    } else if (this.random !== null) {
      const queued = this.replayQueue;
      if (queued !== null && queued.length > 0 && permitted(type, queued[0], constraints)) value = queued.shift() as ChoiceValue;
      else {
        this.replayQueue = null;
        value = this.generate(type, constraints, this.random);
      }
    } else {
      value = simplest(type, constraints);
    }
    this.nodes.push({ type, value, constraints, forced: forced !== undefined });
    if (this.cursor !== null) this.cursor.advance(type, value);
    return value as ValueOf[T];
  }

  /** A fresh value, avoiding values below which the DataTree says everything has been run. */
  private generate(type: ChoiceType, constraints: ConstraintsOf[ChoiceType], random: Random): ChoiceValue {
    let value = generateChoice(type, constraints, random);
    if (type === "integer") {
      // Now and then a value next to one drawn earlier in this case: "x == y + 1" bugs need near-equal pairs.
      const recent = this.recentIntegers;
      if (recent.length > 0 && (random.uint32() & 15) === 0) {
        const near = recent[random.uint32() % recent.length] + ((random.uint32() % 5) - 2);
        if (permitted(type, near, constraints)) value = near;
      }
      if (recent.length >= 8) recent.shift();
      recent.push(value as number);
    }
    const cursor = this.cursor;
    if (cursor === null || !cursor.alive || !cursor.leadsToExhausted(type, value)) return value;
    for (let attempt = 0; attempt < 3; attempt++) {
      const v = generateChoice(type, constraints, random);
      if (!cursor.leadsToExhausted(type, v)) return v;
    }
    // Small domains: walk the indices from a random start to find a value not yet exhausted.
    const size = domainSize(type, constraints);
    if (size <= 1 << 16) {
      const start = random.int(0, size - 1);
      for (let k = 0; k < size; k++) {
        const v = choiceFromIndex(type, BigInt((start + k) % size), constraints);
        if (!cursor.leadsToExhausted(type, v)) return v;
      }
    }
    return value;
  }

  startSpan(label: string): void {
    // Nesting this deep is a strategy recursing without end: stop as an overrun before the stack overflows.
    if (this.depth >= MAX_SPAN_DEPTH) {
      this.status = Status.Overrun;
      throw new StopTest(Status.Overrun);
    }
    this.spans.push({ label, start: this.nodes.length, end: -1, depth: this.depth, parent: this.openSpan, discarded: false });
    this.openSpan = this.spans.length - 1;
    this.depth++;
  }

  endSpan(discard = false): void {
    const span = this.spans[this.openSpan];
    span.end = this.nodes.length;
    span.discarded = discard;
    this.openSpan = span.parent;
    this.depth--;
  }

  /** End the case as invalid (assume(false), an exhausted filter). */
  reject(): never {
    this.status = Status.Invalid;
    throw new StopTest(Status.Invalid);
  }

  /** Close spans left open by an exception, so that spans are always well formed. */
  closeOpenSpans(): void {
    while (this.openSpan >= 0) this.endSpan();
  }

  /** Whether the next draw will be freshly generated (not replayed from the prefix). */
  get generating(): boolean {
    return this.random !== null && this.nodes.length >= this.prefix.length;
  }

  /** The value sequence, for replay and the database. */
  get choices(): ChoiceValue[] {
    return this.nodes.map((n) => n.value);
  }
}
