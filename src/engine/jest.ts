/**
 * `shrinkscope/jest`: jest's `test` and `it` with `.prop`, as fast-check's jest connector has them, for a suite that
 * switches its import (`import { test, fc } from "shrinkscope/jest"`). jest is the project's own (a peer).
 */
import { it as jestIt, test as jestTest } from "@jest/globals";
import { withProp } from "./testProp/withProp.ts";
import type { WithProp } from "./testProp/withProp.ts";

export const test: WithProp<typeof jestTest> = withProp(jestTest, "test");
export const it: WithProp<typeof jestIt> = withProp(jestIt, "it");
import fcObject from "./testProp/fc.ts";

/** shrinkscope/fc, as fast-check's connectors export fast-check. */
export const fc = fcObject;
export type { Prop } from "./testProp/withProp.ts";
