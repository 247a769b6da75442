/**
 * The sweeper's decisions with Sentinel's default rule, over resources as the API lists them (an
 * in-memory source) and a real in-process queue: what it dispatches, when it recovers, how it dedupes.
 */
import { KindRegistry } from '@decom/domain';
import { InProcessJobQueue } from './in-process-job-queue.js';
import { compileMessageDecision, sentinelDefaultDecision } from './sentinel/message-decision.js';
import { sentinelRules } from './sentinel/sentinel-config.loader.js';
import { Sweeper, type SweepSource, type SweptResource } from './sweeper.js';
import type { JobQueue } from './job-queue.port.js';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation', 'dns'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', required_adapters: ['np-configmap'] },
]);

/** Creation order of the test resources (their created_time): the sweep's keyset order. */
let order = 0;

function resource(
  id: string,
  kind: string,
  generation: number,
  reconciled: 'True' | 'False',
  secondsAgo: number,
  deleting = false,
): SweptResource {
  return {
    id,
    kind,
    href: `/api/hyperfleet/v1/${kind === 'Cluster' ? 'clusters' : 'nodepools'}/${id}`,
    created_time: new Date(NOW - 86_400_000 + order++).toISOString(),
    generation,
    status: {
      conditions: [
        {
          type: 'Reconciled',
          status: reconciled,
          observed_generation: generation,
          last_updated_time: new Date(NOW - secondsAgo * 1000).toISOString(),
        } as never,
      ],
    },
    ...(deleting ? { deleted_time: new Date(NOW - 60_000).toISOString() } : {}),
  };
}

/** Keyset pages over `items` as ResourceQueries.pageAfter reads them: (created_time, id) order, strictly after the cursor. */
const source = (items: SweptResource[]): SweepSource => ({
  async pageAfter({ kind, size, after }) {
    return items
      .filter(
        (r) =>
          r.kind === kind && (!after || r.created_time > after.created_time || (r.created_time === after.created_time && r.id > after.id)),
      )
      .sort((a, b) => (a.created_time === b.created_time ? (a.id < b.id ? -1 : 1) : a.created_time < b.created_time ? -1 : 1))
      .slice(0, size);
  },
});

/** Records enqueues without running them (no handler registered). */
function recorder(queue: JobQueue) {
  const ids: string[] = [];
  return {
    ids,
    queue: {
      ...queue,
      epoch: () => queue.epoch(),
      enqueue: async (q: string, id: string, data: unknown, o?: object) => (ids.push(`${q} ${id}`), queue.enqueue(q, id, data, o)),
    } as JobQueue,
  };
}

