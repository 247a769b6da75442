/**
 * History and time travel through HTTP: `GET /resources/{id}?as_of=` answers exactly what `GET` answered
 * at that time (fold + the live projection's conditions), 404 before creation and after hard delete, 400
 * for a bad `as_of`; the plain `GET /resources/{id}` (served by the same static route) still works.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Command } from 'commander';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { registerHistoryCommand } from '../../apps/cli/src/commands/history.command.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { statusReport, AVAILABLE, FINALIZED } from '../support/status-reports.js';

const report = statusReport;

describe('resource history and as_of', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  beforeAll(async () => {
    fixture = await startTestEngine();
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => fixture?.stop());

  /** A time after everything so far was recorded and before anything that follows. */
  const mark = async () => {
    await fixture.engine.settle();
    await sleep(3);
    const at = new Date().toISOString();
    await sleep(3);
    return at;
  };

  it('answers each past state exactly as GET did then; 404 before creation and after hard delete', async () => {
    const beforeCreation = await mark();
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'time-1', spec: { region: 'eu' } })).body;
    const pool = (await api.call('POST', `/clusters/${cluster.id}/nodepools`, { kind: 'NodePool', name: 'pool-1', spec: {} })).body;
    await api.call('PUT', `/clusters/${cluster.id}/statuses`, report('validation', 1, AVAILABLE));
    const seen: Array<{ at: string; cluster: unknown; pool: unknown }> = [];
    const record = async () => {
      const at = await mark();
      seen.push({ at, cluster: (await api.get(`/clusters/${cluster.id}`)).body, pool: (await api.get(`/nodepools/${pool.id}`)).body });
    };
    await record(); // active, Reconciled from the validation report
    await api.call('PATCH', `/clusters/${cluster.id}`, { spec: { region: 'us' }, labels: { tier: 'gold' } });
    await record(); // generation 2
    await api.call('DELETE', `/clusters/${cluster.id}`);
    await record(); // Finalizing, cascaded
    await api.call('PUT', `/clusters/${cluster.id}/statuses`, report('validation', 3, FINALIZED));
    await record(); // waiting for children
    await api.call('PUT', `/clusters/${cluster.id}/nodepools/${pool.id}/statuses`, report('np-configmap', 2, FINALIZED));
    await eventually('hard delete', async () => ((await api.get(`/clusters/${cluster.id}`)).status === 404 ? true : undefined));
    const afterHardDelete = await mark();

    for (const { at, cluster: then, pool: poolThen } of seen) {
      const past = await api.get(`/resources/${cluster.id}?as_of=${encodeURIComponent(at)}`);
      expect(past.status).toBe(200);
      expect(past.body).toEqual(then);
      expect((await api.get(`/resources/${pool.id}?as_of=${encodeURIComponent(at)}`)).body).toEqual(poolThen);
    }
    expect((seen[1]!.cluster as { generation: number }).generation).toBe(2);
    expect((seen[2]!.cluster as { deleted_time?: string }).deleted_time).toBeDefined();

    for (const at of [beforeCreation, afterHardDelete]) {
      const gone = await api.get(`/resources/${cluster.id}?as_of=${encodeURIComponent(at)}`);
      expect(gone.status).toBe(404);
      expect(gone.body).toMatchObject({ status: 404, code: 'HYPERFLEET-NTF-001' });
    }
    // An offset time zone means the same instant.
    const offset = new Date(Date.parse(seen[0]!.at) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect((await api.get(`/resources/${cluster.id}?as_of=${encodeURIComponent(offset)}`)).body).toEqual(seen[0]!.cluster);
  });

  it.each(['yesterday', '2026-13-01T00:00:00Z', '2026-11-29T10:00:00', '2026-11-29'])('400 problem details for as_of=%s', async (asOf) => {
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: `bad-${Date.now() % 100000}`, spec: {} })).body;
    const bad = await api.get(`/resources/${cluster.id}?as_of=${encodeURIComponent(asOf)}`);
    expect(bad.status).toBe(400);
    expect(bad.contentType).toContain('application/problem+json');
    expect(bad.body).toMatchObject({
      status: 400,
      code: 'HYPERFLEET-VAL-000',
      errors: [{ field: 'as_of', constraint: 'format', value: asOf }],
    });
  });

  it('plain GET /resources/{id} still answers the live view, any kind; 404 unknown and after hard delete', async () => {
    const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'plain-1', spec: {} })).body;
    const pool = (await api.call('POST', `/clusters/${cluster.id}/nodepools`, { kind: 'NodePool', name: 'pool-1', spec: {} })).body;
    expect((await api.get(`/resources/${cluster.id}`)).body).toEqual((await api.get(`/clusters/${cluster.id}`)).body);
    expect((await api.get(`/resources/${pool.id}`)).body).toMatchObject({ id: pool.id, kind: 'NodePool' });
    const unknown = await api.get('/resources/0190b6a4-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      code: 'HYPERFLEET-NTF-001',
      detail: expect.stringContaining("Resource with id='0190b6a4-0000-7000-8000-000000000000'"),
    });
    await api.call('DELETE', `/clusters/${cluster.id}/nodepools/${pool.id}`);
    await api.call('POST', `/clusters/${cluster.id}/nodepools/${pool.id}/force-delete`, { reason: 'test' });
    expect((await api.get(`/resources/${pool.id}`)).status).toBe(404);
    // History outlives the record.
    const history = (await api.get(`/resources/${pool.id}/events`)).body;
    expect(history.items.map((e: { type: string }) => e.type)).toEqual([
      'ResourceCreated',
      'DeletionRequested',
      'ForceDeleted',
      'HardDeleted',
    ]);

    // `decom history <id>` prints the same history, readable or as JSON.
    const run = async (...args: string[]) => {
      let text = '';
      const program = new Command('decom').exitOverride();
      registerHistoryCommand(program, { out: (chunk) => void (text += chunk), defaultApiUrl: () => fixture.engine.url });
      await program.parseAsync(['node', 'decom', 'history', ...args]);
      return text;
    };
    const lines = (await run(pool.id)).trimEnd().split('\n');
    expect(lines[0]).toBe(`NodePool ${pool.id} (stream cluster-${cluster.id}, 4 events)`);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/).slice(2, 4))).toEqual([
      ['ResourceCreated', 'operator@example.com'],
      ['DeletionRequested', 'operator@example.com'],
      ['ForceDeleted', 'operator@example.com'],
      ['HardDeleted', 'operator@example.com'],
    ]);
    expect(lines[3]).toContain('reason=test');
    expect(lines[4]).toContain('cause=ForceDeleted');
    expect(JSON.parse(await run(pool.id, '--json'))).toEqual(history);
    await expect(run('0190b6a4-0000-7000-8000-000000000000')).rejects.toThrow(
      "404 Resource with id='0190b6a4-0000-7000-8000-000000000000' not found",
    );
  });
});
