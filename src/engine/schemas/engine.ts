/**
 * The schemas' one door to the rest of the engine, at run time: what the package's public entry exports too. The
 * integration entries (jsonSchema.ts) are bundled with this module replaced by the package itself
 * (esbuild.mjs), so a user's `fromJsonSchema` draws with the same engine as their `property` — one Strategy class,
 * one TestCase — however their bundler or package manager lays the files out. Types come from their own files.
 */
export { Strategy } from "../strategies/strategy.ts";
export { InvalidArgument } from "../util/errors.ts";
export * as st from "../strategies/index.ts";
