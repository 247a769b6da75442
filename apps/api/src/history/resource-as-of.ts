/**
 * A resource as it was at a past time (`GET /resources/{id}?as_of=`), rebuilt from its tree's stream.
 */
import Database from 'better-sqlite3';
import { fold, isResourceEvent, upcastResourceEvent, type KindRegistry } from '@decom/domain';
import type { RecordedEvent } from '@decom/event-store';
import { ResourceQueries, ResourceViewProjection, SqliteReadModelStore, type ResourceJson } from '@decom/projections';

/**
 * The resource `id` after every event of `stream` recorded at or before `asOf`, in HyperFleet JSON;
 * `undefined` when it did not exist then (not created yet, or already hard-deleted).
 *
 * Existence comes from the domain's `fold` of the (upcast) events. The JSON comes from replaying the same
 * events through the live `ResourceViewProjection` into a throw-away in-memory SQLite read model and reading
 * it with `ResourceQueries` at `asOf`: `status.conditions` are then computed by `computeResourceConditions`
 * exactly as the live view computed them at the time (their time rules need the previous conditions, and
 * their inputs include children, pauses and policies), instead of a second presenter that would drift.
 * `stream`: the tree's events in revision order (one stream per tree, ADR 0001).
 */
export async function resourceAsOf(
  stream: readonly RecordedEvent[],
  id: string,
  asOf: Date,
  kinds: KindRegistry,
): Promise<ResourceJson | undefined> {
  const until = stream.filter((event) => Date.parse(event.recorded_time) <= asOf.getTime());
  const tree = fold(until.filter((event) => isResourceEvent(event)).map(upcastResourceEvent));
  if (!tree.resources.has(id)) return undefined;
  const database = new Database(':memory:');
  try {
    const readModels = new SqliteReadModelStore(database);
    const projection = new ResourceViewProjection(kinds);
    await readModels.transaction(async (tx) => {
      for (const statement of projection.schema) await tx.execute(statement);
      for (const event of until) await projection.apply(event, tx);
    });
    return await new ResourceQueries(readModels, kinds, () => asOf).get(id);
  } finally {
    database.close();
  }
}

/** RFC 3339 date-time with a zone (`2026-11-29T10:00:00Z`, `...T10:00:00.123+01:00`); `undefined` otherwise. */
export function parseRfc3339(raw: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(raw);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  if (month! < 1 || month! > 12 || day! < 1 || day! > 31 || hour! > 23 || minute! > 59 || second! > 60) return undefined;
  // Date.parse rolls impossible days over (2026-02-30 → March 2): refuse them instead.
  if (day! > new Date(Date.UTC(year!, month!, 0)).getUTCDate()) return undefined;
  const time = Date.parse(raw.toUpperCase());
  return Number.isNaN(time) ? undefined : new Date(time);
}
