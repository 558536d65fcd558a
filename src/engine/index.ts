/**
 * Shrinkscope: property-based testing that shrinks the choice sequence.
 *
 * @example
 * import { property, st } from "shrinkscope";
 * test("reverse twice is identity", property(st.lists(st.integers()), (xs) => {
 *   assert.deepEqual([...xs].reverse().reverse(), xs);
 * }));
 */
export * as st from "./strategies/index.ts";
export { Strategy } from "./strategies/core.ts";
export { property, check, find, assume, note, event, target, PropertyFailure, Unsatisfiable, FailedHealthCheck, NoSuchExample } from "./property.ts";
export type { Property } from "./property.ts";
export { machine, bundle, consumes, Bundle, Consumed } from "./stateful.ts";
export type { MachineSpec, MachineSettings, MachineStep, RuleSpec, InitializeSpec } from "./stateful.ts";
export { sim, SimulationError } from "./sim.ts";
export type { TraceEvent } from "./sim.ts";
export { explore, simTest, ScheduleFailure } from "./explore.ts";
export type { ExploreOptions, SeedReport } from "./explore.ts";
export type { Settings } from "./settings.ts";
export { HEALTH_CHECKS } from "./health.ts";
export type { HealthCheck } from "./health.ts";
export { InvalidArgument } from "./errors.ts";
export type * from "./events.ts";
export { DirectoryDatabase, InMemoryDatabase } from "./database.ts";
export type { DatedDatabase, ExampleDatabase, FlushableDatabase, StoredChoice } from "./database.ts";
export { MultiplexedDatabase, ReadOnlyDatabase } from "./databases.ts";
export { RedisDatabase } from "./redis.ts";
export type { RedisDatabaseOptions } from "./redis.ts";
export { toLiteral } from "./printer.ts";
// The choice-sequence layer, for tools (the runner, the panel) and for those who want to look inside.
export { choiceToIndex, choiceFromIndex, sortKey, compareNodes, permitted, simplest } from "./choices.ts";
export type { ChoiceType, ChoiceValue, ChoiceNode, SortKey, SortKeyComparison } from "./choices.ts";
