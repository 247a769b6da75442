import {
  DeletionProtected,
  KindRegistry,
  MutationWhileFinalizing,
  ValidationFailed,
  previewDeletion,
  fold,
  type ResourceEvent,
} from '@decom/domain';
import { deciderSpec } from '../testing/given-when-then.js';

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', on_parent_delete: 'cascade', required_adapters: ['np-configmap'] },
]);
const spec = deciderSpec(kinds);
const T0 = '2026-12-01T10:00:00.000Z';
const T1 = '2026-12-01T10:01:00.000Z';
const meta = (caller = 'alice@example.com', now = T1) => ({ now, caller });
const C = 'c0000000-0000-7000-8000-000000000001';
const NP = 'n0000000-0000-7000-8000-000000000001';

const clusterCreated: ResourceEvent = {
  type: 'ResourceCreated',
  data: { id: C, kind: 'Cluster', name: 'prod', spec: {}, labels: {}, generation: 1, created_time: T0, created_by: 'alice@example.com' },
};
const npCreated: ResourceEvent = {
  type: 'ResourceCreated',
  data: {
    id: NP,
    kind: 'NodePool',
    name: 'np-a',
    spec: {},
    labels: {},
    owner_references: { id: C, kind: 'Cluster' },
    generation: 1,
    created_time: T0,
    created_by: 'alice@example.com',
  },
};
const protectedBy = (id: string, kind: string, on: boolean, caller = 'alice@example.com', reason?: string, time = T0): ResourceEvent => ({
  type: 'DeletionProtectionChanged',
  data: { id, kind, deletion_protection: on, caller, ...(reason ? { reason } : {}), changed_time: time },
});

describe('deletion protection › set on create and PATCH, recorded with who and why', () => {
  it('a create with deletion_protection records the change right after ResourceCreated, generation stays 1', () => {
    const events = spec
      .given([])
      .when({
        type: 'CreateResource',
        id: C,
        kind: 'Cluster',
        name: 'prod',
        spec: {},
        labels: {},
        deletion_protection: true,
        deletion_protection_reason: 'production',
        metadata: meta('alice@example.com', T0),
      })
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['ResourceCreated', 'DeletionProtectionChanged']);
    expect(events[1]).toEqual(protectedBy(C, 'Cluster', true, 'alice@example.com', 'production'));
    expect(fold(events).resources.get(C)).toMatchObject({
      generation: 1,
      deletion_protection: { caller: 'alice@example.com', reason: 'production', time: T0 },
    });
  });

  it('a PATCH setting it records who (a reason is optional), no SpecChanged and no generation bump', () => {
    spec
      .given([clusterCreated])
      .when({ type: 'PatchResource', id: C, kind: 'Cluster', deletion_protection: true, metadata: meta('bob@example.com') })
      .then([protectedBy(C, 'Cluster', true, 'bob@example.com', undefined, T1)]);
  });

  it('a PATCH repeating the current value records nothing', () => {
    spec
      .given([clusterCreated, protectedBy(C, 'Cluster', true)])
      .when({ type: 'PatchResource', id: C, kind: 'Cluster', deletion_protection: true, metadata: meta() })
      .then([]);
  });

  it('clearing needs a reason (400 on deletion_protection_reason)', () => {
    spec
      .given([clusterCreated, protectedBy(C, 'Cluster', true)])
      .when({ type: 'PatchResource', id: C, kind: 'Cluster', deletion_protection: false, metadata: meta() })
      .thenThrows(ValidationFailed, /deletion_protection_reason is required/);
  });

  it('clearing with a reason records caller and reason; the spec change of the same PATCH comes first', () => {
    spec
      .given([clusterCreated, protectedBy(C, 'Cluster', true)])
      .when({
        type: 'PatchResource',
        id: C,
        kind: 'Cluster',
        spec: { region: 'eu' },
        deletion_protection: false,
        deletion_protection_reason: ' decommission approved ',
        metadata: meta('root@example.com'),
      })
      .then([
        {
          type: 'SpecChanged',
          data: {
            id: C,
            kind: 'Cluster',
            spec: { region: 'eu' },
            labels: {},
            generation: 2,
            updated_time: T1,
            updated_by: 'root@example.com',
          },
        },
        protectedBy(C, 'Cluster', false, 'root@example.com', 'decommission approved', T1),
      ]);
  });

  it('#12 a Finalizing resource takes no protection change (409)', () => {
    const deleting: ResourceEvent = {
      type: 'DeletionRequested',
      data: { id: C, kind: 'Cluster', generation: 2, deleted_time: T1, deleted_by: 'alice@example.com' },
    };
    spec
      .given([clusterCreated, deleting])
      .when({ type: 'PatchResource', id: C, kind: 'Cluster', deletion_protection: true, metadata: meta() })
      .thenThrows(MutationWhileFinalizing);
  });
});

describe('deletion protection › DELETE refused while it is set', () => {
  it('DELETE of the protected resource is refused naming it', () => {
    spec
      .given([clusterCreated, protectedBy(C, 'Cluster', true)])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
      .thenThrows(DeletionProtected, `Cannot delete Cluster '${C}': deletion_protection is set on Cluster 'prod' (${C})`);
  });

  it('DELETE of an ancestor whose cascade reaches a protected child is refused naming the child', () => {
    spec
      .given([clusterCreated, npCreated, protectedBy(NP, 'NodePool', true)])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
      .thenThrows(DeletionProtected, `deletion_protection is set on NodePool 'np-a' (${NP})`);
  });

  it('every protected member is named, the target first', () => {
    try {
      spec
        .given([clusterCreated, npCreated, protectedBy(NP, 'NodePool', true), protectedBy(C, 'Cluster', true)])
        .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
        .thenEvents();
      throw new Error('expected DeletionProtected');
    } catch (error) {
      expect(error).toBeInstanceOf(DeletionProtected);
      expect((error as DeletionProtected).protected_resources.map((r) => r.id)).toEqual([C, NP]);
    }
  });

  it('once cleared (caller and reason recorded), the DELETE goes through', () => {
    const cleared = protectedBy(C, 'Cluster', false, 'root@example.com', 'retire', T1);
    const events = spec
      .given([clusterCreated, protectedBy(C, 'Cluster', true), cleared])
      .when({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() })
      .thenEvents();
    expect(events.map((e) => e.type)).toEqual(['DeletionRequested']);
  });

  it('the preview (dryRun=All) reports the same refusal and records nothing', () => {
    const state = fold([clusterCreated, npCreated, protectedBy(NP, 'NodePool', true)]);
    const preview = previewDeletion({ type: 'RequestDeletion', id: C, kind: 'Cluster', metadata: meta() }, state, kinds);
    expect(preview.outcome).toBe('Refused');
    expect(preview.refusal).toBeInstanceOf(DeletionProtected);
    expect((preview.refusal as DeletionProtected).protected_resources).toEqual([{ id: NP, kind: 'NodePool', name: 'np-a' }]);
  });
});
