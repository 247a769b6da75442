import type { ExecutionResult } from './execution-result.js';
import { ExecutorHarness } from '../testing/executor-harness.js';

/**
 * `rememberReads` (the worker's runs) changes how often the cluster is read, nothing else. The
 * seed-000 validation adapter (config/adapters/validation.yaml) goes through its whole life, create then
 * three deletion passes, twice against fresh servers: once reading the cluster for every call, once with
 * reads remembered until each pass's first write. Every pass must decide, call (as the trace records it),
 * write and report exactly the same; only the Kubernetes server sees fewer GETs.
 */
const CLUSTER = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const GET = `GET /api/hyperfleet/v1/clusters/${CLUSTER}`;
const PUT = `PUT /api/hyperfleet/v1/clusters/${CLUSTER}/statuses`;
const event = { id: CLUSTER, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${CLUSTER}`, generation: 2 };

interface Life {
  readonly passes: Pick<ExecutionResult, 'status' | 'operations' | 'kubeCalls' | 'statusReports' | 'celResults' | 'phases'>[];
  readonly writes: string[];
  readonly reads: number;
}

async function live(rememberReads: boolean, generationOfDeletion: number): Promise<Life> {
  const h = await ExecutorHarness.start();
  try {
    h.api.on(PUT, { status: 201, body: {} });
    const executor = await h.executor('config/adapters/validation.yaml', 'validation');
    const cluster = (generation: number, deleted: boolean) =>
      h.api.on(GET, {
        status: 200,
        body: { id: CLUSTER, kind: 'Cluster', name: 'c-one', generation, ...(deleted && { deleted_time: '2026-03-25T09:59:00Z' }) },
      });
    const passes: Life['passes'] = [];
    // Controllers (namespace cleanup, garbage collection) run between passes only, so both lives see the
    // same cluster states whatever the timing: a deleted Namespace stays Terminating until the pass ends.
    const pass = async () => {
      h.kube.pauseControllers();
      const { status, operations, kubeCalls, statusReports, celResults, phases } = await executor.execute(
        { ...event, generation: generationOfDeletion },
        { rememberReads },
      );
      passes.push({ status, operations, kubeCalls, statusReports, celResults, phases });
      h.kube.resumeControllers();
      await h.kube.settle();
    };
    cluster(2, false);
    await pass();
    cluster(generationOfDeletion, true);
    for (let i = 0; i < 4; i++) await pass();
    return {
      passes,
      writes: h.kube.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.kind}/${r.name ?? ''}`),
      reads: h.kube.requests.filter((r) => r.method === 'GET').length,
    };
  } finally {
    await h.close();
  }
}

describe('rememberReads: the same passes with fewer cluster reads', () => {
  it.each([
    ['generation held at 2 (the Job of the current generation is deleted first)', 2],
    ['generation bumped to 3 by the deletion (the gen-2 Job is found by ownership)', 3],
  ])(
    '%s',
    async (_title, generation) => {
      const plain = await live(false, generation);
      const remembered = await live(true, generation);
      // The two lives run one after the other on the wall clock: the bundled server's timestamps (a deleted
      // Namespace's deletionTimestamp, second precision) may differ by a second between them.
      const timeless = (passes: Life['passes']) => JSON.parse(JSON.stringify(passes).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, '<time>'));
      expect(timeless(remembered.passes)).toEqual(timeless(plain.passes));
      expect(remembered.writes).toEqual(plain.writes);
      expect(plain.passes.at(-1)?.statusReports).toEqual([
        expect.objectContaining({ conditions: expect.arrayContaining([expect.objectContaining({ type: 'Finalized', status: 'True' })]) }),
      ]);
      expect(remembered.reads).toBeLessThan(plain.reads);
    },
    30_000,
  );
});
