/** st.bytes: one byte-string choice (a Uint8Array); shrinks shorter, then toward zero bytes. */
import type { BytesConstraints } from "../choice/types.ts";
import type { TestCase } from "../core/testCase.ts";
import { Strategy } from "./strategy.ts";
import { checkOptions, checkSizes } from "./options.ts";

export interface BytesOptions {
  minSize?: number;
  maxSize?: number;
}

class Bytes extends Strategy<Uint8Array> {
  constructor(readonly constraints: BytesConstraints) {
    super(undefined);
  }
  protected doDraw(tc: TestCase): Uint8Array {
    return tc.draw("bytes", this.constraints);
  }
  // Overridden (no span to open): each strategy class calls its own doDraw, so the call stays monomorphic.
  override draw(tc: TestCase): Uint8Array {
    return tc.draw("bytes", this.constraints);
  }
}

/** Byte arrays (Uint8Array). Shrinks to shorter, then toward zero bytes. */
export function bytes(options?: BytesOptions): Strategy<Uint8Array> {
  const api = "st.bytes";
  const o = checkOptions(api, options, ["minSize", "maxSize"]);
  return new Bytes(checkSizes(api, o.minSize, o.maxSize));
}
