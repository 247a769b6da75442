/**
 * The deletion budget (blast-radius limit) through HTTP: `limits.deletions.Cluster` in the server config, top-level
 * DELETEs beyond it answered 429 with Retry-After and a problem naming the budget (the preview too), an
 * administrator's override recorded on DeletionRequested, the use visible in the metrics. The test plays the
 * adapters, so deletions stay in flight until it reports Finalized.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerDeleteCommand } from '../../apps/cli/src/commands/delete.command.js';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { statusReport, FINALIZED } from '../support/status-reports.js';
import { scrape, sampleValue } from '../support/prometheus-text.js';

describe('deletion budget: limits.deletions per kind, 429 with Retry-After, admin override', () => {
  let fixture: EngineFixture;
  let folder: string;
  let operator: DemoApi;
  let admin: DemoApi;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'decom-budget-'));
    const file = join(folder, 'server.yaml');
    await writeFile(file, 'limits:\n  deletions:\n    Cluster: { max_in_flight: 2, max_per_hour: 3 }\n');
    fixture = await startTestEngine({ admins: 'admin@example.com', env: { DECOM_SERVER_CONFIG: file } });
    operator = new DemoApi(fixture.engine.url, 'operator@example.com');
    admin = new DemoApi(fixture.engine.url, 'admin@example.com');
  });
  afterAll(async () => {
    await fixture?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const types = async (id: string) => (await fixture.engine.store.readStream(`cluster-${id}`)).map((e) => e.type);
  const cluster = async (name: string) => (await operator.call('POST', '/clusters', { kind: 'Cluster', name, spec: {} })).body;
  const finish = async (id: string) => {
    await operator.call('PUT', `/clusters/${id}/statuses`, statusReport('validation', 2, FINALIZED));
    await eventually(`cluster ${id} hard-deleted`, async () => ((await operator.get(`/clusters/${id}`)).status === 404 ? true : undefined));
  };
  const metric = async (name: string, labels: Record<string, string>) => sampleValue(await scrape(fixture.engine.metricsUrl), name, labels);

  it('in flight, per hour, override, and the metrics', async () => {
    const [c1, c2, c3, c4] = [await cluster('budget-1'), await cluster('budget-2'), await cluster('budget-3'), await cluster('budget-4')];
    expect((await operator.call('DELETE', `/clusters/${c1.id}`)).status).toBe(202);
    expect((await operator.call('DELETE', `/resources/${c2.id}`)).status).toBe(202);

    // Two top-level Cluster deletions in flight: the third is refused, and so is its preview; nothing recorded.
    const response = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters/${c3.id}`, {
      method: 'DELETE',
      headers: { 'x-hyperfleet-identity': 'operator@example.com' },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('60');
    const problem = (await response.json()) as any;
    expect(problem).toMatchObject({
      title: 'Deletion Budget Exceeded',
      status: 429,
      budget: { kind: 'Cluster', name: 'max_in_flight', limit: 2, used: 2 },
    });
    expect(problem.detail).toContain('limits.deletions.Cluster.max_in_flight = 2 reached');
    const preview = await operator.call('DELETE', `/clusters/${c3.id}?dryRun=All`);
    expect(preview.status).toBe(429);
    expect(preview.body).toMatchObject({ dry_run: true, budget: { name: 'max_in_flight' } });
    expect(await types(c3.id)).toEqual(['ResourceCreated']);
    // What the domain refuses is refused as such even over budget: a protected cluster is 409 naming it, not 429.
    const guarded = (
      await operator.call('POST', '/clusters', { kind: 'Cluster', name: 'budget-protected', spec: {}, deletion_protection: true })
    ).body;
    for (const path of [`/clusters/${guarded.id}`, `/clusters/${guarded.id}?dryRun=All`]) {
      const refused = await operator.call('DELETE', path);
      expect({ status: refused.status, protected: refused.body.protected_resources?.map((r: { id: string }) => r.id) }).toEqual({
        status: 409,
        protected: [guarded.id],
      });
    }
    // A parameter given twice is a 400, never a guess (or a 500).
    expect((await admin.call('DELETE', `/clusters/${c3.id}?deletion_budget_override=a&deletion_budget_override=b`)).status).toBe(400);
    // A repeated DELETE of a deleting cluster records nothing and is not counted.
    expect((await operator.call('DELETE', `/clusters/${c1.id}`)).status).toBe(202);
    // An operator may not override; an administrator may, with a reason, recorded on the event.
    expect((await operator.call('DELETE', `/clusters/${c3.id}?deletion_budget_override=urgent`)).status).toBe(403);
    expect((await admin.call('DELETE', `/clusters/${c3.id}?deletion_budget_override=${encodeURIComponent(' ')}`)).status).toBe(400);
    // The CLI's --budget-override sends the same parameter.
    let out = '';
    const program = new Command('decom').exitOverride();
    registerDeleteCommand(program, {
      out: (text) => void (out += text),
      defaultApiUrl: () => fixture.engine.url,
      identity: 'admin@example.com',
    });
    await program.parseAsync(['node', 'decom', 'delete', 'Cluster', c3.id, '--budget-override', 'INC-5 region evacuation']);
    expect(out).toContain(`Cluster ${c3.id} marked for deletion`);
    const requested = (await fixture.engine.store.readStream(`cluster-${c3.id}`)).find((e) => e.type === 'DeletionRequested');
    expect((requested?.data as any).deletion_budget_override).toEqual({ caller: 'admin@example.com', reason: 'INC-5 region evacuation' });

    // Two finished: one in flight, but three requested within the hour: the per-hour bound now refuses.
    await finish(c1.id);
    await finish(c2.id);
    const hourly = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters/${c4.id}`, {
      method: 'DELETE',
      headers: { 'x-hyperfleet-identity': 'operator@example.com' },
    });
    expect(hourly.status).toBe(429);
    expect(Number(hourly.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(((await hourly.json()) as any).budget).toMatchObject({ name: 'max_per_hour', limit: 3, used: 3 });
    // GraphQL answers 200 with the error: the wait REST puts in Retry-After is in the problem.
    const viaGraphql = await fetch(`${fixture.engine.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hyperfleet-identity': 'operator@example.com' },
      body: JSON.stringify({ query: `mutation { deleteResource(id: "${c4.id}") { id } }` }),
    });
    const refusal = ((await viaGraphql.json()) as any).errors?.[0]?.extensions?.problem;
    expect(refusal).toMatchObject({ status: 429, budget: { name: 'max_per_hour' } });
    expect(refusal.retry_after_seconds).toBeGreaterThan(3500);
    // Another kind has no budget here.
    const np = (await operator.call('POST', `/clusters/${c4.id}/nodepools`, { kind: 'NodePool', name: 'np-free', spec: {} })).body;
    expect((await operator.call('DELETE', `/nodepools/${np.id}`)).status).toBe(202);

    expect(await metric('decom_deletion_budget_checks_total', { kind: 'Cluster', outcome: 'allowed' })).toBe(2);
    // Refused: the first REST DELETE, the hourly one and its GraphQL twin (a preview is not counted).
    expect(await metric('decom_deletion_budget_checks_total', { kind: 'Cluster', outcome: 'refused' })).toBe(3);
    expect(await metric('decom_deletion_budget_checks_total', { kind: 'Cluster', outcome: 'overridden' })).toBe(1);
    expect(await metric('decom_deletion_budget_used', { kind: 'Cluster', budget: 'per_hour' })).toBe(3);
    expect(await metric('decom_deletion_budget_limit', { kind: 'Cluster', budget: 'in_flight' })).toBe(2);
  }, 60_000);
});
