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
export { Strategy } from "./strategies/strategy.ts";
export { property, check, find, assume, note, event, target, PropertyFailure, Unsatisfiable, FailedHealthCheck, NoSuchExample } from "./property/property.ts";
export type { Property } from "./property/property.ts";
export { machine, bundle, consumes, Bundle, Consumed } from "./stateful/machine.ts";
export type { MachineSpec, MachineSettings, MachineStep, RuleSpec, InitializeSpec } from "./stateful/machine.ts";
export { sim, SimulationError } from "./schedules/sim.ts";
export type { TraceEvent } from "./schedules/sim.ts";
export { explore, simTest, ScheduleFailure } from "./schedules/explore.ts";
export type { ExploreOptions, SeedReport } from "./schedules/explore.ts";
export type { Settings } from "./property/settings.ts";
export { HEALTH_CHECKS } from "./core/health.ts";
export type { HealthCheck } from "./core/health.ts";
export { InvalidArgument } from "./util/errors.ts";
export type * from "./events/events.ts";
export { DirectoryDatabase } from "./databases/directory.ts";
export { InMemoryDatabase } from "./databases/inMemory.ts";
export type { DatedDatabase, ExampleDatabase, FlushableDatabase, StoredChoice } from "./databases/exampleDatabase.ts";
export { MultiplexedDatabase } from "./databases/multiplexed.ts";
export { ReadOnlyDatabase } from "./databases/readOnly.ts";
export { RedisDatabase } from "./databases/redis/database.ts";
export type { RedisDatabaseOptions } from "./databases/redis/database.ts";
export { toLiteral } from "./print/printer.ts";
// The choice-sequence layer, for tools (the runner, the panel) and for those who want to look inside.
export { choiceToIndex, choiceFromIndex } from "./choice/complexityIndex.ts";
export { sortKey, compareNodes } from "./choice/order.ts";
export { permitted, simplest } from "./choice/domain.ts";
export type { ChoiceType, ChoiceValue, ChoiceNode } from "./choice/types.ts";
export type { SortKey, SortKeyComparison } from "./choice/order.ts";
