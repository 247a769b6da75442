import { adapterNotFinalizedBlocker, finalizingBlockers, type BlockerInput } from './finalizing-blockers.js';
import type { DeletionStatusBlocker } from './deletion-status.js';
import type { AdapterStatus } from './resource.events.js';
import { holdingOf, MAX_HOLDERS } from './holding.js';

const T = '2026-12-01T10:00:00.000Z';
const report = (adapter: string, generation: number, conditions: Record<string, [string, string?, string?]>): AdapterStatus => ({
  adapter,
  observed_generation: generation,
  conditions: Object.entries(conditions).map(([type, [status, reason, message]]) => ({
    type,
    status: status as 'True' | 'False' | 'Unknown',
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
    last_transition_time: T,
  })),
  created_time: T,
  last_report_time: '2026-12-01T10:00:05.000Z',
});
const base = (over: Partial<BlockerInput> = {}): BlockerInput => ({
  deleted_time: T,
  now: '2026-12-01T10:01:00.000Z',
  status_blockers: [],
  conditions: [],
  dead_letters: [],
  ...over,
});
const paused: DeletionStatusBlocker = {
  type: 'Paused',
  message: "paused by alice: INC-9 (via parent Cluster 'c1')",
  source: 'parent',
  resource: { id: 'c1', kind: 'Cluster' },
  paused_by: 'alice',
  reason: 'INC-9',
  paused_time: T,
};
const cycle: DeletionStatusBlocker = {
  type: 'DependencyCycle',
  message: 'dependency cycle',
  members: [
    { id: 'a', kind: 'NodePool', name: 'a' },
    { id: 'b', kind: 'NodePool', name: 'b' },
    { id: 'a', kind: 'NodePool', name: 'a' },
  ],
  edges: [
    { from: 'a', to: 'b', kind: 'InUse' },
    { from: 'b', to: 'a', kind: 'InUse' },
  ],
};
const inUse: DeletionStatusBlocker = {
  type: 'InUse',
  message: "in use by Cluster 'consumer' (live)",
  referrers: [{ id: 'r1', kind: 'Cluster', name: 'consumer', deleting: false, blockers: [] }],
};
const dependents: DeletionStatusBlocker = {
  type: 'DependentsRemaining',
  message: '2 child record(s)',
  count: 2,
  ids: ['n1', 'n2'],
  holds_adapters: false,
};
const dead = { queue: 'adapter-run.validation', id: 'validation.cluster-x.gen-2', attempts: 1, error: 'Forbidden', failed_time: T };

