/** What a `redis://` database setting means: the shared Redis database, joined to the property's own. */
import * as path from "node:path";
import { DirectoryDatabase } from "../directory.ts";
import type { ExampleDatabase } from "../exampleDatabase.ts";
import { MultiplexedDatabase } from "../multiplexed.ts";
import { RedisDatabase } from "./database.ts";

/**
 * What a `redis://` database setting (or SHRINKSCOPE_DATABASE_URL) means: the shared Redis database, joined to
 * `alongside` when there is one (settings.ts: the local folder on a developer's machine, or the property's own
 * database) — both read, both written, so a failure found while Redis is away is still replayed here. Saves
 * Redis does not confirm wait in .shrinkscope/redis-pending for the next run. Made once per URL, folder and
 * working folder (settings are resolved for every run, and a run of a few examples should not pay for it).
 */
export function sharedDatabase(url: string, alongside: ExampleDatabase | string | null): ExampleDatabase {
  const pendingDir = path.resolve(".shrinkscope", "redis-pending");
  const folder = typeof alongside === "string" ? path.resolve(alongside) : null;
  const cacheKey =
    typeof alongside === "object" && alongside !== null ? undefined : `${url.trim()}\0${folder ?? ""}\0${pendingDir}`;
  const cached = cacheKey === undefined ? undefined : shared.get(cacheKey);
  if (cached !== undefined) return cached;
  const redis = new RedisDatabase(url.trim(), { pendingDir });
  const parts = folder !== null ? new DirectoryDatabase(folder) : alongside;
  const db = parts === null || typeof parts === "string" ? redis : new MultiplexedDatabase([parts, redis]);
  if (cacheKey !== undefined) shared.set(cacheKey, db);
  return db;
}
const shared = new Map<string, ExampleDatabase>();
