/**
 * Event versioning: stored events are read through `upcastResourceEvent`, which rewrites an older shape
 * into today's, step by step (v1 → v2 → ...), so `evolve`, `decide` and the projections only ever see the
 * current shape. Pure; see docs/event-versioning.md for the rules.
 *
 * The version lives in the event's metadata (`schema_version`, stamped by the writer). Events written
 * before versioning carry none and count as version 1; that is why every upcaster must also leave an
 * already-current shape unchanged (it may see one that merely lacks the stamp).
 */
import type { DeletionRequested, ResourceEvent } from './resource.events.js';

/** The shape today's code writes. Bump it together with an upcaster from the previous version. */
export const RESOURCE_EVENT_SCHEMA_VERSION = 2;

/** What the domain needs of a stored event (the store's `RecordedEvent` fits). */
export interface StoredResourceEvent {
  readonly type: string;
  readonly data: unknown;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** One step: rewrites `type`'s data from `fromVersion` to `fromVersion + 1`. */
export interface Upcaster {
  readonly type: ResourceEvent['type'];
  readonly fromVersion: number;
  /** What changed, for docs and errors. */
  readonly change: string;
  upcast(data: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

/** An event written by a newer Decom than this one: reading it would mean guessing. */
export class UnsupportedSchemaVersion extends Error {
  override readonly name = 'UnsupportedSchemaVersion';
  constructor(
    readonly type: string,
    readonly version: number,
  ) {
    super(`event ${type} has schema_version ${version}; this Decom reads up to ${RESOURCE_EVENT_SCHEMA_VERSION}`);
  }
}

/** Every upcaster, by type and version. */
export const UPCASTERS: readonly Upcaster[] = [
  {
    type: 'DeletionRequested',
    fromVersion: 1,
    change: 'v2 (seed 003) records the deletion policy the deletion runs with; before policies existed every deletion cleaned up: `Delete`',
    upcast: (data) => ({ ...data, deletion_policy: (data['deletion_policy'] as DeletionRequested['data']['deletion_policy']) ?? 'Delete' }),
  },
];

/** `metadata.schema_version`, or 1 for events written before versioning. */
export function schemaVersionOf(event: StoredResourceEvent): number {
  const version = event.metadata?.['schema_version'];
  return typeof version === 'number' && Number.isInteger(version) && version >= 1 ? version : 1;
}

/**
 * A stored resource event in today's shape. Unknown types pass through unchanged (callers filter them
 * with `isResourceEvent`).
 * @throws UnsupportedSchemaVersion when the event is newer than `RESOURCE_EVENT_SCHEMA_VERSION`.
 */
export function upcastResourceEvent(event: StoredResourceEvent): ResourceEvent {
  const version = schemaVersionOf(event);
  if (version > RESOURCE_EVENT_SCHEMA_VERSION) throw new UnsupportedSchemaVersion(event.type, version);
  let data = event.data as Record<string, unknown>;
  for (let from = version; from < RESOURCE_EVENT_SCHEMA_VERSION; from += 1) {
    for (const upcaster of UPCASTERS) {
      if (upcaster.type === event.type && upcaster.fromVersion === from) data = upcaster.upcast(data);
    }
  }
  return { type: event.type, data } as ResourceEvent;
}
