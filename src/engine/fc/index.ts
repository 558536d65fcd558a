/**
 * shrinkscope/fc's names, fast-check 4's for what application suites use: a suite switches its import and runs on the
 * engine. The module's default export holds them all (`import fc from "shrinkscope/fc"`), as fast-check's does.
 */
export { Arbitrary } from "./arbitrary.ts";
export { integer, nat, maxSafeInteger, maxSafeNat, double, float, bigInt } from "./numbers.ts";
export { string, stringMatching } from "./text.ts";
export type { StringConstraints } from "./text.ts";
export { boolean, constant, constantFrom, oneof, option, clone } from "./combinators.ts";
export {
  array,
  uniqueArray,
  tuple,
  record,
  dictionary,
  subarray,
  shuffledSubarray,
  int8Array,
  uint8Array,
  uint8ClampedArray,
  int16Array,
  uint16Array,
  int32Array,
  uint32Array,
  bigInt64Array,
  bigUint64Array,
  float32Array,
  float64Array,
} from "./collections.ts";
export {
  date,
  uuid,
  emailAddress,
  webUrl,
  domain,
  ipV4,
  ipV4Extended,
  ipV6,
  json,
  jsonValue,
  anything,
  object,
  func,
} from "./values.ts";
export { letrec, memo } from "./recursion.ts";
export { context } from "./context.ts";
export type { ContextValue } from "./context.ts";
export { gen } from "./gen.ts";
export type { GenValue } from "./gen.ts";
export { commands, modelRun, asyncModelRun } from "./commands.ts";
export { scheduler, scheduledModelRun, Scheduler } from "./scheduler.ts";
export type { SchedulerAct, SchedulerReportItem } from "./scheduler.ts";
export type { ICommand, Command, AsyncCommand } from "./commands.ts";
export { property, asyncProperty, pre, FcProperty } from "./property.ts";
export type { FcProperty as IProperty, FcProperty as IAsyncProperty } from "./property.ts";
export { assert, check } from "./runner.ts";
export type { RunDetails } from "./runner.ts";
export { configureGlobal, readConfigureGlobal, resetConfigureGlobal } from "./parameters.ts";
export type { Parameters } from "./parameters.ts";
export { sample, statistics, stringify } from "./inspect.ts";
