/**
 * A terminal adapter failure that the task config cannot report itself (a required param is missing, so
 * nothing after param extraction runs, not even post actions): the worker reports it as status
 * conditions, does not retry, and leaves a dead letter. Embedded engine (in-process queue).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const BROKEN_TASK_CONFIG = `
params:
  - name: clusterId
    required: true
    source: event.id
    type: string
  - name: region
    required: true
    source: event.region
    type: string
post:
  payloads:
    - name: statusPayload
      build:
        adapter: '{{ .adapter.name }}'
        conditions:
          - type: Available
            status: { expression: '"True"' }
            reason: { expression: '"Ok"' }
            message: { expression: '"ok"' }
        observed_generation: { expression: '1' }
  post_actions:
    - name: updateStatus
      api_call:
        method: PUT
        url: /clusters/{{ .clusterId }}/statuses
        body: '{{ .statusPayload }}'
`;

describe('adapter error taxonomy: a terminal failure the adapter cannot report', () => {
  let fixture: EngineFixture;
  let adaptersDir: string;

  beforeAll(async () => {
    adaptersDir = await mkdtemp(join(tmpdir(), 'decom-broken-adapter-'));
    await writeFile(join(adaptersDir, 'validation.yaml'), BROKEN_TASK_CONFIG);
    fixture = await startTestEngine({ adaptersDir, sweep: { intervalMs: 60_000, debounceMs: 600_000 } });
  });
  afterAll(async () => {
    await fixture?.stop();
    if (adaptersDir) await rm(adaptersDir, { recursive: true, force: true });
  });

  it('reports Health=False with the reason, runs once, and dead-letters the job', async () => {
    const api = new DemoApi(fixture.engine.url);
    const id = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'broken-1', spec: {} })).body.id as string;
    const dead = await eventually(
      'a dead letter for the run',
      async () => (await fixture.engine.queue.failed('adapter-run.validation'))[0],
    );
    expect(dead).toMatchObject({
      id: `validation.cluster-${id}.gen-1`,
      attempts: 1,
      error: expect.stringContaining('ParameterExtractionFailed'),
    });
    const status = (await api.get(`/clusters/${id}/statuses`)).body.items.find((s: { adapter: string }) => s.adapter === 'validation');
    expect(status).toMatchObject({ observed_generation: 1 });
    const byType = Object.fromEntries(
      status.conditions.map((c: { type: string; status: string; reason: string }) => [c.type, [c.status, c.reason]]),
    );
    expect(byType).toEqual({
      Applied: ['False', 'ParameterExtractionFailed'],
      Available: ['False', 'ParameterExtractionFailed'],
      Health: ['False', 'ParameterExtractionFailed'],
    });
    await fixture.engine.queue.idle();
    expect(await fixture.engine.queue.failed()).toHaveLength(1);
  });
});
