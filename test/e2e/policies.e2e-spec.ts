/**
 * Seeds 003/004 rules on the API side, through HTTP (the test plays the adapters): deletion policy field,
 * delete guard, DeletionBlocked counts, Deleting/DeletionStarted, pause holding a deletion, force-orphan,
 * transitions-only status events.
 */
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { statusReport, type ConditionStatuses, FINALIZED, IN_PROGRESS } from '../support/status-reports.js';
import { REALISTIC_CONTROLLER_DELAY_MS } from '@decom/kube-local';

const now = () => new Date().toISOString();
const report = (adapter: string, generation: number, conds: ConditionStatuses, reason = 'R') =>
  statusReport(adapter, generation, conds, reason);
const cond = (r: any, type: string) => r.status.conditions.find((c: any) => c.type === type);

describe('deletion policy, guards, dependents and pause (seeds 003, 004)', () => {
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    fixture = await startTestEngine({ localKube: { controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS }, admins: 'operator@example.com' });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => fixture?.stop());

  const cluster = async (name: string, extra: object = {}) => {
    const r = await api.call('POST', '/clusters', { kind: 'Cluster', name, spec: {}, ...extra });
    expect(r.status).toBe(201);
    return r.body;
  };
  const nodepool = async (clusterId: string, name: string, extra: object = {}) =>
    (await api.call('POST', `/clusters/${clusterId}/nodepools`, { kind: 'NodePool', name, spec: {}, ...extra })).body;
  const types = async (clusterId: string) => (await fixture.engine.store.readStream(`cluster-${clusterId}`)).map((e) => e.type);

  it('deletion_policy: default Delete, Orphan settable at create and by PATCH before deletion, enum validated, inherited by the cascade', async () => {
    const c = await cluster('pol-1');
    expect(c.deletion_policy).toBe('Delete');
    const bad = await api.call('POST', '/clusters', { kind: 'Cluster', name: 'pol-bad', spec: {}, deletion_policy: 'Shred' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ field: 'deletion_policy' });
    const patched = await api.call('PATCH', `/clusters/${c.id}`, { deletion_policy: 'Orphan' });
    expect(patched.body).toMatchObject({ deletion_policy: 'Orphan', generation: 2 });
    const np = await nodepool(c.id, 'np-a');
    const keep = await nodepool(c.id, 'np-b', { deletion_policy: 'Delete' });
    await api.call('DELETE', `/clusters/${c.id}`);
    expect((await api.get(`/nodepools/${np.id}`)).body.deletion_policy).toBe('Orphan');
    expect((await api.get(`/nodepools/${keep.id}`)).body.deletion_policy).toBe('Delete');
    expect((await api.call('PATCH', `/clusters/${c.id}`, { deletion_policy: 'Delete' })).status).toBe(409);
  });

  it('delete guard: refused while a live resource references it (409 naming the referrer), allowed once the referrer is deleting', async () => {
    const target = await cluster('guard-target');
    const referrer = await cluster('guard-referrer', { references: { network: [{ id: target.id, kind: 'Cluster' }] } });
    expect(referrer.references).toEqual({ network: [{ id: target.id, kind: 'Cluster' }] });
    const refused = await api.call('DELETE', `/clusters/${target.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('HYPERFLEET-CNF-003');
    expect(refused.body.detail).toContain(`delete the Cluster 'guard-referrer' instead`);
    expect(await types(target.id)).toEqual(['ResourceCreated']);
    expect((await api.call('DELETE', `/clusters/${referrer.id}`)).status).toBe(202);
    expect((await api.call('DELETE', `/clusters/${target.id}`)).status).toBe(202);
  });

  it('references must name an existing, live resource of the given kind (400 otherwise, nothing recorded)', async () => {
    const target = await cluster('ref-target');
    const unknown = await api.call('POST', '/clusters', {
      kind: 'Cluster',
      name: 'ref-bad-1',
      spec: {},
      references: { network: [{ id: '0190b6a4-0000-7000-8000-000000000000', kind: 'Cluster' }] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ field: 'references.network[0]' });
    const wrongKind = await api.call('POST', '/clusters', {
      kind: 'Cluster',
      name: 'ref-bad-2',
      spec: {},
      references: { network: [{ id: target.id, kind: 'NodePool' }] },
    });
    expect(wrongKind.status).toBe(400);
    await api.call('DELETE', `/clusters/${target.id}`);
    const deleting = await api.call('POST', '/clusters', {
      kind: 'Cluster',
      name: 'ref-bad-3',
      spec: {},
      references: { network: [{ id: target.id, kind: 'Cluster' }] },
    });
    expect(deleting.status).toBe(400);
    expect(deleting.body.detail).toContain('marked for deletion');
    expect((await api.get('/clusters?size=100')).body.items.map((c: any) => c.name)).not.toContain('ref-bad-1');
  });

  it('delete guard: delete_for_move is honoured only while the referrer is paused', async () => {
    const target = await cluster('move-target');
    const referrer = await cluster('move-referrer', { references: { network: [{ id: target.id, kind: 'Cluster' }] } });
    expect((await api.call('DELETE', `/clusters/${target.id}?delete_for_move=true`)).status).toBe(409);
    expect((await api.call('POST', `/clusters/${referrer.id}/pause`, { reason: 'clusterctl move' })).status).toBe(200);
    expect((await api.call('DELETE', `/clusters/${target.id}?delete_for_move=true`)).status).toBe(202);
  });

  it('DeletionBlocked counts dependents 2 → 1 → 0; Deleting=True and DeletionStarted once', async () => {
    const c = await cluster('blocked-1');
    const a = await nodepool(c.id, 'np-a');
    const b = await nodepool(c.id, 'np-b');
    await api.call('DELETE', `/clusters/${c.id}`);
    const blocked = async () => cond((await api.get(`/clusters/${c.id}`)).body, 'DeletionBlocked');
    // The shipped config deletes clusters Foreground: the count and the ids of what must go first.
    expect(await blocked()).toMatchObject({
      status: 'True',
      reason: 'DependentsExist',
      message: `2 dependent resource(s) must be hard-deleted first (propagationPolicy Foreground): [${[a.id, b.id].sort().join(', ')}]`,
    });
    await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 2, IN_PROGRESS));
    await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 2, { ...IN_PROGRESS, Health: 'False' }));
    expect(cond((await api.get(`/clusters/${c.id}`)).body, 'Deleting')).toMatchObject({ status: 'True', reason: 'Deleting' });
    expect((await types(c.id)).filter((t) => t === 'DeletionStarted')).toHaveLength(1);
    await api.call('PUT', `/clusters/${c.id}/nodepools/${a.id}/statuses`, report('np-configmap', 2, FINALIZED));
    await eventually('np-a hard delete', async () => ((await api.get(`/nodepools/${a.id}`)).status === 404 ? true : undefined));
    expect(await blocked()).toMatchObject({
      status: 'True',
      message: `1 dependent resource(s) must be hard-deleted first (propagationPolicy Foreground): [${b.id}]`,
    });
    await api.call('PUT', `/clusters/${c.id}/nodepools/${b.id}/statuses`, report('np-configmap', 2, FINALIZED));
    await eventually('np-b hard delete', async () => ((await api.get(`/nodepools/${b.id}`)).status === 404 ? true : undefined));
    expect(await blocked()).toMatchObject({ status: 'False', reason: 'NotBlocked' });
  });

  it('?propagationPolicy=Background: DeletionBlocked still counts dependents (the hard delete waits) but holds no adapter', async () => {
    const c = await cluster('blocked-bg');
    await nodepool(c.id, 'np-a');
    await nodepool(c.id, 'np-b');
    const answer = await api.call('DELETE', `/clusters/${c.id}?propagationPolicy=Background`);
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ deletion_propagation: 'Background', deletion_required_adapters: ['validation'] });
    expect(cond((await api.get(`/clusters/${c.id}`)).body, 'DeletionBlocked')).toMatchObject({
      status: 'True',
      reason: 'DependentsExist',
      message: '2 dependent resource(s) still exist',
    });
  });

  it('?propagationPolicy=Sideways is a 400 naming the field', async () => {
    const c = await cluster('bad-propagation');
    const answer = await api.call('DELETE', `/clusters/${c.id}?propagationPolicy=Sideways`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ field: 'propagationPolicy', constraint: 'enum' })]);
    expect((await api.get(`/clusters/${c.id}`)).body.deleted_time).toBeUndefined();
  });

  it('pause during a deletion holds everything until unpause', async () => {
    const c = await cluster('pause-1');
    const np = await nodepool(c.id, 'np-a');
    await api.call('DELETE', `/clusters/${c.id}`);
    const paused = await api.call('POST', `/clusters/${c.id}/pause`, { reason: 'investigating INC-9' });
    expect(cond(paused.body, 'Paused')).toMatchObject({ status: 'True', reason: 'Paused', message: 'Paused: investigating INC-9' });
    expect(cond((await api.get(`/nodepools/${np.id}`)).body, 'Paused')).toMatchObject({ status: 'True', reason: 'ParentPaused' });
    expect((await api.call('POST', `/clusters/${c.id}/pause`, {})).status).toBe(400);
    await api.call('PUT', `/clusters/${c.id}/nodepools/${np.id}/statuses`, report('np-configmap', 2, FINALIZED));
    await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 2, FINALIZED));
    await fixture.engine.settle();
    expect((await api.get(`/nodepools/${np.id}`)).status).toBe(200);
    expect((await api.get(`/clusters/${c.id}`)).status).toBe(200);
    const unpaused = await api.call('POST', `/clusters/${c.id}/unpause`, { reason: 'done' });
    expect(cond(unpaused.body, 'Paused')).toMatchObject({ status: 'False', reason: 'Unpaused' });
    await eventually('hard delete after unpause', async () => ((await api.get(`/clusters/${c.id}`)).status === 404 ? true : undefined));
    const history = (await api.get(`/resources/${c.id}/events`)).body.items.map((e: any) => e.type);
    expect(history).toEqual(expect.arrayContaining(['ResourcePaused', 'ResourceUnpaused', 'HardDeleted']));
  });

  it('force-orphan: admin only, only while Finalizing, recorded with caller and reason', async () => {
    const c = await cluster('orphan-1');
    expect((await api.call('POST', `/clusters/${c.id}/force-orphan`, { reason: 'QM gone' })).status).toBe(409);
    await api.call('DELETE', `/clusters/${c.id}`);
    const stranger = await new DemoApi(fixture.engine.url, 'mallory@example.com').call('POST', `/clusters/${c.id}/force-orphan`, {
      reason: 'x',
    });
    expect(stranger.status).toBe(403);
    expect((await api.call('POST', `/clusters/${c.id}/force-orphan`, { reason: '' })).status).toBe(400);
    const ok = await api.call('POST', `/clusters/${c.id}/force-orphan`, { reason: 'backend decommissioned for good' });
    expect(ok.status).toBe(200);
    expect(ok.body.deletion_policy).toBe('Orphan');
    const audit = (await api.get(`/resources/${c.id}/events`)).body.items.find((e: any) => e.type === 'ForceOrphaned');
    expect(audit).toMatchObject({ caller: 'operator@example.com', data: { reason: 'backend decommissioned for good' } });
    await api.call('PUT', `/clusters/${c.id}/statuses`, report('validation', 2, FINALIZED, 'Orphaned'));
    await eventually('hard delete through the normal gate', async () =>
      (await api.get(`/clusters/${c.id}`)).status === 404 ? true : undefined,
    );
    expect(await types(c.id)).toEqual(expect.arrayContaining(['Orphaned', 'AdapterFinalized', 'HardDeleted']));
  });

  it('records status events on transitions only: an identical repeat answers 201 and appends nothing', async () => {
    const c = await cluster('repeat-1');
    const body = report('validation', 1, IN_PROGRESS);
    expect((await api.call('PUT', `/clusters/${c.id}/statuses`, body)).status).toBe(201);
    const again = await api.call('PUT', `/clusters/${c.id}/statuses`, { ...body, observed_time: now() });
    expect(again.status).toBe(201);
    expect(again.body.adapter).toBe('validation');
    expect(await types(c.id)).toEqual(['ResourceCreated', 'AdapterStatusReported']);
  });
});
