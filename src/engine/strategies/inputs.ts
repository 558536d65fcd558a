/**
 * Strategies whose values are inputs parsed (a schema's output, `fromZod`: schemas/parsed.ts) offer, under this
 * symbol, a strategy of those inputs: it draws the same choices and gives the input each value was parsed from.
 * A failure report prints it, so a regression test can parse that input again (`User.parse({ … })`) where the
 * value itself — a transform's output — may not be one the schema accepts.
 *
 * A registered symbol, not a class to test with `instanceof`: the integration entries (`shrinkscope/zod`) are
 * bundled apart from the engine, with their own copy of this file.
 */
import type { Strategy } from "./strategy.ts";

export const INPUTS: unique symbol = Symbol.for("shrinkscope.inputs");

/** The strategy of the inputs a strategy's values are parsed from; undefined for any other strategy. */
export function inputsOf(strategy: Strategy<unknown>): Strategy<unknown> | undefined {
  return (strategy as Partial<Record<typeof INPUTS, Strategy<unknown>>>)[INPUTS];
}
