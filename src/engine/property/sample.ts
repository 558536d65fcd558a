/**
 * st.sample: values a strategy generates, outside any test — for a REPL, docs, or a quick look at what a strategy
 * draws. It is a run of its own (generation only, no database, no deadline, no health checks), so the values are
 * the ones a property's run would meet: small ones first, no input twice, a small space ending early.
 */
import { invalid } from "../util/errors.ts";
import { describe, requireStrategy, Strategy } from "../strategies/strategy.ts";
import { checkOptions } from "../strategies/options.ts";
import { HEALTH_CHECKS } from "../core/health.ts";
import { check, property } from "./property.ts";

export interface SampleOptions {
  /** The run's seed: the same seed, the same values (default: a random one, as a run's). */
  seed?: number;
}

const API = "st.sample";

/**
 * `n` values `strategy` generates (fewer when it has fewer to give), as a run with `seed` would meet them.
 * @example st.sample(st.integers({ min: 0, max: 9 }), 5, { seed: 1 }) // [0, 9, 3, …]
 */
export function sample<T>(strategy: Strategy<T>, n = 10, options?: SampleOptions): T[] {
  requireStrategy(API, strategy, "strategy");
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000)
    invalid(API, `n must be an integer from 1 to 1000000, got ${describe(n)}`);
  const o = checkOptions(API, options, ["seed"]);
  if (o.seed !== undefined && !Number.isSafeInteger(o.seed))
    invalid(API, `seed must be an integer, got ${describe(o.seed)}`);
  const values: T[] = [];
  check(
    property(strategy, (v) => {
      values.push(v);
    }),
    {
      database: null,
      deadline: null,
      maxExamples: n,
      phases: ["generate"],
      suppressHealthCheck: [...HEALTH_CHECKS],
      ...(o.seed === undefined ? {} : { seed: o.seed }),
    },
  );
  return values;
}
