/**
 * The outbox's cost budget (`costShare` in outbox.ts): the time the outbox spends projecting, serialising and
 * sending is measured, and when it is over that share of the run's time — a fast property, whose cases are cheap
 * next to their events — the head and sample of each batch shrink in proportion (`scale`), down to a few cases a
 * batch, growing back when there is room. So the panel's feed costs a fast run about that share, while a slow
 * property's cases are all sent, and so are a short run's (the budget applies once the outbox has spent
 * BUDGET_FREE_MS in the run).
 */
import { now } from "../../engine/internals.ts";

/** The head and sample never shrink below this share of keepHead and keepTail (at least one case each). */
const MIN_SCALE = 1 / 32;
/** The budget is judged over at least this long (ms): a flush right after another says little. */
const BUDGET_WINDOW_MS = 20;
/**
 * …and only once the outbox has spent this long (ms) on its work in the run: a short run (a few hundred cases)
 * is sent whole, the panel showing every case, at a cost no one waits for.
 */
const BUDGET_FREE_MS = 25;

export class CostBudget {
  /** The outbox's own time (ms) since `windowStart`, and in the whole run. */
  private spent = 0;
  private spentInRun = 0;
  private windowStart = now();
  /** The share of keepHead and keepTail a batch keeps now (1: all of them). */
  scale = 1;

  /** `share`: the share of the time the outbox's work may take (1: no budget). */
  constructor(private readonly share: number) {}

  /** `work`, its time counted against the budget (when there is one). */
  timed<T>(work: () => T): T {
    if (this.share >= 1) return work();
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
   * and sample that would have kept it at `share` (the work is about proportional to the cases kept), growing
   * at most twofold at a time; not before the run's first BUDGET_FREE_MS of the outbox's work.
   */
  judge(): void {
    if (this.share >= 1) return;
    const t = now();
    const window = t - this.windowStart;
    if (window < BUDGET_WINDOW_MS) return;
    if (this.spentInRun < BUDGET_FREE_MS) {
      this.spent = 0;
      this.windowStart = t;
      return;
    }
    const used = this.spent / window;
    this.scale = Math.min(
      1,
      Math.max(MIN_SCALE, used > 0 ? this.scale * Math.min(2, this.share / used) : this.scale * 2),
    );
    this.spent = 0;
    this.windowStart = t;
  }
}
