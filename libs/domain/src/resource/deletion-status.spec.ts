/**
 * The one deletion truth: table-driven cases per seed section, and a property over random forests.
 */
import fc from 'fast-check';
import {
  conditionBlockersOf,
  deletionAdaptersToRun,
  dispatchOf,
  deletionStatus,
  deletionStatuses,
  type DeletionGraph,
  type DeletionNode,
} from '@decom/domain';

const T = '2026-12-01T10:00:00.000Z';
const finalized = (adapter: string, generation: number) => ({
  adapter,
  observed_generation: generation,
  conditions: [{ type: 'Finalized', status: 'True' as const, last_transition_time: T }],
  created_time: T,
  last_report_time: T,
});
const node = (id: string, extra: Partial<DeletionNode> = {}): DeletionNode => ({
  id,
  kind: extra.owner_id ? 'NodePool' : 'Cluster',
  name: id,
  generation: 2,
  adapter_statuses: {},
  references: [],
  ...extra,
});
const deleting = (id: string, extra: Partial<DeletionNode> = {}) =>
  node(id, { deleted_time: T, deletion_required_adapters: ['a'], deletion_propagation: 'Background', ...extra });
const graph = (...nodes: DeletionNode[]): DeletionGraph => ({
  nodes: new Map(nodes.map((n) => [n.id, n])),
  requiredAdaptersOf: () => ['today'],
});

