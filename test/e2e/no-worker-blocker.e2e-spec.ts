/**
 * `decom api` on BullMQ with no `decom worker` running: a deletion's adapter run waits in
 * `adapter-run.validation` with nothing consuming it, and `/finalizing` (REST and GraphQL) says so on the
 * adapter's blocker (`no_worker`) and `decom_queue_workers` is 0 for it. Once a real `decom worker` child process starts, the mark goes and the
 * deletion completes (GET 404).
 */
import { randomUUID } from 'node:crypto';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startWorkerTopology, type WorkerTopology } from './support/worker-topology.js';
import { spawnDecom } from './support/decom-process.js';

interface Blocker {
  readonly type: string;
  readonly adapter?: string;
  readonly message: string;
  readonly no_worker?: boolean;
}

describe('finalizing blockers: no decom worker consumes an adapter queue (BullMQ)', () => {
  let topology: WorkerTopology;
  const prefix = `decom-e2e-${randomUUID()}`;

  beforeAll(async () => {
    topology = await startWorkerTopology({ prefix, lockMs: 2000 });
  }, 60_000);
  afterAll(async () => topology?.stop());

  it('names the missing worker while none runs; a started worker clears it and the deletion completes', async () => {
    const api = new DemoApi(topology.fixture.engine.url);
    const created = await api.call('POST', '/clusters', { kind: 'Cluster', name: 'no-worker-test', spec: {} });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);

    const validationBlocker = async (): Promise<Blocker | undefined> => {
      const list = await fetch(`${topology.fixture.engine.url}/api/decom/v1/finalizing`);
      const item = ((await list.json()) as { items: { id: string; blockers: Blocker[] }[] }).items.find((i) => i.id === id);
      return item?.blockers.find((b) => b.type === 'AdapterNotFinalized' && b.adapter === 'validation');
    };
    const idle = await eventually('the cluster is listed as finalizing', validationBlocker);
    expect(idle).toMatchObject({
      no_worker: true,
      message: expect.stringMatching(/^validation: no decom worker consumes adapter-run\.validation \(/),
    });

    const gql = await fetch(`${topology.fixture.engine.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ finalizing { id blockers { type adapter no_worker message } } }' }),
    });
    const data = ((await gql.json()) as { data: { finalizing: { id: string; blockers: Blocker[] }[] } }).data;
    expect(data.finalizing.find((i) => i.id === id)?.blockers).toContainEqual({
      type: 'AdapterNotFinalized',
      adapter: 'validation',
      no_worker: true,
      message: idle!.message,
    });

    const workers = async () =>
      (await (await fetch(topology.fixture.engine.metricsUrl)).text()).match(
        /^decom_queue_workers\{queue="adapter-run\.validation"\} (\d+)$/m,
      )?.[1];
    expect(await workers()).toBe('0');

    const worker = spawnDecom(['worker', '--adapters', 'validation', '--concurrency', '2'], topology.workerEnv);
    topology.workers.push(worker);
    await worker.waitFor(/worker ready: validation/, 45_000);
    await eventually('decom_queue_workers counts the worker', async () => ((await workers()) === '1' ? true : undefined));
    await eventually(
      'the cluster is hard-deleted (GET 404)',
      async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined),
      30_000,
      100,
    );
    const events = (await topology.fixture.engine.store.readStream(`cluster-${id}`)).map((e) => e.type);
    expect(events.filter((t) => t === 'HardDeleted')).toHaveLength(1);
  }, 90_000);
});
