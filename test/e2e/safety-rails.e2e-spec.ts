/**
 * Operator safety rails through HTTP: deletion protection (set on create / PATCH, DELETE refused 409 naming the
 * protected resources, the preview refusing the same way, clearing for admins with a reason) and abandoning one
 * adapter of a deletion (admin, recorded as a forced AdapterFinalized, a leak inventory of what it still owns,
 * the rest of the deletion going on). The bundled adapters run against the bundled Kubernetes server.
 */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { registerDeleteCommand } from '../../apps/cli/src/commands/delete.command.js';
import { registerAbandonCommand, registerProtectCommand } from '../../apps/cli/src/commands/rails.command.js';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const cond = (r: any, type: string) => r.status.conditions.find((c: any) => c.type === type);

describe('operator safety rails: deletion protection, abandon one adapter', () => {
  let fixture: EngineFixture;
  let operator: DemoApi;
  let admin: DemoApi;

  beforeAll(async () => {
    fixture = await startTestEngine({ adaptersDir: resolve('config/adapters'), admins: 'admin@example.com' });
    operator = new DemoApi(fixture.engine.url, 'operator@example.com');
    admin = new DemoApi(fixture.engine.url, 'admin@example.com');
  });
  afterAll(async () => fixture?.stop());

  const kube = () => fixture.engine.localKube!;
  const types = async (id: string) => (await fixture.engine.store.readStream(`cluster-${id}`)).map((e) => e.type);
  const cluster = async (name: string, extra: object = {}) => {
    const r = await operator.call('POST', '/clusters', { kind: 'Cluster', name, spec: {}, ...extra });
    expect(r.status).toBe(201);
    return r.body;
  };

  it('protection set on create refuses the DELETE (409 naming it), the preview too; nothing is recorded', async () => {
    const c = await cluster('prot-create', { deletion_protection: true, deletion_protection_reason: 'production control plane' });
    expect(c).toMatchObject({
      deletion_protection: true,
      deletion_protection_set: { caller: 'operator@example.com', reason: 'production control plane' },
      generation: 1,
    });
    expect((await operator.get(`/clusters/${c.id}`)).body).toMatchObject({ deletion_protection: true });
    const refused = await operator.call('DELETE', `/clusters/${c.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'HYPERFLEET-CNF-003',
      protected_resources: [{ id: c.id, kind: 'Cluster', name: 'prot-create' }],
    });
    expect(refused.body.detail).toContain(`deletion_protection is set on Cluster 'prot-create' (${c.id})`);
    const preview = await operator.call('DELETE', `/clusters/${c.id}?dryRun=All`);
    expect(preview.status).toBe(409);
    expect(preview.body).toMatchObject({ dry_run: true, protected_resources: [{ id: c.id }] });
    // `decom delete` (and its --dry-run) fails with the DELETE's detail, naming the protected resource.
    for (const args of [[], ['--dry-run']]) {
      const program = new Command('decom').exitOverride();
      registerDeleteCommand(program, { out: () => undefined, defaultApiUrl: () => fixture.engine.url, identity: 'operator@example.com' });
      await expect(program.parseAsync(['node', 'decom', 'delete', 'clusters', c.id, ...args])).rejects.toThrow(
        `409 Cannot delete Cluster '${c.id}': deletion_protection is set on Cluster 'prot-create'`,
      );
    }
    expect(await types(c.id)).toEqual(['ResourceCreated', 'DeletionProtectionChanged']);
  });

  it('a protected nodepool refuses its cluster DELETE (cascade), also on the nested and kind-agnostic routes', async () => {
    const c = await cluster('prot-cascade');
    const np = (await operator.call('POST', `/clusters/${c.id}/nodepools`, { kind: 'NodePool', name: 'np-keep', spec: {} })).body;
    const set = await operator.call('PATCH', `/clusters/${c.id}/nodepools/${np.id}`, { deletion_protection: true });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ deletion_protection: true, generation: 1 });
    for (const path of [`/clusters/${c.id}`, `/resources/${c.id}`]) {
      const refused = await operator.call('DELETE', path);
      expect(refused.status).toBe(409);
      expect(refused.body.protected_resources).toEqual([{ id: np.id, kind: 'NodePool', name: 'np-keep' }]);
    }
    expect((await operator.call('DELETE', `/clusters/${c.id}/nodepools/${np.id}`)).status).toBe(409);
    expect(await types(c.id)).not.toContain('DeletionRequested');
  });

  it('clearing: 403 for an operator, 400 without a reason, then recorded with the admin and reason and the DELETE goes through', async () => {
    const c = await cluster('prot-clear', { deletion_protection: true });
    const denied = await operator.call('PATCH', `/clusters/${c.id}`, { deletion_protection: false, deletion_protection_reason: 'x' });
    expect(denied.status).toBe(403);
    const noReason = await admin.call('PATCH', `/clusters/${c.id}`, { deletion_protection: false });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors[0]).toMatchObject({ field: 'deletion_protection_reason' });
    const cleared = await admin.call('PATCH', `/clusters/${c.id}`, {
      deletion_protection: false,
      deletion_protection_reason: 'CHG-42 decommission',
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.deletion_protection).toBeUndefined();
    const history = (await operator.get(`/resources/${c.id}/events`)).body.items.filter((e: any) => e.type === 'DeletionProtectionChanged');
    expect(history.map((e: any) => e.data)).toEqual([
      expect.objectContaining({ deletion_protection: true, caller: 'operator@example.com' }),
      expect.objectContaining({ deletion_protection: false, caller: 'admin@example.com', reason: 'CHG-42 decommission' }),
    ]);
    expect((await operator.call('DELETE', `/clusters/${c.id}`)).status).toBe(202);
  });

  it('GraphQL: setDeletionProtection, a refused deleteResource naming the protected resources, abandonAdapter', async () => {
    const c = await cluster('prot-graphql');
    const graphql = async (as: string, query: string) =>
      (
        await fetch(`${fixture.engine.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hyperfleet-identity': as },
          body: JSON.stringify({ query }),
        })
      ).json() as Promise<any>;
    const set = await graphql(
      'operator@example.com',
      `mutation { setDeletionProtection(id: "${c.id}", enabled: true, reason: "prod") { deletion_protection deletion_protection_set { caller reason } } }`,
    );
    expect(set.data.setDeletionProtection).toEqual({
      deletion_protection: true,
      deletion_protection_set: { caller: 'operator@example.com', reason: 'prod' },
    });
    const refused = await graphql('operator@example.com', `mutation { deleteResource(id: "${c.id}") { id } }`);
    expect(refused.errors[0].extensions.problem).toMatchObject({
      status: 409,
      protected_resources: [{ id: c.id, kind: 'Cluster', name: 'prot-graphql' }],
    });
    const denied = await graphql(
      'operator@example.com',
      `mutation { setDeletionProtection(id: "${c.id}", enabled: false, reason: "x") { id } }`,
    );
    expect(denied.errors[0].extensions.problem.status).toBe(403);
    const cleared = await graphql(
      'admin@example.com',
      `mutation { setDeletionProtection(id: "${c.id}", enabled: false, reason: "retire") { deletion_protection deletion_protection_set { caller } } }`,
    );
    expect(cleared.data.setDeletionProtection).toEqual({ deletion_protection: false, deletion_protection_set: null });
    expect((await admin.call('POST', `/clusters/${c.id}/pause`, { reason: 'hold' })).status).toBe(200);
    expect((await operator.call('DELETE', `/clusters/${c.id}`)).status).toBe(202);
    const abandoned = await graphql(
      'admin@example.com',
      `mutation { abandonAdapter(id: "${c.id}", adapter: "validation", reason: "gone") { conditions { type status } } }`,
    );
    expect(abandoned.errors).toBeUndefined();
    const finalized = (await fixture.engine.store.readStream(`cluster-${c.id}`)).find((e) => e.type === 'AdapterFinalized');
    expect(finalized?.data).toMatchObject({ forced: true, caller: 'admin@example.com', reason: 'gone' });
  });

  it('abandon refusals: 400 without reason, 404 unknown, 409 not Finalizing / not in the frozen set, 403 for an operator', async () => {
    const c = await cluster('abandon-refusals');
    expect((await admin.call('POST', `/clusters/${c.id}/adapters/validation/abandon`, { reason: 'x' })).status).toBe(409);
    expect(
      (await admin.call('POST', `/clusters/0190b6a4-0000-7000-8000-000000000000/adapters/validation/abandon`, { reason: 'x' })).status,
    ).toBe(404);
    expect((await admin.call('POST', `/clusters/${c.id}/pause`, { reason: 'hold' })).status).toBe(200);
    expect((await operator.call('DELETE', `/clusters/${c.id}`)).status).toBe(202);
    expect((await admin.call('POST', `/clusters/${c.id}/adapters/validation/abandon`, {})).status).toBe(400);
    const outside = await admin.call('POST', `/clusters/${c.id}/adapters/np-configmap/abandon`, { reason: 'x' });
    expect(outside.status).toBe(409);
    expect(outside.body.detail).toContain('not in the adapter set frozen');
    expect((await operator.call('POST', `/clusters/${c.id}/adapters/validation/abandon`, { reason: 'x' })).status).toBe(403);
    expect(await types(c.id)).not.toContain('AdapterFinalized');
  });

  it('abandoning the validation adapter: forced AdapterFinalized with caller and reason, a leak inventory of its objects, the deletion finishes', async () => {
    const c = await cluster('abandon-one');
    const ns = c.id.toLowerCase();
    await eventually(
      'Reconciled at generation 1',
      async () => (cond((await operator.get(`/clusters/${c.id}`)).body, 'Reconciled')?.status === 'True' ? true : undefined),
      30_000,
    );
    // Paused, its adapter cannot clean up: the stuck adapter an operator would abandon.
    expect((await admin.call('POST', `/clusters/${c.id}/pause`, { reason: 'adapter stuck' })).status).toBe(200);
    expect((await operator.call('DELETE', `/clusters/${c.id}`)).status).toBe(202);
    const abandoned = await admin.call('POST', `/clusters/${c.id}/adapters/validation/abandon`, {
      reason: 'INC-9 cluster API unreachable',
    });
    expect(abandoned.status).toBe(200);
    const events = (await operator.get(`/resources/${c.id}/events`)).body.items as { type: string; data: any; caller?: string }[];
    expect(events.find((e) => e.type === 'AdapterFinalized')?.data).toMatchObject({
      adapter: 'validation',
      forced: true,
      caller: 'admin@example.com',
      reason: 'INC-9 cluster API unreachable',
    });
    const inventory = await eventually('the abandoned adapter is inventoried', async () => {
      const items = (await operator.get(`/resources/${c.id}/events`)).body.items as { type: string; data: any }[];
      return items.find((e) => e.type === 'LeakInventoryRecorded');
    });
    expect(inventory.data).toMatchObject({ id: c.id, adapter: 'validation', trigger: 'AdapterAbandoned' });
    expect(inventory.data.objects).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'Namespace', name: ns, adapter: 'validation' })]),
    );
    // A second abandon is refused: that adapter counts as finalized now.
    expect((await admin.call('POST', `/clusters/${c.id}/adapters/validation/abandon`, { reason: 'again' })).status).toBe(409);
    expect((await admin.call('POST', `/clusters/${c.id}/unpause`, { reason: 'go on' })).status).toBe(200);
    await eventually(
      'hard-deleted through the normal gate',
      async () => ((await operator.get(`/clusters/${c.id}`)).status === 404 ? true : undefined),
      30_000,
    );
    // Its objects were left in place (no cleanup ran for it).
    expect(kube().peek('v1', 'Namespace', undefined, ns)).toBeDefined();
  }, 60_000);

  it('CLI: decom protect sets and (admin, with a reason) clears protection; decom abandon abandons one adapter', async () => {
    const decom = async (...args: string[]) => {
      let out = '';
      const program = new Command('decom').exitOverride();
      const io = { out: (text: string) => void (out += text), defaultApiUrl: () => fixture.engine.url };
      registerProtectCommand(program, io);
      registerAbandonCommand(program, io);
      await program.parseAsync(['node', 'decom', ...args]);
      return out;
    };
    const c = await cluster('cli-rails');
    expect(await decom('protect', 'Cluster', c.id, '--as', 'operator@example.com')).toBe(`Cluster ${c.id}: deletion protection set\n`);
    expect((await operator.call('DELETE', `/clusters/${c.id}`)).status).toBe(409);
    await expect(decom('protect', 'clusters', c.id, '--clear', '--reason', 'x', '--as', 'operator@example.com')).rejects.toThrow('403 ');
    expect(await decom('protect', 'clusters', c.id, '--clear', '--reason', 'CHG-9', '--as', 'admin@example.com')).toBe(
      `Cluster ${c.id}: deletion protection cleared\n`,
    );
    await expect(decom('abandon', 'Cluster', c.id, 'validation', '--reason', 'r', '--as', 'admin@example.com')).rejects.toThrow('409 ');
    expect((await operator.call('DELETE', `/clusters/${c.id}`)).status).toBe(202);
    await expect(decom('abandon', 'Cluster', c.id, 'validation', '--reason', 'r', '--as', 'operator@example.com')).rejects.toThrow('403 ');
    expect(await decom('abandon', 'Cluster', c.id, 'validation', '--reason', 'CLI retired adapter', '--as', 'admin@example.com')).toContain(
      `Cluster ${c.id}: adapter validation abandoned`,
    );
    const finalized = (await fixture.engine.store.readStream(`cluster-${c.id}`)).find(
      (e) => e.type === 'AdapterFinalized' && (e.data as any).forced,
    );
    expect(finalized?.data).toMatchObject({ adapter: 'validation', caller: 'admin@example.com', reason: 'CLI retired adapter' });
  });
});