describe('deletionStatus', () => {
  describe('seed 004 "The order": the bottom-up record wait is an edge of the wait graph', () => {
    it('Background: an owner that uses its own child is a DependencyCycle, members and edges named', () => {
      const g = graph(deleting('c1', { references: ['np1'] }), deleting('np1', { owner_id: 'c1' }));
      const status = deletionStatus(g, 'np1')!;
      expect(status.dispatch).toEqual({ action: 'hold', reason: 'DependencyCycle' });
      expect(status.blockers[0]).toMatchObject({
        type: 'DependencyCycle',
        members: [{ id: 'np1' }, { id: 'c1' }, { id: 'np1' }],
        edges: [
          { from: 'np1', to: 'c1', kind: 'InUse' },
          { from: 'c1', to: 'np1', kind: 'RecordWait' },
        ],
      });
      expect(deletionStatus(g, 'c1')!.blockers[0]).toMatchObject({ type: 'DependencyCycle' });
    });

    it('a child using its parent is no cycle: the parent waits, the child runs', () => {
      const g = graph(deleting('c1'), deleting('np1', { owner_id: 'c1', references: ['c1'] }));
      expect(deletionStatus(g, 'np1')!.dispatch).toEqual({ action: 'run', adapters: ['a'] });
      expect(deletionStatus(g, 'c1')!.dispatch).toEqual({ action: 'hold', reason: 'InUse' });
    });

    it('Background dependents hold the record only; Foreground dependents hold the adapters', () => {
      const bg = deletionStatus(graph(deleting('c1'), deleting('np1', { owner_id: 'c1' })), 'c1')!;
      expect(bg.dispatch).toEqual({ action: 'run', adapters: ['a'] });
      expect(bg.blockers.find((b) => b.type === 'DependentsRemaining')).toMatchObject({ ids: ['np1'], holds_adapters: false });
      const fg = deletionStatus(graph(deleting('c1', { deletion_propagation: 'Foreground' }), deleting('np1', { owner_id: 'c1' })), 'c1')!;
      expect(fg.dispatch).toEqual({ action: 'hold', reason: 'DependentsExist' });
      expect(fg.phase).toBe('Held');
    });
  });

  it('the adapters are the set frozen at DeletionRequested, each with its last report', () => {
    const status = deletionStatus(
      graph(
        deleting('c1', { deletion_required_adapters: ['validation', 'dns'], adapter_statuses: { validation: finalized('validation', 2) } }),
      ),
      'c1',
    )!;
    expect(status.required_adapters).toEqual(['validation', 'dns']);
    expect(status.blockers).toEqual([expect.objectContaining({ type: 'AdapterNotFinalized', adapter: 'dns', reported: false })]);
    expect(status.dispatch).toEqual({ action: 'run', adapters: ['dns'] });
  });

  it('InUse names referrers that are themselves deleting, with their own blockers', () => {
    const g = graph(
      deleting('c1'),
      deleting('op1', { owner_id: 'c1' }),
      deleting('app1', { owner_id: 'c1', references: ['op1'], paused: { caller: 'bob', reason: 'hold', time: T } }),
    );
    const inUse = deletionStatus(g, 'op1')!.blockers.find((b) => b.type === 'InUse');
    expect(inUse).toMatchObject({
      referrers: [{ id: 'app1', deleting: true, blockers: [{ type: 'Paused', message: 'paused by bob: hold' }, expect.anything()] }],
    });
    expect(inUse!.message).toContain("NodePool 'app1' (deleting; paused by bob: hold)");
  });

  it('seed 004 pause: self, parent, dependent — by whom and from where', () => {
    const g = graph(deleting('c1'), deleting('np1', { owner_id: 'c1', paused: { caller: 'bob', reason: 'move', time: T } }));
    expect(deletionStatus(g, 'c1')!.blockers[0]).toMatchObject({
      type: 'Paused',
      source: 'dependent',
      paused_by: 'bob',
      resource: { id: 'np1' },
    });
    expect(deletionStatus(g, 'np1')!.phase).toBe('Paused');
  });

  it('effective policy: recorded once deleting; a force orphan wins', () => {
    const recorded = { policy: 'Delete' as const, source: 'own' as const };
    expect(deletionStatus(graph(deleting('c1', { recorded_policy: recorded, deletion_policy: 'Orphan' })), 'c1')!.effective_policy).toEqual(
      recorded,
    );
    expect(deletionStatus(graph(deleting('c1', { recorded_policy: recorded, force_orphan: true })), 'c1')!.effective_policy).toEqual({
      policy: 'Orphan',
      source: 'force-orphan on Cluster/c1',
    });
  });

  it('the DeletionBlocked condition holds what dispatch holds, in its order: cycle, Foreground dependents, referrers', () => {
    const fg = deletionStatus(
      graph(
        deleting('c1', { deletion_propagation: 'Foreground' }),
        deleting('np2', { owner_id: 'c1' }),
        deleting('np1', { owner_id: 'c1' }),
        node('u1', { references: ['c1'] }),
      ),
      'c1',
    )!;
    expect(conditionBlockersOf(fg)).toEqual([
      { reason: 'DependentsExist', ids: ['np1', 'np2'] },
      { reason: 'InUse', ids: ['u1'] },
    ]);
    const bg = deletionStatus(graph(deleting('c1', { references: ['np1'] }), deleting('np1', { owner_id: 'c1' })), 'c1')!;
    expect(conditionBlockersOf(bg)).toEqual([{ reason: 'DependencyCycle', ids: ['c1', 'np1', 'c1'] }]);
    expect(conditionBlockersOf(deletionStatus(graph(deleting('c1'), deleting('np1', { owner_id: 'c1' })), 'c1')!)).toEqual([]);
  });

  it('dispatchOf reads the stored decision of a deleting resource; a live one has none', () => {
    const hold = { action: 'hold' as const, reason: 'InUse' as const };
    expect(dispatchOf({ deleted_time: T, deletion_dispatch: hold })).toEqual(hold);
    expect(dispatchOf({ deletion_dispatch: hold })).toBeUndefined();
    expect(dispatchOf({ deleted_time: T })).toBeUndefined();
  });

  it('a live resource has no deletion status; older histories fall back to the kind set', () => {
    expect(deletionStatus(graph(node('c1')), 'c1')).toBeUndefined();
    expect(deletionStatus(graph(node('c1', { deleted_time: T })), 'c1')!.required_adapters).toEqual(['today']);
  });
});

/**
 * Property: random forests with random cross-tree references, propagations, pauses and live resources.
 * Simulate the engine (dispatch finalizes the adapters it may run; the gate hard-deletes) to a fixpoint.
 * Whatever is left pending must carry a blocker naming a cause a person can act on: a pause, a cycle, a
 * live referrer, or (through InUse / dependents) a resource that itself carries one.
 */
