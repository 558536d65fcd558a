/**
 * `shrinkscope/fc`: fast-check's API over the engine — switch `import fc from "fast-check"` to this and the suite's
 * properties run with choice-sequence shrinking, the example database and the editor's panel. Its own entry point,
 * with no dependency on fast-check; it reaches the engine through the package itself (fc/engine.ts), so its
 * arbitraries are strategies of the user's engine. docs/migrating-from-fast-check.md says what changes.
 */
import * as fc from "./fc/index.ts";

export * from "./fc/index.ts";
export default fc;