describe('AdapterNotFinalized: what the last report says (seed 000 #5)', () => {
  it('an adapter that never reported: reported=false', () => {
    expect(adapterNotFinalizedBlocker('validation', undefined, 2, false)).toEqual({
      type: 'AdapterNotFinalized',
      adapter: 'validation',
      reported: false,
      generation: 2,
      held_by_pause: false,
      message: 'validation: no report yet',
    });
  });

  it('an unhealthy adapter: its Health reason and message, Finalized and the last report time', () => {
    const status = report('validation', 2, {
      Finalized: ['False', 'CleanupFailed', 'not done'],
      Health: ['False', 'DeletionError', '403 Forbidden'],
    });
    expect(adapterNotFinalizedBlocker('validation', status, 2, false)).toMatchObject({
      type: 'AdapterNotFinalized',
      reported: true,
      observed_generation: 2,
      health: { status: 'False', reason: 'DeletionError', message: '403 Forbidden' },
      finalized: { status: 'False', reason: 'CleanupFailed', message: 'not done' },
      last_report_time: '2026-12-01T10:00:05.000Z',
      message: 'validation: DeletionError: 403 Forbidden',
    });
  });

  it('a report naming the objects it waits on: holding (since = deletionTimestamp) and the first one in the message', () => {
    const status: AdapterStatus = {
      ...report('validation', 2, {
        Finalized: ['False', 'CleanupInProgress', 'Resource cleanup in progress'],
        Health: ['True', 'NoErrors'],
      }),
      data: {
        holding: [
          {
            kind: 'Job',
            namespace: 'ns-x',
            name: 'job-y',
            finalizers: ['example.com/hold', 'example.com/other'],
            deletion_timestamp: '2026-12-01T09:59:00Z',
          },
          { kind: 'Namespace', name: 'ns-x', finalizers: [], deletion_timestamp: '2026-12-01T09:59:30Z' },
          { kind: 'ConfigMap', name: 'no-timestamp', finalizers: ['x'] },
          'not an object',
        ],
        other: 'kept by the adapter',
      },
    };
    const blocker = adapterNotFinalizedBlocker('validation', status, 2, false);
    expect(blocker.holding).toEqual([
      {
        kind: 'Job',
        namespace: 'ns-x',
        name: 'job-y',
        finalizers: ['example.com/hold', 'example.com/other'],
        since: '2026-12-01T09:59:00Z',
      },
      { kind: 'Namespace', name: 'ns-x', finalizers: [], since: '2026-12-01T09:59:30Z' },
    ]);
    expect(blocker.message).toBe(
      'validation: waiting for Job ns-x/job-y (finalizers: example.com/hold, example.com/other, since 2026-12-01T09:59:00Z); and 1 more',
    );
    expect(blocker.finalized).toEqual({ status: 'False', reason: 'CleanupInProgress', message: 'Resource cleanup in progress' });
  });

  it('a cluster-scoped holder without finalizers; an unhealthy Health is still named after it', () => {
    const status: AdapterStatus = {
      ...report('validation', 2, { Finalized: ['False'], Health: ['False', 'DeletionError', '403 Forbidden'] }),
      data: { holding: [{ kind: 'Namespace', name: 'ns-x', finalizers: [], deletion_timestamp: '2026-12-01T09:59:30Z' }] },
    };
    expect(adapterNotFinalizedBlocker('validation', status, 2, false).message).toBe(
      'validation: waiting for Namespace ns-x (since 2026-12-01T09:59:30Z); DeletionError: 403 Forbidden',
    );
  });

  it('no holder: a report without data.holding (any other adapter), a malformed one, or one of an older generation', () => {
    const plain = report('validation', 2, { Finalized: ['False', 'CleanupInProgress', 'Resource cleanup in progress'] });
    expect(adapterNotFinalizedBlocker('validation', plain, 2, false)).not.toHaveProperty('holding');
    expect(adapterNotFinalizedBlocker('validation', plain, 2, false).message).toBe(
      'validation: CleanupInProgress: Resource cleanup in progress',
    );
    expect(adapterNotFinalizedBlocker('validation', { ...plain, data: { holding: 'Job x' } }, 2, false)).not.toHaveProperty('holding');
    const old = {
      ...plain,
      observed_generation: 1,
      data: { holding: [{ kind: 'Job', name: 'j', finalizers: [], deletion_timestamp: T }] },
    };
    expect(adapterNotFinalizedBlocker('validation', old, 2, false)).not.toHaveProperty('holding');
  });

  it('a report at an older generation says so', () => {
    expect(adapterNotFinalizedBlocker('validation', report('validation', 1, { Finalized: ['True'] }), 2, true)).toMatchObject({
      message: 'validation: last report at generation 1, deletion is generation 2',
      held_by_pause: true,
    });
  });
});