describe('deletionStatus property: no pending deletion is left without progress or a named cause', () => {
  const arbitraryGraph = fc
    .array(
      fc.record({
        parent: fc.option(fc.nat(), { nil: undefined }),
        refs: fc.array(fc.nat(), { maxLength: 2 }),
        deleting: fc.boolean(),
        foreground: fc.boolean(),
        paused: fc.integer({ min: 0, max: 9 }),
      }),
      { minLength: 1, maxLength: 9 },
    )
    .map((specs) => {
      const nodes = specs.map((s, i) => ({
        id: `r${i}`,
        // Parents come first, so the owner relation is a forest.
        owner: s.parent !== undefined && i > 0 ? `r${s.parent % i}` : undefined,
        refs: s.refs.map((r) => `r${r % specs.length}`),
        deleting: s.deleting,
        foreground: s.foreground,
        paused: s.paused === 0,
      }));
      // A deleting owner's children are deleting too (the cascade).
      const isDeleting = new Map<string, boolean>();
      for (const n of nodes) isDeleting.set(n.id, n.deleting || (n.owner !== undefined && isDeleting.get(n.owner) === true));
      return new Map(
        nodes.map((n): [string, DeletionNode] => [
          n.id,
          node(n.id, {
            ...(n.owner ? { owner_id: n.owner } : {}),
            references: n.refs,
            ...(isDeleting.get(n.id)
              ? { deleted_time: T, deletion_required_adapters: ['a'], deletion_propagation: n.foreground ? 'Foreground' : 'Background' }
              : {}),
            ...(n.paused ? { paused: { caller: 'bob', reason: 'why', time: T } } : {}),
          }),
        ]),
      );
    });

  it('holds for a few hundred random forests', () => {
    fc.assert(
      fc.property(arbitraryGraph, (initial) => {
        const nodes = new Map(initial);
        const snapshot = (): DeletionGraph => ({ nodes, requiredAdaptersOf: () => ['a'] });
        for (let step = 0; step < 50; step++) {
          let changed = false;
          for (const [id, status] of deletionStatuses(snapshot())) {
            const n = nodes.get(id)!;
            const paused = status.blockers.some((b) => b.type === 'Paused');
            if (status.dispatch.action === 'run' && status.dispatch.adapters.length > 0 && !paused) {
              nodes.set(id, { ...n, adapter_statuses: { a: finalized('a', n.generation) } });
              changed = true;
            } else if (status.phase === 'HardDeleteDue') {
              nodes.delete(id);
              changed = true;
            }
          }
          if (!changed) break;
        }
        const statuses = deletionStatuses(snapshot());
        const actionable = (id: string, seen: ReadonlySet<string>): boolean => {
          const status = statuses.get(id);
          if (!status) return nodes.has(id); // a live resource: deleting it is the action
          if (seen.has(id)) return false;
          const next = new Set([...seen, id]);
          return status.blockers.some(
            (b) =>
              b.type === 'Paused' ||
              b.type === 'DependencyCycle' ||
              (b.type === 'InUse' && b.referrers.some((r) => actionable(r.id, next))) ||
              (b.type === 'DependentsRemaining' && b.ids.some((c) => actionable(c, next))),
          );
        };
        for (const [id, status] of statuses) {
          if (
            status.phase === 'HardDeleteDue' ||
            (status.dispatch.action === 'run' && status.dispatch.adapters.length > 0 && status.phase !== 'Paused')
          )
            continue;
          if (!actionable(id, new Set())) throw new Error(`${id} pending without a named cause: ${JSON.stringify(status.blockers)}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('deletionAdaptersToRun', () => {
  const deleting = { deleted_time: '2026-12-03T10:00:00Z' };
  it('runs the stored decision’s adapters, none while held, the frozen set without a decision, today’s only for a deletion recorded without one', () => {
    expect(
      deletionAdaptersToRun(
        { ...deleting, deletion_required_adapters: ['dns', 'validation'], deletion_dispatch: { action: 'run', adapters: ['validation'] } },
        ['dns', 'validation', 'new'],
      ),
    ).toEqual(['validation']);
    expect(
      deletionAdaptersToRun({ ...deleting, deletion_required_adapters: ['dns'], deletion_dispatch: { action: 'hold', reason: 'InUse' } }, [
        'dns',
      ]),
    ).toEqual([]);
    expect(deletionAdaptersToRun({ ...deleting, deletion_required_adapters: ['dns'] }, ['dns', 'new'])).toEqual(['dns']);
    expect(deletionAdaptersToRun(deleting, ['dns', 'new'])).toEqual(['dns', 'new']);
  });
});
