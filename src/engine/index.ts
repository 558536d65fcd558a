/**
 * Shrinkscope: property-based testing that shrinks the choice sequence.
 *
 * @example
 * import { property, st } from "shrinkscope";
 * test("reverse twice is identity", property(st.lists(st.integers()), (xs) => {
 *   assert.deepEqual([...xs].reverse().reverse(), xs);
 * }));
 */
import * as strategies from "./strategies/index.ts";
import { sample } from "./property/sample.ts";
import type { Strategy as AnyStrategy } from "./strategies/strategy.ts";

/** Every strategy constructor, and `st.sample` to look at what one generates. */
export const st = Object.freeze({ ...strategies, sample });
/** The strategies' option and value types, as `st.DatesOptions` and so on. */
export declare namespace st {
  export type IntegersOptions = strategies.IntegersOptions;
  export type FloatsOptions = strategies.FloatsOptions;
  export type TextOptions = strategies.TextOptions;
  export type CharactersOptions = strategies.CharactersOptions;
  export type Characters = strategies.Characters;
  export type FromRegexOptions = strategies.FromRegexOptions;
  export type BytesOptions = strategies.BytesOptions;
  export type ListsOptions<T> = strategies.ListsOptions<T>;
  export type RecordsOptions<O extends Record<string, AnyStrategy<unknown>>> = strategies.RecordsOptions<O>;
  export type RecordValue<S, O> = strategies.RecordValue<S, O>;
  export type RecursiveOptions = strategies.RecursiveOptions;
  export type SetsOptions = strategies.SetsOptions;
  export type MapsOptions = strategies.MapsOptions;
  export type DictionariesOptions = strategies.DictionariesOptions;
  export type SubsequencesOptions = strategies.SubsequencesOptions;
  export type CompositeStrategy<T, A extends unknown[]> = strategies.CompositeStrategy<T, A>;
  export type Draw = strategies.Draw;
  export type DataObject = strategies.DataObject;
  export type DatesOptions = strategies.DatesOptions;
  export type BigintsOptions = strategies.BigintsOptions;
  export type UuidsOptions = strategies.UuidsOptions;
  export type IpAddressesOptions = strategies.IpAddressesOptions;
  export type JsonOptions = strategies.JsonOptions;
  export type JsonValue = strategies.JsonValue;
  export type AnythingOptions = strategies.AnythingOptions;
  export type FunctionsOptions<R> = strategies.FunctionsOptions<R>;
  export type SampleOptions = import("./property/sample.ts").SampleOptions;
}
export { Strategy } from "./strategies/strategy.ts";
export { property, check, find } from "./property/property.ts";
export { assume, note, event, target } from "./property/inBody.ts";
export { PropertyFailure, Unsatisfiable, FailedHealthCheck, NoSuchExample } from "./property/errors.ts";
export type { Property } from "./property/definition.ts";
export { machine } from "./stateful/machine.ts";
export { bundle, consumes, Bundle, Consumed } from "./stateful/bundle.ts";
export type { MachineSpec, MachineSettings, MachineStep, RuleSpec, InitializeSpec } from "./stateful/spec.ts";
export { sim } from "./schedules/sim.ts";
export { SimulationError } from "./schedules/world.ts";
export type { TraceEvent } from "./schedules/task.ts";
export { explore } from "./schedules/explore.ts";
export { simTest, ScheduleFailure } from "./schedules/simTest.ts";
export type { SeedReport } from "./schedules/seedReport.ts";
export type { ExploreOptions } from "./schedules/exploreOptions.ts";
export type { Settings, Verbosity } from "./property/settings.ts";
export { configure, registerProfile } from "./property/profiles.ts";
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
