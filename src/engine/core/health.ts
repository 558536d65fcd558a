/**
 * Health checks, after Hypothesis's: the first generated test cases are watched for signs that the run will
 * test far less than it seems to, and the run stops early with a message naming the check, what to do instead
 * and how to suppress it — rather than spending thousands of cases on inputs that are mostly thrown away.
 *
 *   filterTooMuch  50 cases rejected by assume() or .filter()
 *   dataTooLarge   20 cases over the choice budget (maxChoices)
 *   tooSlow        drawing the arguments (not running the body) took over max(1 s, 5 × deadline) in total;
 *                  data.draw() in the body and a machine's step arguments are drawing too
 *
 * The window is the generate phase's first cases, until 10 are valid (explicit examples and replayed failures
 * are the user's own inputs, not the strategies' health). Only inside it are draws timed; afterwards the
 * engine drops the window, so the hot path pays nothing. A failure found inside the window ends it: the
 * failure is what matters. Suppressing a check only lets a run that has *some* valid cases go on: a run in
 * which nothing valid was generated still gives up at the end (engine.ts, gaveUp), suppressed or not.
 */
import type { TestCase } from "./testCase.ts";
import { Status } from "./datatree.ts";

export const HEALTH_CHECKS = ["filterTooMuch", "tooSlow", "dataTooLarge"] as const;
export type HealthCheck = (typeof HEALTH_CHECKS)[number];

/** Hypothesis's thresholds: the window closes at VALID valid cases; a check fails at INVALID / OVERRUN cases. */
const VALID = 10;
const INVALID = 50;
const OVERRUN = 20;

/** The draw-time limit (ms): the larger of 1 s and 5 × the deadline (30 s without a deadline, as Hypothesis). */
function drawLimitMs(deadline: number | null): number {
  return Math.max(1000, 5 * (deadline ?? 6000));
}

/** How to suppress a check, in the words a user pastes into settings. */
function suppressHint(check: HealthCheck): string {
  return `If this is expected, suppress the check: settings: { suppressHealthCheck: ["${check}"] } (the run then goes on; a run in which no generated test case is valid still gives up).`;
}

export interface HealthFailure {
  readonly check: HealthCheck;
  readonly message: string;
}

/** The window's counts, and the checks that are on (null when every check is suppressed: no window at all). */
export class HealthWindow {
  private valid = 0;
  private invalid = 0;
  /** Rejected cases by the label of the filter that rejected them. */
  private readonly rejectedBy = new Map<string, number>();
  private overrun = 0;
  private duplicates = 0;
  private drawMs = 0;
  private readonly limitMs: number;

  static open(suppressed: readonly HealthCheck[], deadline: number | null, maxChoices: number): HealthWindow | null {
    return HEALTH_CHECKS.every((c) => suppressed.includes(c))
      ? null
      : new HealthWindow(suppressed, deadline, maxChoices);
  }

  private constructor(
    private readonly suppressed: readonly HealthCheck[],
    deadline: number | null,
    private readonly maxChoices: number,
  ) {
    this.limitMs = drawLimitMs(deadline);
  }

  /** Ask the executor to time this case's draws (testCase.ts: drawMs ≥ 0 means "measure"). */
  watch(tc: TestCase): void {
    tc.drawMs = 0;
  }

  /** True once 10 cases were valid: the engine drops the window. */
  get closed(): boolean {
    return this.valid >= VALID;
  }

  /** Count an executed case; a failed check, if one did (the first failure ends the run). */
  record(tc: TestCase): HealthFailure | undefined {
    this.drawMs += tc.drawMs > 0 ? tc.drawMs : 0;
    if (tc.duplicate) this.duplicates++;
    else if (tc.status === Status.Valid) this.valid++;
    else if (tc.status === Status.Invalid) {
      this.invalid++;
      if (tc.rejectedBy !== undefined)
        this.rejectedBy.set(tc.rejectedBy, (this.rejectedBy.get(tc.rejectedBy) ?? 0) + 1);
    } else if (tc.status === Status.Overrun) this.overrun++;
    if (this.closed) return undefined;
    if (this.overrun >= OVERRUN && this.on("dataTooLarge")) return this.fail("dataTooLarge");
    if (this.invalid >= INVALID && this.on("filterTooMuch")) return this.fail("filterTooMuch");
    if (this.drawMs > this.limitMs && this.on("tooSlow")) return this.fail("tooSlow");
    return undefined;
  }

