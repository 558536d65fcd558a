/**
 * Writing source text: the edits the quick fixes make in a user's file. Everything outside `source/write/`
 * imports from here only. Each kind of generated code has its own file — a regression test from a property's
 * arguments (argumentsTest.ts), from a machine's steps (stepsTest.ts), from a schedule failure
 * (scheduleReplay.ts), assembled by regressionTest.ts — and an explicit example (explicitExample.ts). They read
 * the file only through `source/read/`, and every string literal they write comes from the engine's printer.
 */
export type { RegressionInput, Replay, TextInsertion } from "./generated.ts";
export { regressionTest } from "./regressionTest.ts";
export { explicitExample } from "./explicitExample.ts";
