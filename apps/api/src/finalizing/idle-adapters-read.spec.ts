import { KindRegistry } from '@decom/domain';
import { QueueUnavailable } from '@decom/jobs';
import type { DeadLetterSource } from '../tokens.js';
import { readIdleAdapters } from './idle-adapters-read.js';

const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', required_adapters: ['np-configmap', 'validation'] },
]);
const source = (over: Partial<DeadLetterSource>): DeadLetterSource => ({ list: async () => [], ...over });

describe('readIdleAdapters (the no_worker mark of /finalizing)', () => {
  it('names every configured adapter whose adapter-run queue nothing consumes, once', async () => {
    const consumed = source({ consumedQueues: async () => ['adapter-run.validation', 'hard-delete'] });
    expect(await readIdleAdapters(consumed, kinds)).toEqual([{ adapter: 'np-configmap', queue: 'adapter-run.np-configmap' }]);
    expect(await readIdleAdapters(source({ consumedQueues: async () => [] }), kinds)).toEqual([
      { adapter: 'np-configmap', queue: 'adapter-run.np-configmap' },
      { adapter: 'validation', queue: 'adapter-run.validation' },
    ]);
  });

  it('marks none when the source cannot say: no consumedQueues, the queue unreachable, CLIENT LIST refused', async () => {
    expect(await readIdleAdapters(source({}), kinds)).toEqual([]);
    const down = { status: 'unavailable', reason: 'connect ECONNREFUSED', since: '2026-12-06T21:00:00.000Z' } as const;
    expect(await readIdleAdapters(source({ consumedQueues: async () => [], availability: () => down }), kinds)).toEqual([]);
    expect(
      await readIdleAdapters(source({ consumedQueues: () => Promise.reject(new QueueUnavailable(down.reason, down.since)) }), kinds),
    ).toEqual([]);
    expect(
      await readIdleAdapters(source({ consumedQueues: () => Promise.reject(new Error("ERR unknown command 'CLIENT'")) }), kinds),
    ).toEqual([]);
  });
});
