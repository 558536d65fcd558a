// Small helpers the engine tests share: the PropertyFailure a run ends with.
import assert from "node:assert/strict";
import { PropertyFailure } from "../../src/engine/index.ts";

/** The PropertyFailure a synchronous run throws; fails the test if it passes or throws anything else. */
export function failure(run: () => unknown): PropertyFailure {
  try {
    run();
  } catch (e) {
    if (e instanceof PropertyFailure) return e;
    throw e;
  }
  assert.fail("expected the property to fail");
}

/** The PropertyFailure a run (sync or async) throws or rejects with. */
export async function failureOf(run: () => unknown): Promise<PropertyFailure> {
  try {
    await run();
  } catch (e) {
    if (e instanceof PropertyFailure) return e;
    throw e;
  }
  assert.fail("expected the property to fail");
}