  /** The labelled filters that rejected the most cases: `; .user.email: refine(…) rejected 48 of 50`. */
  private byLabel(total: number): string {
    const top = [...this.rejectedBy].sort((a, b) => b[1] - a[1]).slice(0, 3);
    return top.map(([label, n]) => `; ${label} rejected ${n} of ${total}`).join("");
  }

  private on(check: HealthCheck): boolean {
    return !this.suppressed.includes(check);
  }

  private fail(check: HealthCheck): HealthFailure {
    const total = this.valid + this.invalid + this.overrun;
    const valid = `${this.valid} valid`;
    let what: string;
    let instead: string;
    switch (check) {
      case "filterTooMuch":
        what =
          (this.valid === 0
            ? `assume() or .filter() rejected all ${this.invalid} test cases generated so far`
            : `assume() or .filter() rejected ${this.invalid} of the first ${total} generated test cases (${valid})`) +
          this.byLabel(total);
        instead =
          "So much filtering makes generation slow and can leave inputs untested. Instead, generate valid inputs directly: a narrower strategy (st.integers({ min: 0, max: 9 }) rather than st.integers().filter((x) => x >= 0 && x < 10)), values built with .map, or fewer and looser filters and assume() calls.";
        break;
      case "dataTooLarge":
        what =
          this.valid === 0
            ? `every test case exceeded the ${this.maxChoices}-choice budget (${this.overrun} generated so far; a strategy draws too much)`
            : `${this.overrun} of the first ${total} generated test cases exceeded the ${this.maxChoices}-choice budget (${valid}; a strategy draws too much)`;
        instead =
          "Inputs this large are slow to test and hard to shrink and read. Instead, draw less: smaller sizes (maxSize on lists, text and bytes; a smaller minSize), shallower recursion, fewer steps (stepCount) — or raise maxChoices if cases really must be this large.";
        break;
      case "tooSlow": {
        const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
        what = `drawing the arguments took ${seconds(this.drawMs)} over the first ${total + this.duplicates} generated test cases (${valid}, ${this.invalid} rejected, ${this.overrun} over the choice budget), over the limit of ${seconds(this.limitMs)} (the larger of 1 s and 5 × deadline); the body's own time is not counted`;
        instead =
          "Slow generation leaves little time for testing. Instead, generate less per case (smaller sizes, fewer filters), and keep expensive work out of the functions given to .map, .filter and .flatMap (do it in the body, where the deadline judges it).";
        break;
      }
    }
    // With nothing valid yet it is also the give-up it prevents from taking thousands of cases: say so in its words.
    const head =
      this.valid === 0 && check !== "tooSlow"
        ? `Health check ${check} failed. Unable to satisfy the property's preconditions: ${what}.`
        : `Health check ${check} failed: ${what}.`;
    return { check, message: `${head}\n${instead}\n${suppressHint(check)}` };
  }
}

/**
 * The health check an end-of-run give-up corresponds to, for its message: a run where nothing generated was
 * valid gives up whether or not the check was suppressed, and says so.
 */
export function gaveUpCheck(invalid: number, overrun: number, suppressed: readonly HealthCheck[]): string {
  const checks: HealthCheck[] = [];
  if (invalid > 0) checks.push("filterTooMuch");
  if (overrun > 0) checks.push("dataTooLarge");
  if (checks.length === 0) return "";
  const off = checks.filter((c) => suppressed.includes(c));
  const why =
    off.length > 0 ? `; suppressing ${off.join(" and ")} never turns a run with no valid test case into a pass` : "";
  return ` (health check ${checks.join(", ")}${why})`;
}
