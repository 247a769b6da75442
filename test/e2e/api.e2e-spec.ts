/**
 * The HyperFleet REST contract through HTTP against the embedded engine, with the test playing the
 * adapters (no adapters loaded). Asserts status codes, problem bodies and the events each request appended.
 */
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { statusReport, AVAILABLE, FINALIZED } from '../support/status-reports.js';

const report = statusReport;
const condition = (r: any, type: string) => r.status.conditions.find((c: any) => c.type === type);

describe('HyperFleet API contract (embedded engine)', () => {
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    fixture = await startTestEngine({ admins: 'admin@example.com,operator@example.com' });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => fixture?.stop());

  const createCluster = async (name: string) => {
    const r = await api.call('POST', '/clusters', { kind: 'Cluster', name, spec: { region: 'eu' } });
    expect(r.status).toBe(201);
    return r.body;
  };
  const streamEvents = async (clusterId: string) => (await fixture.engine.store.readStream(`cluster-${clusterId}`)).map((e) => e.type);

  describe('create, read, list', () => {
    it('creates a cluster: 201, UUID v7 id, href, generation 1, initial conditions, labels omitted when empty', async () => {
      const c = await createCluster('alpha-1');
      expect(c.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(c).toMatchObject({
        kind: 'Cluster',
        name: 'alpha-1',
        href: `/api/hyperfleet/v1/clusters/${c.id}`,
        generation: 1,
        created_by: 'operator@example.com',
      });
      expect(c.labels).toBeUndefined();
      expect(c.deleted_time).toBeUndefined();
      expect(c.status.conditions.map((x: any) => [x.type, x.status, x.reason])).toEqual([
        ['Reconciled', 'False', 'ReconciledMissingAdapters'],
        ['LastKnownReconciled', 'False', 'AdaptersMissingReports'],
      ]);
      expect(await streamEvents(c.id)).toEqual(['ResourceCreated']);
    });

    it('creates a nodepool under its cluster with a nested href; the flat collection refuses creates (422)', async () => {
      const c = await createCluster('alpha-2');
      const np = await api.call('POST', `/clusters/${c.id}/nodepools`, { kind: 'NodePool', name: 'pool-1', spec: {} });
      expect(np.status).toBe(201);
      expect(np.body.href).toBe(`/api/hyperfleet/v1/clusters/${c.id}/nodepools/${np.body.id}`);
      expect(np.body.owner_references).toEqual({ id: c.id, kind: 'Cluster', href: c.href });
      const flat = await api.call('POST', '/nodepools', { kind: 'NodePool', name: 'pool-2', spec: {} });
      expect(flat.status).toBe(422);
      expect((await api.get(`/nodepools/${np.body.id}`)).body.id).toBe(np.body.id);
      const list = await api.get(`/clusters/${c.id}/nodepools`);
      expect(list.body).toMatchObject({ page: 1, size: 1, total: 1 });
    });

    it('lists with page/size and rejects a bad size with field errors', async () => {
      const list = await api.get('/clusters?page=1&size=1');
      expect(list.status).toBe(200);
      expect(list.body.size).toBe(1);
      expect(list.body.total).toBeGreaterThanOrEqual(2);
      const bad = await api.get('/clusters?size=1000');
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0]).toMatchObject({ field: 'size', constraint: 'max' });
    });

    it('answers problem details for bad input, unknown routes and unknown ids, never a stack', async () => {
      const invalid = await api.call('POST', '/clusters', { kind: 'Cluster', name: 'Bad_Name', spec: {} });
      expect(invalid.status).toBe(400);
      expect(invalid.contentType).toContain('application/problem+json');
      expect(invalid.body).toMatchObject({
        code: 'HYPERFLEET-VAL-000',
        status: 400,
        instance: '/api/hyperfleet/v1/clusters',
        type: 'https://api.hyperfleet.io/errors/validation-error',
      });
      expect(invalid.body.errors[0]).toMatchObject({ field: 'name', constraint: 'pattern' });
      expect(invalid.body.trace_id).toBeTruthy();
      expect(invalid.body.timestamp).toBeTruthy();
      const malformed = await api.call('POST', '/clusters', '{"kind": ');
      expect(malformed.status).toBe(400);
      expect(malformed.body.code).toBe('HYPERFLEET-VAL-006');
      expect(JSON.stringify(malformed.body)).not.toMatch(/at .*\.js:\d+/);
      const route = await api.get('/widgets');
      expect(route.status).toBe(404);
      expect(route.body.code).toBe('HYPERFLEET-NTF-000');
      const missing = await api.get('/clusters/0190b6a4-0000-7000-8000-000000000000');
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('HYPERFLEET-NTF-001');
      const c = await createCluster('alpha-3');
      const unknownField = await api.call('PATCH', `/clusters/${c.id}`, { spec: {}, colour: 'blue' });
      expect(unknownField.status).toBe(400);
      expect(unknownField.body.code).toBe('HYPERFLEET-VAL-006');
      expect(await streamEvents(c.id)).toEqual(['ResourceCreated']);
    });
  });

  describe('hostile input at the HTTP edge', () => {
    it('answers 400/415 problem details for null fields, deep nesting, other media types, bad URLs and bad order', async () => {
      const c = await createCluster('edge-1');
      const nullLabels = await api.call('PATCH', `/clusters/${c.id}`, { labels: null });
      expect(nullLabels.status).toBe(400);
      expect(nullLabels.body.errors[0]).toMatchObject({ field: 'labels' });
      expect((await api.call('PATCH', `/clusters/${c.id}`, { spec: null })).status).toBe(400);
      const deep = await api.call(
        'POST',
        '/clusters',
        `{"kind":"Cluster","name":"deep-1","spec":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
      );
      expect(deep.status).toBe(400);
      expect(deep.body.detail).toContain('nests deeper');
      const text = await api.call('POST', '/clusters', JSON.stringify({ kind: 'Cluster', name: 'text-1', spec: {} }), {
        'content-type': 'text/plain',
      });
      expect(text.status).toBe(415);
      expect(text.contentType).toContain('application/problem+json');
      const badUrl = await api.get('/clusters/%zz');
      expect(badUrl.status).toBe(400);
      expect(badUrl.contentType).toContain('application/problem+json');
      const order = await api.get('/clusters?order=drop%20table');
      expect(order.status).toBe(400);
      expect(order.body.errors[0]).toMatchObject({ field: 'order' });
      expect((await api.get('/clusters?order=name%20asc')).body.items.length).toBeGreaterThan(0);
      expect(await streamEvents(c.id)).toEqual(['ResourceCreated']);
    });

    it('keeps names unique per kind and parent (409 HYPERFLEET-CNF-001)', async () => {
      await createCluster('unique-1');
      const again = await api.call('POST', '/clusters', { kind: 'Cluster', name: 'unique-1', spec: {} });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('HYPERFLEET-CNF-001');
    });
  });

  describe("DELETE ?dryRun (Kubernetes' flag) never deletes", () => {
    it.each(['Bogus', '', 'all'])(
      '?dryRun=%s, or a near-miss spelling of dryRun=All → 400, nothing recorded, the resource stays',
      async (value) => {
        const c = await createCluster(`dry-run-${value.toLowerCase() || 'empty'}`);
        const np = (await api.call('POST', `/clusters/${c.id}/nodepools`, { kind: 'NodePool', name: 'dry-np', spec: {} })).body;
        const before = await streamEvents(c.id);
        for (const path of [`/clusters/${c.id}`, `/clusters/${c.id}/nodepools/${np.id}`, `/resources/${c.id}`]) {
          for (const query of [`dryRun=${value}`, 'dryrun=All', 'DryRun=All', 'dryRun[]=All', 'dryRun=All&dryRun=All']) {
            const refused = await api.call('DELETE', `${path}?${query}`);
            expect([query, refused.status, refused.body.errors?.[0]?.field]).toEqual([query, 400, 'dryRun']);
            expect(refused.body.detail).toContain('nothing was deleted');
          }
        }
        expect(await streamEvents(c.id)).toEqual(before);
        expect((await api.get(`/clusters/${c.id}`)).body.deleted_time).toBeUndefined();
      },
    );

    it('refuses a DELETE parameter it does not know instead of deleting otherwise than asked', async () => {
      const c = await createCluster('unknown-delete-param');
      const before = await streamEvents(c.id);
      for (const query of [
        'dryRuns=All',
        'dryRun[a]=All',
        'dryRun.x=All',
        'propagationpolicy=Background',
        'Delete_For_Move=true',
        'foo=bar',
      ]) {
        const refused = await api.call('DELETE', `/clusters/${c.id}?${query}`);
        expect([query, refused.status, refused.body.errors?.[0]?.field]).toEqual([query, 400, query.split('=')[0]]);
        expect(refused.body.detail).toContain('nothing was deleted');
      }
      expect(await streamEvents(c.id)).toEqual(before);
      expect((await api.call('DELETE', `/clusters/${c.id}?propagationPolicy=Background&delete_for_move=false`)).status).toBe(202);
    });
  });

  describe('status ingestion', () => {
    it('stores a report (201), discards a future generation (204), 400s a missing mandatory condition', async () => {
      const c = await createCluster('beta-1');
      const stored = await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 1, AVAILABLE));
      expect(stored.status).toBe(201);
      expect(stored.body).toMatchObject({ adapter: 'validation', observed_generation: 1 });
      const future = await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 7, AVAILABLE));
      expect(future.status).toBe(204);
      // Still 204 as in HyperFleet, but the adapter can read why (a Kubernetes-style API warning).
      const told = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters/${c.id}/statuses`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(report('validation', 99, AVAILABLE)),
      });
      expect([told.status, told.headers.get('warning')]).toEqual([
        204,
        `299 decom "FutureGeneration: observed_generation 99 is ahead of the resource's generation 1"`,
      ]);
      const missing = await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 1, { Applied: 'True', Health: 'True' }));
      expect(missing.status).toBe(400);
      expect(missing.body.detail).toContain("missing mandatory condition 'Available'");
      expect(await streamEvents(c.id)).toEqual(['ResourceCreated', 'AdapterStatusReported']);
      const view = (await api.get(`/clusters/${c.id}`)).body;
      expect(condition(view, 'Reconciled')).toMatchObject({ status: 'True', reason: 'ReconciledAll', observed_generation: 1 });
      expect(condition(view, 'ValidationSuccessful')).toMatchObject({ status: 'True' });
      const statuses = await api.get(`/clusters/${c.id}/statuses`);
      expect(statuses.body).toMatchObject({ page: 1, total: 1, items: [{ adapter: 'validation' }] });
    });
    it('a second Available=Unknown report of an adapter is discarded (204), identical or not; an identical True repeat is 201', async () => {
      const c = await createCluster('beta-unknown');
      const unknown = { Applied: 'True', Available: 'Unknown', Health: 'True' };
      const first = report('validation', 1, unknown);
      expect((await api.call('PUT', `/clusters/${c.id}/statuses`, first)).status).toBe(201);
      // HyperFleet's status validation: Unknown with a stored row is discarded, even the very same report.
      const same = await api.call('PUT', `/clusters/${c.id}/statuses`, first);
      expect([same.status, same.body]).toEqual([204, undefined]);
      expect((await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 1, unknown, 'Other'))).status).toBe(204);
      // A True report is stored, and its identical repeat answers the stored status (nothing new recorded).
      const available = report('validation', 1, AVAILABLE);
      expect((await api.call('PUT', `/clusters/${c.id}/statuses`, available)).status).toBe(201);
      const repeat = await api.call('PUT', `/clusters/${c.id}/statuses`, available);
      expect(repeat.status).toBe(201);
      expect(repeat.body).toMatchObject({ adapter: 'validation', observed_generation: 1 });
      expect(await streamEvents(c.id)).toEqual(['ResourceCreated', 'AdapterStatusReported', 'AdapterStatusReported']);
    });
  });

  describe('deletion (seed 000) and hard delete (bottom-up)', () => {
    it('DELETE: 202, deleted_time/deleted_by, generation+1, cascade, idempotent; PATCH and child create → 409', async () => {
      const c = await createCluster('gamma-1');
      const np = (await api.call('POST', `/clusters/${c.id}/nodepools`, { kind: 'NodePool', name: 'pool-1', spec: {} })).body;
      const del = await api.call('DELETE', `/clusters/${c.id}`);
      expect(del.status).toBe(202);
      expect(del.body).toMatchObject({ generation: 2, deleted_by: 'operator@example.com' });
      expect(Date.parse(del.body.deleted_time)).not.toBeNaN();
      expect(condition(del.body, 'Reconciled').status).toBe('False');
      const child = (await api.get(`/clusters/${c.id}/nodepools/${np.id}`)).body;
      expect(child).toMatchObject({ deleted_time: del.body.deleted_time, generation: 2 });
      const again = await api.call('DELETE', `/clusters/${c.id}`);
      expect(again.body).toMatchObject({ deleted_time: del.body.deleted_time, generation: 2 });
      const patch = await api.call('PATCH', `/clusters/${c.id}`, { spec: { region: 'us' } });
      expect(patch.status).toBe(409);
      expect(patch.body).toMatchObject({ code: 'HYPERFLEET-CNF-003', title: 'State Conflict' });
      const late = await api.call('POST', `/clusters/${c.id}/nodepools`, { kind: 'NodePool', name: 'pool-2', spec: {} });
      expect(late.status).toBe(409);
      expect(await streamEvents(c.id)).toEqual(['ResourceCreated', 'ResourceCreated', 'DeletionRequested', 'DeletionRequested']);
      const listed = await api.get('/clusters?search=deleted_time%20IS%20NOT%20NULL');
      expect(listed.body.items.map((i: any) => i.id)).toContain(c.id);
    });

    it('hard-deletes the nodepool, then the cluster as soon as its last child went (no extra report)', async () => {
      const c = await createCluster('gamma-2');
      const np = (await api.call('POST', `/clusters/${c.id}/nodepools`, { kind: 'NodePool', name: 'pool-1', spec: {} })).body;
      await api.call('DELETE', `/clusters/${c.id}`);
      expect((await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 2, FINALIZED))).status).toBe(201);
      await fixture.engine.settle();
      const waiting = (await api.get(`/clusters/${c.id}`)).body;
      expect(condition(waiting, 'Reconciled')).toMatchObject({ status: 'False', reason: 'ReconciledWaitingForChildren' });
      const dashboard = (await fetch(`${fixture.engine.url}/api/decom/v1/finalizing`).then((r) => r.json())) as { items: any[] };
      expect(dashboard.items.find((i: any) => i.id === c.id)).toMatchObject({ children_remaining: 1, waiting_on_adapters: [] });
      expect((await api.call('PUT', `/clusters/${c.id}/nodepools/${np.id}/statuses`, report('np-configmap', 2, FINALIZED))).status).toBe(
        201,
      );
      await eventually('cluster hard delete', async () => ((await api.get(`/clusters/${c.id}`)).status === 404 ? true : undefined));
      expect((await api.get(`/nodepools/${np.id}`)).status).toBe(404);
      const types = await streamEvents(c.id);
      expect(types.slice(-2)).toEqual(['HardDeleted', 'HardDeleted']);
      const history = await api.get(`/resources/${c.id}/events`);
      expect(history.body.items.map((e: any) => e.type)).toContain('AdapterFinalized');
    });

    it('ignores Finalized reported for an older generation', async () => {
      const c = await createCluster('gamma-3');
      await api.call('DELETE', `/clusters/${c.id}`);
      await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 1, FINALIZED));
      await fixture.engine.settle();
      expect((await api.get(`/clusters/${c.id}`)).status).toBe(200);
    });
  });

  describe('force delete (seed 001)', () => {
    it('404 unknown, 409 not Finalizing, 400 without reason, 403 for a non-admin, 204 then 404, audit in history', async () => {
      expect((await api.call('POST', '/clusters/0190b6a4-0000-7000-8000-000000000000/force-delete', { reason: 'x' })).status).toBe(404);
      const c = await createCluster('delta-1');
      const np = (await api.call('POST', `/clusters/${c.id}/nodepools`, { kind: 'NodePool', name: 'pool-1', spec: {} })).body;
      const active = await api.call('POST', `/clusters/${c.id}/force-delete`, { reason: 'stuck' });
      expect(active.status).toBe(409);
      expect(active.body.detail).toContain('not in Finalizing state');
      await api.call('DELETE', `/clusters/${c.id}`);
      await api.call(
        'PUT',
        `/clusters/${c.id}/statuses`,
        report('validation', 2, { Applied: 'True', Available: 'True', Health: 'False', Finalized: 'False' }),
      );
      const noReason = await api.call('POST', `/clusters/${c.id}/force-delete`, { reason: '' });
      expect(noReason.status).toBe(400);
      expect(noReason.body.errors[0]).toMatchObject({ field: 'reason', constraint: 'required' });
      const stranger = await new DemoApi(fixture.engine.url, 'mallory@example.com').call('POST', `/clusters/${c.id}/force-delete`, {
        reason: 'because',
      });
      expect(stranger.status).toBe(403);
      const ok = await api.call('POST', `/clusters/${c.id}/force-delete`, { reason: 'INC-1: adapter gone' });
      expect(ok.status).toBe(204);
      expect((await api.get(`/clusters/${c.id}`)).status).toBe(404);
      expect((await api.get(`/nodepools/${np.id}`)).status).toBe(404);
      expect((await api.call('POST', `/clusters/${c.id}/force-delete`, { reason: 'again' })).status).toBe(404);
      const audit = (await api.get(`/resources/${c.id}/events`)).body.items.find((e: any) => e.type === 'ForceDeleted');
      expect(audit).toMatchObject({
        caller: 'operator@example.com',
        data: { reason: 'INC-1: adapter gone', kind: 'Cluster', subresources: [{ id: np.id, kind: 'NodePool', name: 'pool-1' }] },
      });
      expect(audit.data.adapter_statuses[c.id][0]).toMatchObject({ adapter: 'validation', observed_generation: 2 });
      const npHistory = await api.get(`/resources/${np.id}/events`);
      expect(npHistory.body.items.map((e: any) => e.type)).toEqual(['ResourceCreated', 'DeletionRequested', 'ForceDeleted', 'HardDeleted']);
    });

    it('hard-deletes a cluster whose adapters finalized as soon as its last nodepool is force-deleted', async () => {
      const c = await createCluster('delta-3');
      const np = (await api.call('POST', `/clusters/${c.id}/nodepools`, { kind: 'NodePool', name: 'pool-1', spec: {} })).body;
      await api.call('DELETE', `/clusters/${c.id}`);
      await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 2, FINALIZED));
      await fixture.engine.settle();
      expect((await api.get(`/clusters/${c.id}`)).status).toBe(200);
      expect((await api.call('POST', `/clusters/${c.id}/nodepools/${np.id}/force-delete`, { reason: 'pool adapter gone' })).status).toBe(
        204,
      );
      await eventually('cluster hard delete', async () => ((await api.get(`/clusters/${c.id}`)).status === 404 ? true : undefined));
    });

    it('force-deletes a single nodepool without touching its cluster or siblings', async () => {
      const c = await createCluster('delta-2');
      const a = (await api.call('POST', `/clusters/${c.id}/nodepools`, { kind: 'NodePool', name: 'pool-a', spec: {} })).body;
      const b = (await api.call('POST', `/clusters/${c.id}/nodepools`, { kind: 'NodePool', name: 'pool-b', spec: {} })).body;
      await api.call('DELETE', `/clusters/${c.id}/nodepools/${a.id}`);
      expect((await api.call('POST', `/clusters/${c.id}/nodepools/${a.id}/force-delete`, { reason: 'stuck pool' })).status).toBe(204);
      expect((await api.get(`/clusters/${c.id}/nodepools/${a.id}`)).status).toBe(404);
      expect((await api.get(`/clusters/${c.id}/nodepools/${b.id}`)).body.deleted_time).toBeUndefined();
      expect((await api.get(`/clusters/${c.id}`)).body.deleted_time).toBeUndefined();
    });
  });
});