describe('finalizing blockers: the stored status plus what depends on the read (seed 001 stuck detection, seed 004)', () => {
  it('keeps the stored blockers as they are, root causes first; a dead letter follows the root causes', () => {
    const blockers = finalizingBlockers(base({ status_blockers: [cycle, paused, inUse, dependents], dead_letters: [dead] }));
    expect(blockers.map((b) => b.type)).toEqual(['DependencyCycle', 'Paused', 'DeadLettered', 'InUse', 'DependentsRemaining']);
    expect(blockers[0]).toEqual(cycle);
    expect(blockers[2]).toMatchObject({
      queue: 'adapter-run.validation',
      job_id: 'validation.cluster-x.gen-2',
      message: 'job validation.cluster-x.gen-2 dead-lettered after 1 attempt(s): Forbidden',
    });
    expect(blockers[3]).toEqual(inUse);
  });

  it('JobQueueUnavailable first while the queue cannot be read: a deletion with nothing else left still waits on it', () => {
    const down = { reason: 'Redis: connect ECONNREFUSED 127.0.0.1:6379', since: '2026-12-01T10:00:05.000Z' };
    expect(finalizingBlockers(base({ job_queue_unavailable: down }))).toEqual([
      {
        type: 'JobQueueUnavailable',
        reason: down.reason,
        since: down.since,
        message: `the job queue is unreachable since ${down.since} (${down.reason}): this deletion's adapter runs and hard delete wait for it; dead letters are unknown`,
      },
    ]);
    expect(finalizingBlockers(base({ status_blockers: [paused], job_queue_unavailable: down })).map((b) => b.type)).toEqual([
      'JobQueueUnavailable',
      'Paused',
    ]);
    expect(finalizingBlockers(base({}))).toEqual([]);
  });

  it('an adapter whose queue no worker consumes: its AdapterNotFinalized blocker says so first, the others stay as stored', () => {
    const stale = adapterNotFinalizedBlocker('np-configmap', report('np-configmap', 1, { Finalized: ['True'] }), 2, false);
    const other = adapterNotFinalizedBlocker('validation', undefined, 2, false);
    const blockers = finalizingBlockers(
      base({ status_blockers: [stale, other], idle_adapters: [{ adapter: 'np-configmap', queue: 'adapter-run.np-configmap' }] }),
    );
    expect(blockers).toEqual([
      {
        ...stale,
        no_worker: true,
        message: 'np-configmap: no decom worker consumes adapter-run.np-configmap (last report at generation 1, deletion is generation 2)',
      },
      other,
    ]);
    // An idle queue of an adapter this deletion does not wait on adds nothing.
    expect(
      finalizingBlockers(
        base({ status_blockers: [other], idle_adapters: [{ adapter: 'np-configmap', queue: 'adapter-run.np-configmap' }] }),
      ),
    ).toEqual([other]);
  });

  it('TimedOut once now passed deleted_time + deletion_timeout_seconds, and not before', () => {
    expect(finalizingBlockers(base({ deletion_timeout_seconds: 30 }))).toEqual([
      {
        type: 'TimedOut',
        message: 'deletion timed out at 2026-12-01T10:00:30.000Z (deletion_timeout_seconds 30)',
        since: '2026-12-01T10:00:30.000Z',
        timeout_seconds: 30,
      },
    ]);
    expect(finalizingBlockers(base({ deletion_timeout_seconds: 600 }))).toEqual([]);
  });

  it('a DeletionBlocked reason the status does not carry is shown as the condition says; its own reasons are not repeated', () => {
    const cond = (reason: string, message: string) => ({
      type: 'DeletionBlocked',
      status: 'True' as const,
      reason,
      message,
      observed_generation: 2,
      created_time: T,
      last_updated_time: T,
      last_transition_time: T,
    });
    const blockers = finalizingBlockers(
      base({ status_blockers: [inUse], conditions: [cond('InUse', 'in use by 1'), cond('QuotaHold', 'held')] }),
    );
    expect(blockers).toEqual([inUse, { type: 'DeletionBlocked', reason: 'QuotaHold', message: 'held' }]);
  });
});

describe('holdingOf (the holders of a report’s data)', () => {
  it('keeps at most MAX_HOLDERS, in the report’s order', () => {
    const holding = Array.from({ length: MAX_HOLDERS + 5 }, (_, i) => ({
      kind: 'ConfigMap',
      namespace: 'ns',
      name: `cm-${i}`,
      finalizers: ['example.com/hold'],
      deletion_timestamp: '2026-12-03T10:00:00Z',
    }));
    const kept = holdingOf({ holding });
    expect(kept).toHaveLength(MAX_HOLDERS);
    expect(kept[0]).toEqual({
      kind: 'ConfigMap',
      namespace: 'ns',
      name: 'cm-0',
      finalizers: ['example.com/hold'],
      since: '2026-12-03T10:00:00Z',
    });
    expect(kept.at(-1)!.name).toBe(`cm-${MAX_HOLDERS - 1}`);
  });
});
