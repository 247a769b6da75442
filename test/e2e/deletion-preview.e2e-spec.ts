/**
 * Deletion preview (Kubernetes' `dryRun=All` on DELETE) through HTTP against the embedded engine: the plan of
 * the very decision a DELETE runs, and nothing recorded (no event, no mark, no adapter run).
 */
import { Command } from 'commander';
import { DemoApi } from '../../apps/cli/src/demo/api-client.js';
import { registerDeleteCommand } from '../../apps/cli/src/commands/delete.command.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { ensureBuilt, runBuiltDecom } from './support/built-decom.js';

describe('DELETE ?dryRun=All previews the deletion, records nothing', () => {
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    fixture = await startTestEngine({ admins: 'operator@example.com' });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => fixture?.stop());

  const streamEvents = async (clusterId: string) => (await fixture.engine.store.readStream(`cluster-${clusterId}`)).map((e) => e.type);
  const cluster = async (name: string, extra: object = {}) => {
    const r = await api.call('POST', '/clusters', { kind: 'Cluster', name, spec: {}, ...extra });
    expect(r.status).toBe(201);
    return r.body;
  };
  const pool = async (clusterId: string, name: string, extra: object = {}) => {
    const r = await api.call('POST', `/clusters/${clusterId}/nodepools`, { kind: 'NodePool', name, spec: {}, ...extra });
    expect(r.status).toBe(201);
    return r.body;
  };

  it('a cluster with nodepools: 200 with the subtree in hard-delete order, policies and adapters; afterwards nothing changed', async () => {
    const c = await cluster('preview-c1');
    const np1 = await pool(c.id, 'preview-np1', { deletion_policy: 'Orphan' });
    const np2 = await pool(c.id, 'preview-np2');
    const before = await streamEvents(c.id);

    const preview = await api.call('DELETE', `/clusters/${c.id}?dryRun=All&propagationPolicy=Background`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      kind: 'DeletionPreview',
      dry_run: true,
      target: { id: c.id, kind: 'Cluster', name: 'preview-c1', href: c.href },
      outcome: 'WouldDelete',
      propagationPolicy: 'Background',
      delete_for_move: false,
    });
    const resources = preview.body.resources as any[];
    // Children before their parent (the hard-delete order); the cluster last.
    expect(resources.map((r) => r.id).sort()).toEqual([np1.id, np2.id, c.id].sort());
    expect(resources[resources.length - 1]).toMatchObject({
      id: c.id,
      kind: 'Cluster',
      generation: 2,
      deletion_policy: 'Delete',
      deletion_policy_source: 'default',
      deletion_propagation: 'Background',
    });
    expect(resources.find((r) => r.id === np1.id)).toMatchObject({
      kind: 'NodePool',
      name: 'preview-np1',
      cascaded_from: c.id,
      deletion_policy: 'Orphan',
      deletion_policy_source: 'own',
      deletion_propagation: 'Background',
    });
    expect(resources.find((r) => r.id === np2.id)).toMatchObject({
      deletion_policy: 'Delete',
      deletion_policy_source: 'default',
      cascaded_from: c.id,
    });
    for (const r of resources) expect(r.required_adapters.length).toBeGreaterThan(0);

    // The nested and the kind-agnostic routes answer the same way.
    const nested = await api.call('DELETE', `/clusters/${c.id}/nodepools/${np2.id}?dryRun=All`);
    expect([nested.status, nested.body.outcome, nested.body.resources.map((r: any) => r.id)]).toEqual([200, 'WouldDelete', [np2.id]]);
    expect((await api.call('DELETE', `/resources/${c.id}?dryRun=All`)).body.resources).toEqual(
      resources.map((r) => ({ ...r, deletion_propagation: expect.any(String) })),
    );

    // Nothing recorded: no event (so no reactor enqueues an adapter job), no mark.
    expect(await streamEvents(c.id)).toEqual(before);
    const after = await api.get(`/clusters/${c.id}`);
    expect([after.body.deleted_time, after.body.generation]).toEqual([undefined, 1]);
    expect((await api.get(`/resources/${c.id}/events`)).body.items.map((e: any) => e.type)).toEqual(['ResourceCreated']);

    // The real DELETE does what the preview said.
    expect((await api.call('DELETE', `/clusters/${c.id}?propagationPolicy=Background`)).status).toBe(202);
    const marked = (await fixture.engine.store.readStream(`cluster-${c.id}`))
      .filter((e) => e.type === 'DeletionRequested')
      .map((e) => (e.data as any).id);
    expect(marked.sort()).toEqual(resources.map((r) => r.id).sort());
    const again = await api.call('DELETE', `/clusters/${c.id}?dryRun=All`);
    expect([again.status, again.body.outcome, again.body.resources]).toEqual([200, 'AlreadyDeleting', []]);
  });

  it('a dry-run flag on any other write, or spelled dry_run / dry-run, or in a DeleteOptions body: 400, nothing recorded', async () => {
    const c = await cluster('preview-writes');
    const before = await streamEvents(c.id);
    const refused = [
      await api.call('POST', '/clusters?dryRun=All', { kind: 'Cluster', name: 'preview-never-created', spec: {} }),
      await api.call('PATCH', `/clusters/${c.id}?dryRun=All`, { spec: { a: 2 } }),
      await api.call('POST', `/clusters/${c.id}/pause?dry_run=true`, { reason: 'only a test' }),
      await api.call('POST', `/clusters/${c.id}/force-delete?dryRun=All`, { reason: 'preview only' }),
      await api.call('DELETE', `/clusters/${c.id}?dry_run=true`),
      await api.call('DELETE', `/clusters/${c.id}?dry-run=true`),
      await api.call('DELETE', `/clusters/${c.id}`, { kind: 'DeleteOptions', dryRun: ['All'] }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, 400]);
    for (const r of refused) expect(r.body.detail).toMatch(/nothing was (recorded|deleted)/);
    expect(await streamEvents(c.id)).toEqual(before);
    expect((await api.get('/clusters?search=name%3D%27preview-never-created%27')).body.total).toBe(0);
    const after = await api.get(`/clusters/${c.id}`);
    expect([after.status, after.body.deleted_time, after.body.generation, after.body.spec]).toEqual([200, undefined, 1, {}]);
  });

  it("a referenced (in use) cluster: the DELETE's 409 and problem body, with dry_run true; nothing recorded", async () => {
    const target = await cluster('preview-used');
    await cluster('preview-user', { references: { network: [{ id: target.id, kind: 'Cluster' }] } });
    const refused = await api.call('DELETE', `/clusters/${target.id}?dryRun=All`);
    expect(refused.status).toBe(409);
    expect(refused.contentType).toContain('application/problem+json');
    expect(refused.body).toMatchObject({ code: 'HYPERFLEET-CNF-003', dry_run: true });
    expect(refused.body.detail).toContain(`delete the Cluster 'preview-user' instead`);
    expect(await streamEvents(target.id)).toEqual(['ResourceCreated']);
  });

  it('a missing resource is 404, a bad propagationPolicy 400, as for the DELETE', async () => {
    expect((await api.call('DELETE', '/clusters/0190b6a4-0000-7000-8000-000000000000?dryRun=All')).status).toBe(404);
    const c = await cluster('preview-bad-policy');
    const bad = await api.call('DELETE', `/clusters/${c.id}?dryRun=All&propagationPolicy=Orphan`);
    expect([bad.status, bad.body.errors?.[0]?.field]).toEqual([400, 'propagationPolicy']);
  });

  it('GraphQL deleteResource(dryRun: true): the stored resource unchanged, with deletion_preview', async () => {
    const c = await cluster('preview-gql');
    const np = await pool(c.id, 'preview-gql-np');
    const query = `mutation { deleteResource(id: "${c.id}", dryRun: true, propagationPolicy: "Foreground") { id deleted_time generation deletion_preview { dry_run outcome propagationPolicy target { id name } resources { id kind cascaded_from deletion_propagation required_adapters } } } }`;
    const answer = (await (
      await fetch(`${fixture.engine.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hyperfleet-identity': 'operator@example.com' },
        body: JSON.stringify({ query }),
      })
    ).json()) as any;
    expect(answer.errors).toBeUndefined();
    const r = answer.data.deleteResource;
    expect([r.id, r.deleted_time, r.generation]).toEqual([c.id, null, 1]);
    expect(r.deletion_preview).toMatchObject({
      dry_run: true,
      outcome: 'WouldDelete',
      propagationPolicy: 'Foreground',
      target: { id: c.id, name: 'preview-gql' },
    });
    expect(r.deletion_preview.resources.map((x: any) => [x.id, x.cascaded_from, x.deletion_propagation])).toEqual([
      [np.id, c.id, 'Foreground'],
      [c.id, null, 'Foreground'],
    ]);
    expect(await streamEvents(c.id)).toEqual(['ResourceCreated', 'ResourceCreated']);

    await cluster('preview-gql-user', { references: { network: [{ id: c.id, kind: 'Cluster' }] } });
    const refused = (await (
      await fetch(`${fixture.engine.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hyperfleet-identity': 'operator@example.com' },
        body: JSON.stringify({ query }),
      })
    ).json()) as any;
    expect(refused.errors[0].extensions.problem).toMatchObject({ status: 409, code: 'HYPERFLEET-CNF-003', dry_run: true });
  });

  it('decom delete <kind> <id> --dry-run prints the plan (or JSON) and records nothing; a refusal fails like the delete', async () => {
    const c = await cluster('preview-cli');
    const np = await pool(c.id, 'preview-cli-np');
    const run = async (...args: string[]) => {
      let text = '';
      const program = new Command('decom').exitOverride();
      registerDeleteCommand(program, {
        out: (chunk) => void (text += chunk),
        defaultApiUrl: () => fixture.engine.url,
        identity: 'operator@example.com',
      });
      await program.parseAsync(['node', 'decom', 'delete', ...args]);
      return text;
    };
    const lines = (await run('Cluster', c.id, '--dry-run')).trimEnd().split('\n');
    expect(lines[0]).toBe(
      `dry run: DELETE Cluster ${c.id} (preview-cli) would mark 2 resource(s), in hard-delete order; nothing was recorded`,
    );
    expect(lines[1]!.split(/\s{2,}/)).toEqual(expect.arrayContaining(['1', 'NodePool', 'preview-cli-np', np.id]));
    expect(lines[2]!.split(/\s{2,}/)).toEqual(expect.arrayContaining(['2', 'Cluster', 'preview-cli', c.id]));
    const json = JSON.parse(await run('clusters', c.id, '--dry-run', '--json'));
    expect([json.outcome, json.resources.length]).toEqual(['WouldDelete', 2]);
    expect(await streamEvents(c.id)).toEqual(['ResourceCreated', 'ResourceCreated']);

    await cluster('preview-cli-user', { references: { network: [{ id: c.id, kind: 'Cluster' }] } });
    await expect(run('Cluster', c.id, '--dry-run')).rejects.toThrow(
      /^409 .*delete the Cluster 'preview-cli-user' instead.*\(dry run: nothing was recorded\)$/,
    );
    await expect(run('Widget', c.id, '--dry-run')).rejects.toThrow(/unknown kind 'Widget'/);
    expect(await streamEvents(c.id)).toEqual(['ResourceCreated', 'ResourceCreated']);
    // Without --dry-run it deletes, through the same route.
    const other = await cluster('preview-cli-real');
    expect(await run('cluster', other.id)).toMatch(
      new RegExp(`^Cluster ${other.id} marked for deletion \\(generation 2, deleted_time \\d{4}-`),
    );
    expect(await streamEvents(other.id)).toEqual(['ResourceCreated', 'DeletionRequested']);
  });

  it("the built decom: --dry-run exits 0 with the plan, a refused one exits 1 with the DELETE's detail", async () => {
    ensureBuilt();
    const c = await cluster('preview-bin');
    const api = ['--api', fixture.engine.url, '--as', 'operator@example.com'];
    const planned = await runBuiltDecom(['delete', 'Cluster', c.id, '--dry-run', ...api]);
    expect([planned.code, planned.stdout.split('\n')[0], planned.stderr]).toEqual([
      0,
      `dry run: DELETE Cluster ${c.id} (preview-bin) would mark 1 resource(s), in hard-delete order; nothing was recorded`,
      '',
    ]);
    await cluster('preview-bin-user', { references: { network: [{ id: c.id, kind: 'Cluster' }] } });
    const refused = await runBuiltDecom(['delete', 'Cluster', c.id, '--dry-run', ...api]);
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toMatch(/^decom: 409 .*preview-bin-user.*\(dry run: nothing was recorded\)\n$/);
    expect(await streamEvents(c.id)).toEqual(['ResourceCreated']);
  }, 240_000);
});
