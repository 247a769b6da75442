/**
 * Fencing, API side, against the embedded engine with the test playing the adapter: a
 * status report carrying a stale `X-Decom-Fence` is answered like a discard (204), recorded in the
 * history as `AdapterStatusDiscarded` (reason `StaleFence`) and not applied; a malformed header is 400.
 */
import { DemoApi } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { statusReport, type ConditionStatuses, FINALIZED, IN_PROGRESS } from '../support/status-reports.js';

const report = (generation: number, conds: ConditionStatuses) => statusReport('validation', generation, conds);

describe('Fencing › PUT .../statuses with X-Decom-Fence', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  beforeAll(async () => {
    fixture = await startTestEngine();
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => fixture?.stop());

  it('a stale fence is recorded as discarded and not applied; the newer run stays', async () => {
    const c = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'fenced-1', spec: {} })).body;
    expect((await api.call('DELETE', `/clusters/${c.id}`)).status).toBe(202);
    // A paused resource is never hard-deleted, so the record stays for the stale report to meet.
    await api.call('POST', `/clusters/${c.id}/pause`, { reason: 'keep the record for the test' });
    const newer = await api.call('PUT', `/clusters/${c.id}/statuses`, report(2, FINALIZED), { 'x-decom-fence': '2.2000' });
    expect(newer.status).toBe(201);
    const stale = await api.call('PUT', `/clusters/${c.id}/statuses`, report(2, IN_PROGRESS), { 'x-decom-fence': '2.1000' });
    expect(stale.status).toBe(204);
    const olderGeneration = await api.call('PUT', `/clusters/${c.id}/statuses`, report(2, IN_PROGRESS), { 'x-decom-fence': '1.3000' });
    expect(olderGeneration.status).toBe(204);

    const statuses = (await api.get(`/clusters/${c.id}/statuses`)).body.items as { conditions: { type: string; status: string }[] }[];
    expect(statuses[0]!.conditions.find((x) => x.type === 'Finalized')?.status).toBe('True');
    const history = (await api.get(`/resources/${c.id}/events`)).body.items as { type: string; data: Record<string, unknown> }[];
    const discarded = history.filter((e) => e.type === 'AdapterStatusDiscarded');
    expect(discarded.map((e) => e.data)).toEqual([
      expect.objectContaining({
        adapter: 'validation',
        reason: 'StaleFence',
        fence: { generation: 2, sequence: 1000 },
        message: expect.stringMatching(/sequence 2000\) already reported/),
      }),
      expect.objectContaining({
        adapter: 'validation',
        reason: 'StaleFence',
        fence: { generation: 1, sequence: 3000 },
        message: expect.stringMatching(/run was for generation 1, the resource is at 2/),
      }),
    ]);
    expect(history.find((e) => e.type === 'AdapterStatusReported')?.data).toMatchObject({ fence: { generation: 2, sequence: 2000 } });
  });

  it('a malformed X-Decom-Fence is a 400 problem naming the header; nothing is recorded', async () => {
    const c = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'fenced-2', spec: {} })).body;
    const bad = await api.call('PUT', `/clusters/${c.id}/statuses`, report(1, IN_PROGRESS), { 'x-decom-fence': 'gen-1' });
    expect(bad.status).toBe(400);
    expect(bad.contentType).toMatch(/application\/problem\+json/);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'X-Decom-Fence', constraint: 'format' })]);
    const history = (await api.get(`/resources/${c.id}/events`)).body.items as { type: string }[];
    expect(history.map((e) => e.type)).toEqual(['ResourceCreated']);
  });
});
