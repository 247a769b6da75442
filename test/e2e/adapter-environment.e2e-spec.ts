/**
 * HyperFleet adapters as shipped (HyperFleet: hyperfleet-adapter docs/configuration.md): HyperFleet's folder layout
 * (`<adapter>/adapter-task-config.yaml` + `adapter-config.yaml` with `base_url: CHANGE_ME`), `env.X`
 * params read from the engine's environment, and a payload field that fails to evaluate sent as null.
 * Embedded engine (in-process queue), no Kubernetes objects.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const TASK_CONFIG = `
params:
  - {name: clusterId, required: true, source: event.id}
  - {name: region, required: true, source: env.DECOM_E2E_REGION}
preconditions:
  - name: clusterStatus
    api_call: {method: GET, url: '/clusters/{{ .clusterId }}'}
    capture:
      - {name: generation, field: generation}
post:
  payloads:
    - name: statusPayload
      build:
        adapter: '{{ .adapter.name }}'
        observed_generation: {expression: 'generation'}
        observed_time: '{{ now | date "2006-01-02T15:04:05Z07:00" }}'
        conditions:
          - {type: Applied, status: {expression: '"True"'}, reason: {expression: '"Ok"'}, message: {expression: '"ok"'}}
          - {type: Available, status: {expression: '"True"'}, reason: {expression: '"Ok"'}, message: {expression: '"ok"'}}
          - {type: Health, status: {expression: '"True"'}, reason: {expression: '"Ok"'}, message: {expression: '"ok"'}}
        data:
          region: '{{ .region }}'
          broken: {expression: 'int("not a number")'}
  post_actions:
    - name: updateStatus
      api_call:
        method: PUT
        url: /clusters/{{ .clusterId }}/statuses
        body: '{{ .statusPayload }}'
`;

const DEPLOYMENT_CONFIG = `
adapter:
  name: validation
  version: "0.1"
clients:
  hyperfleet_api:
    base_url: CHANGE_ME
    version: v1
    timeout: 10s
`;

describe('HyperFleet adapter layout and environment (embedded engine)', () => {
  let fixture: EngineFixture;
  let adaptersDir: string;

  beforeAll(async () => {
    adaptersDir = await mkdtemp(join(tmpdir(), 'decom-hyperfleet-layout-'));
    await mkdir(join(adaptersDir, 'validation'));
    await writeFile(join(adaptersDir, 'validation', 'adapter-task-config.yaml'), TASK_CONFIG);
    await writeFile(join(adaptersDir, 'validation', 'adapter-config.yaml'), DEPLOYMENT_CONFIG);
    fixture = await startTestEngine({
      adaptersDir,
      env: { DECOM_E2E_REGION: 'eu-west-1' },
      sweep: { intervalMs: 60_000, debounceMs: 600_000 },
    });
  });
  afterAll(async () => {
    await fixture?.stop();
    if (adaptersDir) await rm(adaptersDir, { recursive: true, force: true });
  });

  it('runs the folder-layout adapter with CHANGE_ME replaced, env.X from the environment, and a failed field as null', async () => {
    expect(fixture.engine.adapters.map((a) => a.name)).toEqual(['validation']);
    const api = new DemoApi(fixture.engine.url);
    const id = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'env-1', spec: {} })).body.id as string;
    const status = await eventually('the adapter status', async () =>
      ((await api.get(`/clusters/${id}/statuses`)).body.items as { adapter: string }[]).find((s) => s.adapter === 'validation'),
    );
    expect(status).toMatchObject({ observed_generation: 1, data: { region: 'eu-west-1', broken: null } });
  });
});