describe('Sweeper (Sentinel default rule)', () => {
  const items = [
    resource('fresh', 'Cluster', 2, 'False', 5), // not Reconciled for 5 s: within the debounce
    resource('stuck', 'Cluster', 2, 'False', 30), // not Reconciled for 30 s: re-dispatched
    resource('healthy', 'Cluster', 1, 'True', 60), // Reconciled for a minute: left alone
    resource('stale', 'NodePool', 1, 'True', 3_600), // Reconciled for an hour: past the 30 m max age
    resource('deleting', 'NodePool', 3, 'False', 20, true), // deleting, not Reconciled: adapters + hard-delete check
    resource('gate-held', 'Cluster', 4, 'True', 5, true), // deleting, Reconciled: its hard delete was lost
  ];
  let inner: InProcessJobQueue;
  beforeEach(() => (inner = new InProcessJobQueue()));
  afterEach(() => inner.close());

  const sweeper = (queue: JobQueue) =>
    new Sweeper(
      kinds,
      queue,
      source(items),
      sentinelRules(new Map(), compileMessageDecision(sentinelDefaultDecision())),
      { intervalMs: 30_000, pageSize: 2 },
      () => NOW,
    );

  it('dispatches what the rule picks; re-checks the hard delete of a deleting resource whose gate holds', async () => {
    const { ids, queue } = recorder(inner);
    expect(await sweeper(queue).sweepOnce('rule')).toBe(6);
    const bucket = `sweep-${Math.floor(NOW / 30_000)}`;
    expect(ids).toEqual([
      `adapter-run.validation validation.cluster-stuck.gen-2.${bucket}`,
      `adapter-run.dns dns.cluster-stuck.gen-2.${bucket}`,
      `hard-delete hard-delete.cluster-gate-held.${bucket}`,
      `adapter-run.np-configmap np-configmap.nodepool-stale.gen-1.${bucket}`,
      `adapter-run.np-configmap np-configmap.nodepool-deleting.gen-3.${bucket}`,
      `hard-delete hard-delete.nodepool-deleting.${bucket}`,
    ]);
  });

  it('runs a recovery sweep first and whenever the queue epoch changes: every resource with pending work, no debounce', async () => {
    const { ids, queue } = recorder(inner);
    let epoch = 'e1';
    const flushable = { ...queue, epoch: async () => epoch } as JobQueue;
    const s = sweeper(flushable);
    await s.sweepOnce();
    const recovery = ids.splice(0).filter((id) => id.includes('.recovery-'));
    expect(recovery.map((id) => id.split(' ')[1]!.split('.').slice(0, 2).join('.'))).toEqual([
      'validation.cluster-fresh',
      'dns.cluster-fresh',
      'validation.cluster-stuck',
      'dns.cluster-stuck',
      'validation.cluster-gate-held',
      'dns.cluster-gate-held',
      'hard-delete.cluster-gate-held',
      'np-configmap.nodepool-deleting',
      'hard-delete.nodepool-deleting',
    ]);
    await s.sweepOnce();
    expect(ids.splice(0).every((id) => id.includes('.sweep-'))).toBe(true);
    epoch = 'e2'; // Redis was flushed
    await s.sweepOnce();
    expect(ids.splice(0).filter((id) => id.includes('.recovery-'))).toHaveLength(9);
  });

  it('dispatches once per interval, also from several API processes (same bucket, same ids)', async () => {
    expect(await sweeper(inner).sweepOnce('rule')).toBe(6);
    expect(await sweeper(inner).sweepOnce('rule')).toBe(0);
  });

  it('skips adapters nobody serves and reports a rule failure without stopping the sweep', async () => {
    const errors: unknown[] = [];
    const broken = sentinelRules(
      new Map([['clusters', compileMessageDecision({ params: [], result: 'resource.generation' })]]),
      compileMessageDecision(sentinelDefaultDecision()),
    );
    const { ids, queue } = recorder(inner);
    const s = new Sweeper(
      kinds,
      queue,
      source(items),
      broken,
      { intervalMs: 30_000 },
      () => NOW,
      (e) => errors.push(e),
      (a) => a !== 'dns',
    );
    await s.sweepOnce('rule');
    expect(errors).toHaveLength(4);
    expect(ids.some((id) => id.includes('dns.'))).toBe(false);
    expect(ids.filter((id) => id.includes('nodepool-'))).toHaveLength(3);
  });

  it('a held deletion (its stored dispatch decision) gets no adapter run (only its hard-delete check); a deletion runs what its decision still needs', async () => {
    const held: SweptResource = {
      ...resource('held', 'Cluster', 2, 'False', 30, true),
      deletion_propagation: 'Foreground',
      deletion_dispatch: { action: 'hold', reason: 'DependentsExist' },
    };
    // Frozen with both adapters; dns has finalized already, so the decision runs validation only.
    const frozen: SweptResource = {
      ...resource('frozen', 'Cluster', 2, 'False', 30, true),
      deletion_required_adapters: ['dns', 'validation'],
      deletion_dispatch: { action: 'run', adapters: ['validation'] },
    };
    const { ids, queue } = recorder(inner);
    const s = new Sweeper(
      kinds,
      queue,
      source([held, frozen]),
      sentinelRules(new Map(), compileMessageDecision(sentinelDefaultDecision())),
      { intervalMs: 30_000 },
      () => NOW,
    );
    await s.sweepOnce('rule');
    const bucket = `sweep-${Math.floor(NOW / 30_000)}`;
    expect(ids).toEqual([
      `hard-delete hard-delete.cluster-held.${bucket}`,
      `adapter-run.validation validation.cluster-frozen.gen-2.${bucket}`,
      `hard-delete hard-delete.cluster-frozen.${bucket}`,
    ]);
  });

  it('yields to the event loop between batches, so a timer set during a long sweep fires before it ends', async () => {
    const many = Array.from({ length: 50 }, (_, i) => resource(`c${String(i).padStart(3, '0')}`, 'Cluster', 1, 'True', 60));
    const events: string[] = [];
    let reads = 0;
    const counting: SweepSource = {
      async pageAfter(options) {
        reads++;
        // The first batch is read in the same turn as sweepOnce: schedule a timer there.
        if (reads === 1) setTimeout(() => events.push(`timer after ${reads} batch(es)`), 0);
        return source(many).pageAfter(options);
      },
    };
    const s = new Sweeper(
      kinds,
      inner,
      counting,
      sentinelRules(new Map(), compileMessageDecision(sentinelDefaultDecision())),
      { intervalMs: 30_000, pageSize: 5 },
      () => NOW,
    );
    await s.sweepOnce('rule');
    events.push('sweep done');
    expect(events[0]).toMatch(/^timer after \d+ batch/);
    expect(events[events.length - 1]).toBe('sweep done');
    // 10 full batches of Clusters, one empty, and one read of NodePools: the timer fired long before the last.
    expect(Number(/after (\d+)/.exec(events[0]!)![1])).toBeLessThan(reads);
  });
});
