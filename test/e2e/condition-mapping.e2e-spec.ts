/**
 * HyperFleet condition mapping over HTTP (HyperFleet: hyperfleet-api docs/condition-mapping.md): a kind's
 * `conditions:` rules
 * add a mapped condition to `status.conditions` on each status report; its `last_transition_time` moves
 * only when its status changes; a bad rule stops the start with `file:line:column`.
 * The rule semantics are covered table-driven in libs/projections/src/condition-mapping.spec.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const ENTITIES = `entities:
  - kind: Cluster
    plural: clusters
    required_adapters: [validation]
    conditions:
      - type: QuotaValid
        when:
          expression: |
            statuses.exists(s, s.adapter == "validation"
              && s.conditions.exists(c, c.type == "QuotaSufficient"))
        output:
          status:
            expression: |
              statuses.filter(s, s.adapter == "validation")[0]
                .conditions.filter(c, c.type == "QuotaSufficient")[0].status
          reason:
            expression: |
              statuses.filter(s, s.adapter == "validation")[0]
                .conditions.filter(c, c.type == "QuotaSufficient")[0].reason
          message:
            expression: |
              "Quota: " + statuses.filter(s, s.adapter == "validation")[0]
                .conditions.filter(c, c.type == "QuotaSufficient")[0].message
`;

const report = (generation: number, quota: string, time: string, note = '') => ({
  adapter: 'validation',
  observed_generation: generation,
  observed_time: time,
  conditions: [
    { type: 'Applied', status: 'True', reason: 'Applied', message: 'applied' },
    { type: 'Available', status: 'True', reason: 'Ready', message: 'ready' },
    { type: 'Health', status: 'True', reason: 'Healthy', message: 'healthy' },
    { type: 'QuotaSufficient', status: quota, reason: quota === 'True' ? 'QuotaOK' : 'QuotaLow', message: `quota is ${quota}${note}` },
  ],
});

describe('HyperFleet condition mapping (embedded engine)', () => {
  let dir: string;
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'decom-mapping-'));
    await writeFile(join(dir, 'entities.yaml'), ENTITIES);
    fixture = await startTestEngine({ env: { DECOM_ENTITIES_FILE: join(dir, 'entities.yaml') } });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => {
    await fixture?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('adds the mapped condition on a status report; last_transition_time changes only with its status', async () => {
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'mapped', spec: {} })).body;
    const mapped = async (after?: string) =>
      eventually('mapped condition', async () => {
        const c = ((await api.get(`/clusters/${cluster.id}`)).body.status.conditions as any[]).find((x) => x.type === 'QuotaValid');
        return c && (after === undefined || c.last_updated_time > after) ? c : undefined;
      });
    const put = async (quota: string, note?: string) => {
      const answer = await api.call('PUT', `/clusters/${cluster.id}/statuses`, report(1, quota, new Date().toISOString(), note));
      expect(answer.status).toBe(201);
    };

    await put('True');
    const first = await mapped();
    expect(first).toMatchObject({ status: 'True', reason: 'QuotaOK', message: 'Quota: quota is True', observed_generation: 1 });
    const types = ((await api.get(`/clusters/${cluster.id}`)).body.status.conditions as any[]).map((c) => c.type);
    expect(types.slice(0, 3)).toEqual(['Reconciled', 'LastKnownReconciled', 'ValidationSuccessful']);
    expect(types[types.length - 1]).toBe('QuotaValid');

    // Decom records a status event on a change only (an identical repeat is a no-op), so the second report differs in its message.
    await put('True', ' (again)');
    const same = await mapped(first.last_updated_time);
    expect(same.message).toBe('Quota: quota is True (again)');
    expect(same.last_transition_time).toBe(first.last_transition_time);
    expect(same.created_time).toBe(first.created_time);

    await put('False');
    const flipped = await mapped(same.last_updated_time);
    expect(flipped).toMatchObject({ status: 'False', reason: 'QuotaLow', created_time: first.created_time });
    expect(flipped.last_transition_time > first.last_transition_time).toBe(true);
  });

  it('refuses to start with an invalid rule, naming file:line:column', async () => {
    const bad = join(dir, 'bad.yaml');
    await writeFile(
      bad,
      ENTITIES.replace('      - type: QuotaValid', '      - type: Reconciled').replace(
        'statuses.exists(s, s.adapter == "validation"',
        'statuses.exists(s, s.adapter == "validation" &&',
      ),
    );
    await expect(startTestEngine({ env: { DECOM_ENTITIES_FILE: bad } })).rejects.toThrow(
      new RegExp(
        `${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:6:15 entities\\[0\\]\\.conditions\\[0\\]\\.type: "Reconciled" is a reserved condition type`,
      ),
    );
  });
});
