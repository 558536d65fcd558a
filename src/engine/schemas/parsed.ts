/**
 * Values that are an input parsed (fromZod): the input is drawn, the schema parses it, and an input the parse
 * rejects is retried like a filter's. The strategy also offers its inputs (strategies/inputs.ts), for the report.
 */
import { Strategy } from "./engine.ts";
import type { TestCase } from "../core/testCase.ts";
import { INPUTS } from "../strategies/inputs.ts";

/** What a parse gives (zod's `safeParse` shape): the value, or that the input is rejected. */
export type ParseResult<O> = { readonly success: boolean; readonly data?: O };

export class Parsed<I, O> extends Strategy<O> {
  /** Each accepted input with its value. */
  readonly #pairs: Strategy<readonly [I, O]>;

  /** `label` names the parse in the health check when it rejects too much. */
  constructor(input: Strategy<I>, parse: (input: I) => ParseResult<O>, label: string) {
    super(undefined);
    this.#pairs = input
      .map((v): readonly [I, ParseResult<O>] => [v, parse(v)])
      .filter((p) => p[1].success, label)
      .map(([v, r]) => [v, r.data as O] as const);
  }

  protected doDraw(tc: TestCase): O {
    return this.#pairs.draw(tc)[1];
  }

  override draw(tc: TestCase): O {
    return this.#pairs.draw(tc)[1];
  }

  override distinctValues(): number {
    return this.#pairs.distinctValues();
  }

  /** From the same choices, the input each value was parsed from. */
  get [INPUTS](): Strategy<I> {
    return this.#pairs.map((p) => p[0]);
  }
}
