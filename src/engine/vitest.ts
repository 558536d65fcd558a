/**
 * `shrinkscope/vitest`: vitest's `test` and `it` with `.prop`, as fast-check's vitest connector has them, for a suite
 * that switches its import (`import { test, fc } from "shrinkscope/vitest"`). vitest is the project's own (a peer).
 */
import { it as vitestIt, test as vitestTest } from "vitest";
import { withProp } from "./testProp/withProp.ts";
import type { WithProp } from "./testProp/withProp.ts";

export const test: WithProp<typeof vitestTest> = withProp(vitestTest, "test");
export const it: WithProp<typeof vitestIt> = withProp(vitestIt, "it");
import fcObject from "./testProp/fc.ts";

/** shrinkscope/fc, as fast-check's connectors export fast-check. */
export const fc = fcObject;
export type { Prop } from "./testProp/withProp.ts";
