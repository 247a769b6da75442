/**
 * Tenants end to end, as HyperFleet does them, with JWT on against a real
 * local JWKS endpoint. Two tenants via gateway headers each see and change only their own resources (404
 * across tenants over REST and GraphQL), names are unique per tenant, children inherit the parent's
 * tenancy, a missing or bad dimension is a 403, and the system header makes an unscoped reader only for
 * an identity bound to an adapter (an ordinary user sending it is still scoped), and a fleet-wide reader for
 * an administrator (reads only: its writes still name a tenant).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestIssuer } from '../support/test-issuer.js';
import { writeServerConfig } from '../support/server-config.js';
import { usePostgres, type PostgresForTests } from '../support/postgres.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const ALICE = 'alice@acme.example';
const BOB = 'bob@globex.example';
const BOT = 'validation-bot@example.com';
const ROOT = 'root@example.com';
const ROOT2 = 'root2@example.com';

// Both read-model dialects: the tenancy filter is JSON SQL (json_extract / jsonb ->>).
describe.each(['sqlite', 'postgres'] as const)('tenants as HyperFleet does them, on %s', (profile) => {
  let issuer: TestIssuer;
  let fixture: EngineFixture;
  let dir: string;
  let postgres: PostgresForTests | undefined;
  let schema = '';

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    dir = await mkdtemp(join(tmpdir(), 'decom-tenants-'));
    const file = await writeServerConfig(join(dir, 'server.yaml'), issuer, {
      tenant: {
        enabled: true,
        system_header: 'X-HyperFleet-System',
        dimensions: [
          { header: 'X-Tenant-Org', key: 'org', required: true },
          { header: 'X-Tenant-Project', key: 'project' },
        ],
      },
      // The two-person rule on: a second administrator approves, only within its tenancy.
      authorization: { admins: [ROOT, ROOT2], adapters: { validation: [BOT] }, break_glass: { approvals: 1 } },
    });
    if (profile === 'postgres') {
      postgres = await usePostgres();
      schema = await postgres.newSchema();
    }
    const storage: Record<string, string> = postgres
      ? { DECOM_EVENT_STORE: 'postgres', DATABASE_URL: postgres.connectionString, DECOM_PG_SCHEMA: schema }
      : {};
    fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: file, ...storage } });
  });
  afterAll(async () => {
    await fixture?.stop();
    await issuer?.close();
    if (postgres) {
      await postgres.dropSchema(schema);
      await postgres.stop();
    }
    await rm(dir, { recursive: true, force: true });
  });

  const call = async (identity: string, headers: Record<string, string>, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${fixture.engine.url}${!/^\/(api|graphql|healthz)/.test(path) ? `/api/hyperfleet/v1${path}` : path}`, {
      method,
      headers: {
        authorization: `Bearer ${await issuer.token(identity)}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const acme = { 'x-tenant-org': 'acme' };
  const globex = { 'x-tenant-org': 'globex' };
  const gql = async (headers: Record<string, string>, query: string, variables: object = {}) =>
    (await call(ALICE, headers, 'POST', '/graphql', { query, variables })).body;

  it('each tenant sees and changes only its own resources; others answer 404 (REST and GraphQL)', async () => {
    const a = await call(ALICE, acme, 'POST', '/clusters', { kind: 'Cluster', name: 'shared-name', spec: {} });
    expect(a.status).toBe(201);
    const b = await call(BOB, globex, 'POST', '/clusters', { kind: 'Cluster', name: 'shared-name', spec: {} });
    expect(b.status).toBe(201); // the same name in another tenant
    const again = await call(BOB, globex, 'POST', '/clusters', { kind: 'Cluster', name: 'shared-name', spec: {} });
    expect(again.status).toBe(409); // twice in one tenant
    expect(again.body.id).toBe(b.body.id);
    const pool = await call(ALICE, acme, 'POST', `/clusters/${a.body.id}/nodepools`, { kind: 'NodePool', name: 'pool-1', spec: {} });
    expect({ status: pool.status, body: pool.status === 201 ? undefined : pool.body }).toEqual({ status: 201, body: undefined });

    const names = async (headers: Record<string, string>) =>
      (await call(ALICE, headers, 'GET', '/clusters')).body.items.map((c: { id: string }) => c.id);
    expect(await names(acme)).toEqual([a.body.id]);
    expect(await names(globex)).toEqual([b.body.id]);
    expect((await call(ALICE, acme, 'GET', `/resources?search=${encodeURIComponent("name='shared-name'")}`)).body.total).toBe(1);

    // Across tenants: 404, nothing changed.
    expect((await call(BOB, globex, 'GET', `/clusters/${a.body.id}`)).status).toBe(404);
    expect((await call(BOB, globex, 'GET', `/resources/${a.body.id}`)).status).toBe(404);
    expect((await call(BOB, globex, 'GET', `/resources/${a.body.id}/events`)).status).toBe(404);
    expect((await call(BOB, globex, 'GET', `/clusters/${a.body.id}/nodepools`)).status).toBe(404);
    expect((await call(BOB, globex, 'GET', `/nodepools/${pool.body.id}`)).status).toBe(404);
    expect((await call(BOB, globex, 'GET', `/clusters/${a.body.id}/statuses`)).status).toBe(404);
    expect((await call(BOB, globex, 'PATCH', `/clusters/${a.body.id}`, { labels: { x: 'y' } })).status).toBe(404);
    expect((await call(BOB, globex, 'DELETE', `/clusters/${a.body.id}`)).status).toBe(404);
    expect((await call(BOB, globex, 'DELETE', `/clusters/${a.body.id}?dryRun=All`)).status).toBe(404);
    const still = await call(ALICE, acme, 'GET', `/clusters/${a.body.id}`);
    expect(still.body.generation).toBe(1);
    expect(still.body.labels ?? {}).toEqual({});
    expect(still.body.deleted_time).toBeFalsy();

    // A reference to another tenant's resource is refused like one to a missing resource.
    const crossRef = await call(BOB, globex, 'POST', '/clusters', {
      kind: 'Cluster',
      name: 'ref-1',
      spec: {},
      references: { peer: [{ id: a.body.id, kind: 'Cluster' }] },
    });
    expect(crossRef.status).toBe(400);
    expect(crossRef.body.errors[0].message).toBe(`no Cluster with id '${a.body.id}'`);

    // The child inherited the parent's tenancy: visible and changeable in acme.
    expect((await call(ALICE, acme, 'GET', `/nodepools/${pool.body.id}`)).status).toBe(200);
    expect((await call(ALICE, acme, 'PATCH', `/clusters/${a.body.id}`, { labels: { env: 'prod' } })).body.generation).toBe(2);

    // GraphQL: same scoping.
    expect((await gql(globex, 'query($id: ID!) { resource(id: $id) { id } }', { id: a.body.id })).data.resource).toBeNull();
    expect((await gql(acme, 'query($id: ID!) { resource(id: $id) { id } }', { id: a.body.id })).data.resource.id).toBe(a.body.id);
    const listed = await gql(globex, '{ resources(kind: "Cluster") { total items { id } } }');
    expect(listed.data.resources.items.map((i: { id: string }) => i.id)).toEqual([b.body.id]);
    const deleted = await gql(globex, 'mutation($id: ID!) { deleteResource(id: $id) { id } }', { id: a.body.id });
    expect(deleted.errors[0].extensions.problem).toMatchObject({ status: 404 });

    // The event metadata records the caller's tenant.
    const events = (await call(ALICE, acme, 'GET', `/resources/${a.body.id}/events`)).body.items;
    expect(events[0].data.tenant).toEqual({ org: 'acme' });
    expect((await fixture.engine.store.readStream(`cluster-${a.body.id}`))[0]?.metadata['tenant']).toEqual({ org: 'acme' });
  }, 60_000);

  it('a narrower tenancy (more dimensions) sees only the resources that contain it', async () => {
    const web = { 'x-tenant-org': 'initech', 'x-tenant-project': 'web' };
    const created = await call(ALICE, web, 'POST', '/clusters', { kind: 'Cluster', name: 'web-1', spec: {} });
    expect(created.status).toBe(201);
    const orgOnly = await call(ALICE, { 'x-tenant-org': 'initech' }, 'GET', '/clusters');
    expect(orgOnly.body.items.map((c: { id: string }) => c.id)).toContain(created.body.id);
    const otherProject = await call(ALICE, { 'x-tenant-org': 'initech', 'x-tenant-project': 'db' }, 'GET', `/clusters/${created.body.id}`);
    expect(otherProject.status).toBe(404);
  }, 30_000);

  it('a missing required dimension or a bad value is 403 HYPERFLEET-AUZ-001; whoami returns the tenant', async () => {
    const bad: Record<string, string>[] = [
      {},
      { 'x-tenant-project': 'web' },
      { 'x-tenant-org': 'a'.repeat(64) },
      { 'x-tenant-org': 'acme corp' },
      { 'x-tenant-org': 'acme', 'x-tenant-project': 'x/y' },
    ];
    for (const headers of bad) {
      const answer = await call(ALICE, headers, 'GET', '/clusters');
      expect({ headers, status: answer.status, code: answer.body.code }).toEqual({ headers, status: 403, code: 'HYPERFLEET-AUZ-001' });
    }
    expect((await call(ALICE, {}, 'GET', '/healthz')).status).toBe(200);
    // Fleet-wide views are not for scoped callers.
    expect((await call(ALICE, acme, 'GET', '/api/decom/v1/events/stream')).status).toBe(403);
    expect((await call(ALICE, acme, 'GET', '/api/decom/v1/leaks')).status).toBe(403);
    const me = await call(ALICE, { 'x-tenant-org': 'acme', 'x-tenant-project': 'web' }, 'GET', '/api/decom/v1/whoami');
    expect(me.body).toMatchObject({ identity: ALICE, tenant: { org: 'acme', project: 'web' } });
  }, 30_000);

  it('two-person rule: an administrator decides only requests on resources of its tenancy', async () => {
    const acme = { 'x-tenant-org': 'acme' };
    const created = await call(ROOT, acme, 'POST', '/clusters', { kind: 'Cluster', name: `bg-tenant-${profile}`, spec: {} });
    expect(created.status).toBe(201);
    expect((await call(ROOT, acme, 'DELETE', `/clusters/${created.body.id}`)).status).toBe(202);
    const requested = await call(ROOT, acme, 'POST', `/clusters/${created.body.id}/force-delete`, { reason: 'stuck adapter' });
    expect(requested.status).toBe(202);
    const path = `/api/decom/v1/break-glass-requests/${requested.body.request_id}`;
    // Another tenant's administrator cannot see the cluster, so it cannot approve or reject its request either.
    expect((await call(ROOT2, { 'x-tenant-org': 'globex' }, 'POST', `${path}/approve`, {})).status).toBe(404);
    expect((await call(ROOT2, { 'x-tenant-org': 'globex' }, 'POST', `${path}/reject`, { reason: 'no' })).status).toBe(404);
    // Nor read it: the queue shows a tenant-scoped administrator only the requests of its tenancy.
    expect((await call(ROOT2, { 'x-tenant-org': 'globex' }, 'GET', path)).status).toBe(404);
    const ids = async (headers: Record<string, string>) =>
      ((await call(ROOT2, headers, 'GET', '/api/decom/v1/break-glass-requests')).body.items as { request_id: string }[]).map(
        (r) => r.request_id,
      );
    expect(await ids({ 'x-tenant-org': 'globex' })).not.toContain(requested.body.request_id);
    expect(await ids(acme)).toContain(requested.body.request_id);
    expect((await call(ROOT2, acme, 'GET', path)).body).toMatchObject({ request_id: requested.body.request_id, status: 'Pending' });
    expect((await call(ROOT, acme, 'GET', `/clusters/${created.body.id}`)).status).toBe(200);
    const approved = await call(ROOT2, acme, 'POST', `${path}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.body.request).toMatchObject({ status: 'Approved', decision: { by: ROOT2 } });
    expect((await call(ROOT, acme, 'GET', `/clusters/${created.body.id}`)).status).toBe(404);
  });

  it('the system header gives unscoped reads only to an adapter-bound identity', async () => {
    const system = { 'x-hyperfleet-system': ' TRUE ' };
    const all = await call(BOT, system, 'GET', '/clusters');
    expect(all.status).toBe(200);
    expect(new Set(all.body.items.map((c: { name: string }) => c.name))).toEqual(new Set(['shared-name', 'web-1']));
    expect(all.body.total).toBe(3);
    expect((await call(BOT, system, 'GET', '/api/decom/v1/whoami')).body.tenant).toBeNull();
    // An ordinary user sending the header is not a system caller: without a dimension it is refused…
    expect((await call(ALICE, system, 'GET', '/clusters')).status).toBe(403);
    // …and with one it stays scoped.
    const scoped = await call(ALICE, { ...system, ...globex }, 'GET', '/clusters');
    expect(scoped.body.total).toBe(1);
  }, 30_000);
  it('answers of API paths are never stored by a shared cache (they depend on the caller); health stays cacheable', async () => {
    const get = async (path: string) =>
      fetch(`${fixture.engine.url}${path}`, { headers: { authorization: `Bearer ${await issuer.token(ALICE)}`, ...acme } });
    const list = await get('/api/hyperfleet/v1/clusters');
    expect(list.status).toBe(200);
    const one = ((await list.json()) as { items: { id: string }[] }).items[0]!;
    for (const path of [
      '/api/hyperfleet/v1/clusters',
      `/api/hyperfleet/v1/clusters/${one.id}`,
      '/api/hyperfleet/v1/clusters/0190b2b4-0000-7000-8000-000000000000',
      '/api/decom/v1/whoami',
    ]) {
      const answer = await get(path);
      expect([path, answer.headers.get('cache-control')]).toEqual([path, 'no-store']);
    }
    expect((await fetch(`${fixture.engine.url}/healthz`)).headers.get('cache-control')).toBeNull();
  }, 30_000);
  it('an administrator sending the system header reads fleet-wide; its writes still need a tenant', async () => {
    const system = { 'x-hyperfleet-system': 'true' };
    const all = await call(ROOT, system, 'GET', '/clusters');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect((await call(ROOT, system, 'GET', '/api/decom/v1/whoami')).body).toMatchObject({ identity: ROOT, tenant: null });
    expect((await call(ROOT, system, 'GET', '/api/decom/v1/leaks')).status).toBe(200);
    // Without the header an administrator is a tenant caller like any other.
    expect((await call(ROOT, {}, 'GET', '/clusters')).status).toBe(403);
    const scoped = (await call(ROOT, acme, 'GET', '/clusters')).body.total as number;
    expect(scoped).toBeGreaterThan(0);
    expect(scoped).toBeLessThan(all.body.total);
    // A write with the header but no tenant: refused, so no resource is created without a tenancy.
    const create = await call(ROOT, system, 'POST', '/clusters', { kind: 'Cluster', name: 'no-tenant', spec: {} });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe('HYPERFLEET-AUZ-001');
  }, 30_000);
  it("a delete guard's 409 counts a referrer in a tenancy the caller cannot see, without naming it", async () => {
    const web = { 'x-tenant-org': 'umbrella', 'x-tenant-project': 'web' };
    const org = { 'x-tenant-org': 'umbrella' };
    const webCluster = (await call(ALICE, web, 'POST', '/clusters', { kind: 'Cluster', name: 'guarded-web', spec: {} })).body.id as string;
    const target = (await call(ALICE, web, 'POST', `/clusters/${webCluster}/nodepools`, { kind: 'NodePool', name: 'shared-np', spec: {} }))
      .body.id as string;
    // The org-wide caller sees the web project's nodepool and makes its own nodepool depend on it.
    const orgCluster = (await call(ALICE, org, 'POST', '/clusters', { kind: 'Cluster', name: 'guarded-org', spec: {} })).body.id as string;
    const user = await call(ALICE, org, 'POST', `/clusters/${orgCluster}/nodepools`, {
      kind: 'NodePool',
      name: 'secret-user-np',
      spec: {},
      references: { depends_on: [{ id: target, kind: 'NodePool' }] },
    });
    expect(user.status).toBe(201);
    // The web caller cannot see that referrer: it learns that one exists, not which.
    const refused = await call(ALICE, web, 'DELETE', `/nodepools/${target}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `Cannot delete NodePool '${target}': it is referenced by 1 live resource outside your tenant; their owners must delete them first`,
    );
    expect(JSON.stringify(refused.body)).not.toContain(user.body.id);
    expect(JSON.stringify(refused.body)).not.toContain('secret-user-np');
    // The preview meets the same refusal, redacted the same way.
    const previewed = await call(ALICE, web, 'DELETE', `/nodepools/${target}?dryRun=All`);
    expect([previewed.status, previewed.body.detail, previewed.body.dry_run]).toEqual([409, refused.body.detail, true]);
    const cascade = await call(ALICE, web, 'DELETE', `/clusters/${webCluster}`);
    expect(cascade.status).toBe(409);
    expect(cascade.body.detail).toContain('resources referenced by 1 live resource outside your tenant');
    expect(JSON.stringify(cascade.body)).not.toContain('secret-user-np');
    // The org-wide caller sees it, so it is named to them.
    const named = await call(ALICE, org, 'DELETE', `/nodepools/${target}`);
    expect(named.status).toBe(409);
    expect(named.body.detail).toContain(`NodePool 'secret-user-np' (${user.body.id})`);
    expect((await call(ALICE, web, 'GET', `/nodepools/${target}`)).body.deleted_time).toBeUndefined();
    // A cycle through the hidden nodepool (the org-wide caller makes the target depend on its user):
    // the web caller reads that it exists, not which it is.
    expect(
      (await call(ALICE, org, 'PATCH', `/nodepools/${target}`, { references: { depends_on: [{ id: user.body.id, kind: 'NodePool' }] } }))
        .status,
    ).toBe(200);
    for (const path of [`/nodepools/${target}`, `/clusters/${webCluster}`]) {
      const cycle = await call(ALICE, web, 'DELETE', path);
      expect(cycle.status).toBe(409);
      expect(cycle.body.detail).toContain('outside your tenant');
      expect(JSON.stringify(cycle.body)).not.toContain(user.body.id);
      expect(JSON.stringify(cycle.body)).not.toContain('secret-user-np');
    }
  }, 30_000);
});
