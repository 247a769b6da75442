import { DependencyCycle, KindRegistry, LiveReferrers, ResourceNotFound, fold, previewDeletion, type ResourceEvent } from '@decom/domain';

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', on_parent_delete: 'cascade', required_adapters: ['np-configmap'] },
]);
const T0 = '2026-11-29T10:00:00.000Z';
const T1 = '2026-11-29T10:01:00.000Z';
const meta = { now: T1, caller: 'alice@example.com' };
const created = (id: string, kind: string, name: string, extra: Record<string, unknown> = {}): ResourceEvent =>
  ({
    type: 'ResourceCreated',
    data: { id, kind, name, spec: {}, labels: {}, generation: 1, created_time: T0, created_by: 'alice@example.com', ...extra },
  }) as ResourceEvent;
const cluster = created('c1', 'Cluster', 'prod');
const pool = created('n1', 'NodePool', 'pool', { owner_references: { id: 'c1', kind: 'Cluster' }, deletion_policy: 'Orphan' });

describe('previewDeletion', () => {
  it('given a cluster with a node pool, when previewed, then lists both in hard-delete order with policy, propagation and frozen adapters', () => {
    const preview = previewDeletion({ type: 'RequestDeletion', id: 'c1', kind: 'Cluster', metadata: meta }, fold([cluster, pool]), kinds);
    expect(preview.outcome).toBe('WouldDelete');
    expect(preview.resources).toEqual([
      {
        id: 'n1',
        kind: 'NodePool',
        name: 'pool',
        generation: 2,
        cascaded_from: 'c1',
        deletion_policy: 'Orphan',
        deletion_policy_source: 'own',
        deletion_propagation: 'Background',
        required_adapters: ['np-configmap'],
        notes: [
          expect.stringContaining(
            "deletion_policy Orphan under Cluster 'prod' (c1), deleted with Delete: a Namespace an adapter of Cluster 'prod' deletes is kept (released, not deleted)",
          ),
        ],
      },
      {
        id: 'c1',
        kind: 'Cluster',
        name: 'prod',
        generation: 2,
        deletion_policy: 'Delete',
        deletion_policy_source: 'default',
        deletion_propagation: 'Background',
        required_adapters: ['validation'],
      },
    ]);
  });

  it('given no Orphan under a Delete ancestor of the same DELETE, when previewed, then no resource has notes', () => {
    const deletePool = created('n1', 'NodePool', 'pool', { owner_references: { id: 'c1', kind: 'Cluster' } });
    expect(
      previewDeletion(
        { type: 'RequestDeletion', id: 'c1', kind: 'Cluster', metadata: meta },
        fold([cluster, deletePool]),
        kinds,
      ).resources.map((r) => r.notes),
    ).toEqual([undefined, undefined]);
    // The nodepool alone: its cluster is not deleted by this DELETE, so nothing deletes the Namespace now.
    expect(
      previewDeletion({ type: 'RequestDeletion', id: 'n1', kind: 'NodePool', metadata: meta }, fold([cluster, pool]), kinds).resources.map(
        (r) => r.notes,
      ),
    ).toEqual([undefined]);
    // An Orphan cluster: the nodepool inherits Orphan, no ancestor deletes.
    const orphanCluster = created('c1', 'Cluster', 'prod', { deletion_policy: 'Orphan' });
    expect(
      previewDeletion(
        { type: 'RequestDeletion', id: 'c1', kind: 'Cluster', metadata: meta },
        fold([orphanCluster, pool]),
        kinds,
      ).resources.map((r) => r.notes),
    ).toEqual([undefined, undefined]);
  });

  it('given a propagationPolicy, when previewed, then each resource shows it', () => {
    const preview = previewDeletion(
      { type: 'RequestDeletion', id: 'c1', kind: 'Cluster', propagation_policy: 'Foreground', metadata: meta },
      fold([cluster, pool]),
      kinds,
    );
    expect(preview.resources.map((r) => r.deletion_propagation)).toEqual(['Foreground', 'Foreground']);
  });

  it('given a live referrer, when previewed, then the refusal is the LiveReferrers the DELETE would throw', () => {
    const preview = previewDeletion(
      {
        type: 'RequestDeletion',
        id: 'c1',
        kind: 'Cluster',
        live_referrers: [{ id: 'x1', kind: 'Cluster', name: 'user', paused: false }],
        metadata: meta,
      },
      fold([cluster]),
      kinds,
    );
    expect(preview.outcome).toBe('Refused');
    expect(preview.resources).toEqual([]);
    expect(preview.refusal).toBeInstanceOf(LiveReferrers);
    expect(preview.refusal?.message).toMatch(/referenced by live Cluster 'user'/);
  });

  it('given two clusters referencing each other, one deleting, when the other is previewed, then the refusal is a DependencyCycle', () => {
    const a = created('a1', 'Cluster', 'a', { references: { uses: [{ id: 'b1', kind: 'Cluster' }] } });
    const b = created('b1', 'Cluster', 'b', { references: { uses: [{ id: 'a1', kind: 'Cluster' }] } });
    const aDeleting: ResourceEvent = {
      type: 'DeletionRequested',
      data: {
        id: 'a1',
        kind: 'Cluster',
        generation: 2,
        deleted_time: T1,
        deleted_by: 'alice@example.com',
        required_adapters: ['validation'],
      },
    };
    const preview = previewDeletion({ type: 'RequestDeletion', id: 'b1', kind: 'Cluster', metadata: meta }, fold([a, b, aDeleting]), kinds);
    expect(preview.outcome).toBe('Refused');
    expect(preview.refusal).toBeInstanceOf(DependencyCycle);
  });

  it('given a resource already marked, when previewed, then AlreadyDeleting and nothing to mark', () => {
    const marked: ResourceEvent = {
      type: 'DeletionRequested',
      data: {
        id: 'c1',
        kind: 'Cluster',
        generation: 2,
        deleted_time: T1,
        deleted_by: 'alice@example.com',
        required_adapters: ['validation'],
      },
    };
    expect(previewDeletion({ type: 'RequestDeletion', id: 'c1', kind: 'Cluster', metadata: meta }, fold([cluster, marked]), kinds)).toEqual(
      {
        target: { id: 'c1', kind: 'Cluster' },
        outcome: 'AlreadyDeleting',
        resources: [],
      },
    );
  });

  it('given no resource, when previewed, then ResourceNotFound as for the DELETE', () => {
    expect(() => previewDeletion({ type: 'RequestDeletion', id: 'c1', kind: 'Cluster', metadata: meta }, fold([]), kinds)).toThrow(
      ResourceNotFound,
    );
  });
});
