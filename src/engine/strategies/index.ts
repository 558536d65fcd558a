/** The `st` namespace: every strategy constructor. */
export { integers, floats, booleans, text, bytes, just, sampledFrom } from "./primitives.ts";
export type { IntegersOptions, FloatsOptions, TextOptions, BytesOptions } from "./primitives.ts";
export { lists, tuples, records } from "./collections.ts";
export type { ListsOptions } from "./collections.ts";
export { oneOf, deferred, recursive, data } from "./combinators.ts";
export type { DataObject, RecursiveOptions } from "./combinators.ts";
