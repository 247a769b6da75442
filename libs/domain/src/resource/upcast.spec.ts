import { RESOURCE_EVENT_SCHEMA_VERSION, UPCASTERS, UnsupportedSchemaVersion, schemaVersionOf, upcastResourceEvent } from './upcast.js';
import { fold } from './evolve.js';

/** A `DeletionRequested` as the first Decom schema wrote it (schema 1: no `deletion_policy`, no `schema_version`). */
const v1DeletionRequested = {
  type: 'DeletionRequested',
  data: { id: 'c1', kind: 'Cluster', generation: 2, deleted_time: '2026-11-20T10:00:00.000Z', deleted_by: 'alice@example.com' },
  metadata: { caller: 'alice@example.com' },
};

describe('event upcasting (docs/event-versioning.md)', () => {
  it('upcasts an old-shape DeletionRequested: the policy every v1 deletion ran with, Delete, becomes explicit', () => {
    expect(schemaVersionOf(v1DeletionRequested)).toBe(1);
    expect(upcastResourceEvent(v1DeletionRequested)).toEqual({
      type: 'DeletionRequested',
      data: { ...v1DeletionRequested.data, deletion_policy: 'Delete' },
    });
  });

  it('leaves a current event unchanged, stamped or not (an unstamped v2 Orphan deletion stays Orphan)', () => {
    const current = { type: 'DeletionRequested', data: { ...v1DeletionRequested.data, deletion_policy: 'Orphan' } };
    expect(upcastResourceEvent({ ...current, metadata: { schema_version: RESOURCE_EVENT_SCHEMA_VERSION } })).toEqual(current);
    expect(upcastResourceEvent(current)).toEqual(current);
  });

  it('passes other types through and refuses an event from a newer Decom', () => {
    const created = { type: 'ResourceCreated', data: { id: 'c1' }, metadata: {} };
    expect(upcastResourceEvent(created)).toEqual({ type: 'ResourceCreated', data: { id: 'c1' } });
    expect(() => upcastResourceEvent({ ...created, metadata: { schema_version: RESOURCE_EVENT_SCHEMA_VERSION + 1 } })).toThrow(
      UnsupportedSchemaVersion,
    );
  });

  it('folds an upcast v1 history into the same state as its v2 equivalent', () => {
    const created = {
      type: 'ResourceCreated',
      data: {
        id: 'c1',
        kind: 'Cluster',
        name: 'a',
        spec: {},
        labels: {},
        generation: 1,
        created_time: '2026-11-20T09:00:00.000Z',
        created_by: 'alice@example.com',
      },
    };
    const v1 = fold([created, v1DeletionRequested].map(upcastResourceEvent));
    const v2 = fold(
      [created, { ...v1DeletionRequested, data: { ...v1DeletionRequested.data, deletion_policy: 'Delete' } }].map(upcastResourceEvent),
    );
    expect(v1).toEqual(v2);
    expect(v1.resources.get('c1')).toMatchObject({ deleted_time: '2026-11-20T10:00:00.000Z', generation: 2 });
  });

  it('has one upcaster per (type, version) step, each below the current version', () => {
    const steps = UPCASTERS.map((u) => `${u.type}@${u.fromVersion}`);
    expect(new Set(steps).size).toBe(steps.length);
    expect(UPCASTERS.every((u) => u.fromVersion >= 1 && u.fromVersion < RESOURCE_EVENT_SCHEMA_VERSION)).toBe(true);
  });
});
