/** fc.context(): an object a predicate logs to; what it logs goes into the failure report, as note() does. */
import { note, st } from "./engine.ts";
import { Arbitrary } from "./arbitrary.ts";

export interface ContextValue {
  /** Add a line to the failing case's report. */
  log(data: string): void;
  /** How many lines were logged. */
  size(): number;
}

export function context(): Arbitrary<ContextValue> {
  return new Arbitrary(
    st.just(null).map((): ContextValue => {
      const lines: string[] = [];
      return {
        log(data: string) {
          lines.push(String(data));
          note(String(data));
        },
        size: () => lines.length,
        toString: () => `context(${JSON.stringify(lines)})`,
      } as ContextValue;
    }),
  );
}
