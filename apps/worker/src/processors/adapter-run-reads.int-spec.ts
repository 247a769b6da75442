/**
 * The API calls of one run through the real processor and executor (local Kubernetes API server,
 * recorded-response API over HTTP). The resource read that starts the run answers the precondition's GET
 * of it; progress is decided from the run's own stored status report (the PUT's 201 answer) when there is
 * one, and read back from the API as before when the report was discarded (204); the fence check still
 * reads the resource (and, while deleting, its statuses) before every write.
 */
import { InProcessJobQueue, adapterRunJobId, reconcileCloudEvent, type AdapterRunJob, type Job } from '@decom/jobs';
import { ExecutorHarness, ownedBy, reportingTaskConfig } from '@decom/adapter/testing';
import { AdapterRunProcessor } from './adapter-run.processor.js';

const ID = 'c1';
const BASE = `/api/hyperfleet/v1/clusters/${ID}`;
const CONFIG = reportingTaskConfig({
  resources: `  - name: cm
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: 'cm-{{ .clusterId }}', namespace: default}}
    discovery: {by_name: 'cm-{{ .clusterId }}', namespace: default}
    lifecycle:
      delete:
        when: {expression: 'deleted_time != null'}`,
  conditions: `          - {type: Available, status: {expression: 'resources.?cm.hasValue() ? "True" : "False"'}, reason: R, message: m}
          - {type: Finalized, status: {expression: 'deleted_time != null && !resources.?cm.hasValue() ? "True" : "False"'}, reason: R, message: m}`,
});

describe('one adapter run reads what it needs once', () => {
  let h: ExecutorHarness;
  let queue: InProcessJobQueue;
  const runs: { progress?: { kind: string; reason: string } }[] = [];
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    queue = new InProcessJobQueue();
    runs.length = 0;
  });
  afterEach(async () => {
    await queue.close();
    await h.close();
  });

  const processor = async () => {
    const adapter = await h.hostedAdapter(CONFIG, 'validation');
    return new AdapterRunProcessor({
      adapter,
      queue,
      timing: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
      observe: (run) => runs.push(run),
    });
  };
  const job = (generation: number): Job<AdapterRunJob> => {
    const data = { id: ID, kind: 'Cluster', href: BASE, generation };
    const id = adapterRunJobId('validation', data);
    return {
      queue: 'adapter-run.validation',
      id,
      attempt: 1,
      fence: { sequence: 5, isCurrent: async () => true },
      data: { adapter: 'validation', event: reconcileCloudEvent(data, id, new Date().toISOString()), rerun: 0 },
    };
  };
  const stored = (generation: number, available: string, finalized: string) => ({
    adapter: 'validation',
    observed_generation: generation,
    conditions: [
      { type: 'Available', status: available, reason: 'R', message: 'm' },
      { type: 'Finalized', status: finalized, reason: 'R', message: 'm' },
    ],
  });
  const calls = () =>
    h.api
      .requests('GET')
      .map((r) => `GET ${r.path.replace(BASE, '')}`)
      .concat(h.api.requests('PUT').map((r) => `PUT ${r.path.replace(BASE, '')}`));

  it('create: one GET of the resource (start and precondition), the fence GET before the create, the PUT; done from its 201 answer', async () => {
    h.api.on(`GET ${BASE}`, { status: 200, body: { id: ID, kind: 'Cluster', generation: 1 } });
    h.api.on(`PUT ${BASE}/statuses`, { status: 201, body: stored(1, 'True', 'False') });
    await (await processor()).handle(job(1));
    expect(calls()).toEqual(['GET ', 'GET ', 'PUT /statuses']);
    expect(h.kube.peek('v1', 'ConfigMap', 'default', `cm-${ID}`)).toBeDefined();
    expect(runs.at(-1)?.progress).toEqual({ kind: 'done', reason: 'Available=True' });
  });

  it('deleting: the fence reads resource and statuses (at once) before the delete; done from the stored Finalized=True', async () => {
    h.kube.seed(
      ownedBy(
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${ID}`, namespace: 'default' } },
        { kind: 'Cluster', id: ID },
        'validation',
      ),
    );
    h.api.on(`GET ${BASE}`, {
      status: 200,
      body: { id: ID, kind: 'Cluster', generation: 2, deleted_time: '2026-12-01T10:00:00Z', status: { conditions: [] } },
    });
    h.api.on(`GET ${BASE}/statuses`, { status: 200, body: { items: [] } });
    h.api.on(`PUT ${BASE}/statuses`, { status: 201, body: stored(2, 'False', 'True') });
    await (await processor()).handle(job(2));
    expect(h.deletedKinds()).toEqual([`ConfigMap/cm-${ID}`]);
    expect(calls().sort()).toEqual(['GET ', 'GET ', 'GET /statuses', 'PUT /statuses']);
    expect(runs.at(-1)?.progress).toEqual({ kind: 'done', reason: 'Finalized=True' });
  });

  it('a stored report that is not met yet (here: as the API answered it) schedules the re-run, as a read-back would', async () => {
    h.api.on(`GET ${BASE}`, { status: 200, body: { id: ID, kind: 'Cluster', generation: 1 } });
    h.api.on(`PUT ${BASE}/statuses`, { status: 201, body: stored(1, 'False', 'False') });
    await (await processor()).handle(job(1));
    expect(runs.at(-1)?.progress).toMatchObject({ kind: 'wait', reason: 'not yet Available' });
    expect(calls().filter((c) => c === 'GET /statuses')).toEqual([]);
  });

  it('a discarded report (204): progress reads the resource and its statuses back, as before', async () => {
    h.api.on(`GET ${BASE}`, { status: 200, body: { id: ID, kind: 'Cluster', generation: 1 } });
    h.api.on(`GET ${BASE}/statuses`, { status: 200, body: { items: [stored(1, 'True', 'False')] } });
    h.api.on(`PUT ${BASE}/statuses`, { status: 204 });
    await (await processor()).handle(job(1));
    expect(calls()).toEqual(['GET ', 'GET ', 'GET ', 'GET /statuses', 'PUT /statuses']);
    expect(runs.at(-1)?.progress).toEqual({ kind: 'done', reason: 'Available=True' });
  });
});
