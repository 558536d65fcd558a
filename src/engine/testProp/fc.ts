/**
 * The testProp room's one door to shrinkscope/fc at run time: the entries (../vitest.ts, ../jest.ts) are bundled with
 * this module replaced by `shrinkscope/fc` itself (esbuild.mjs), so `test.prop`'s arbitraries and properties are
 * the user's shrinkscope/fc's — and through it the user's engine's. Every name here is one shrinkscope/fc exports,
 * its default export (the `fc` object) too.
 */
import * as fc from "../fc/index.ts";

export { FcProperty, record, Arbitrary } from "../fc/index.ts";
export default fc;
