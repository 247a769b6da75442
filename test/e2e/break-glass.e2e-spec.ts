/**
 * The two-person rule through HTTP (`authorization.break_glass.approvals: 1`, docs/policies.md): force delete,
 * force orphan, unpause and abandoning an adapter answer 202 with a request naming the target and its generation; a different
 * administrator approves (the action runs, in the same append) or rejects; the requester cannot approve; a
 * resource whose generation moved voids the request (409 naming both generations); a request past its expiry
 * cannot be approved (the API's clock is the test's, moved forward, not slept through). GraphQL says the
 * same. Callers are verified JWTs from a test issuer; the test plays the adapters.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';
import { Command } from 'commander';
import { registerBreakGlassCommands } from '../../apps/cli/src/commands/break-glass.command.js';
import { serverConfigYaml } from '../support/server-config.js';
import { TestIssuer } from '../support/test-issuer.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { eventually } from '../../apps/cli/src/demo/api-client.js';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';
const OPERATOR = 'operator@example.com';
const HOUR_MS = 3_600_000;

/** One request as `identity` (a JWT from `issuer`): status, `Location`, and the JSON body (undefined when empty). */
async function callAs(fixture: EngineFixture, issuer: TestIssuer, identity: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${fixture.engine.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${await issuer.token(identity)}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, location: response.headers.get('location'), body: text ? JSON.parse(text) : undefined };
}

describe('two-person rule: break-glass actions become requests a different administrator approves', () => {
  let fixture: EngineFixture;
  let issuer: TestIssuer;
  let folder: string;
  /** The API's clock runs this far ahead of the system clock (expiry without sleeping). */
  let aheadMs = 0;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'decom-break-glass-'));
    issuer = await TestIssuer.start();
    const document = parse(serverConfigYaml(issuer, { identityClaim: 'email', authorization: { admins: [ALICE, BOB] } })) as {
      authorization: Record<string, unknown>;
    };
    document.authorization['break_glass'] = { approvals: 1, expires_after_seconds: 3600 };
    const file = join(folder, 'server.yaml');
    await writeFile(file, stringify(document));
    fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: file }, apiClock: { now: () => new Date(Date.now() + aheadMs) } });
  }, 60_000);
  afterAll(async () => {
    await fixture?.stop();
    await issuer?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const call = (identity: string, method: string, path: string, body?: unknown) => callAs(fixture, issuer, identity, method, path, body);
  const hf = (identity: string, method: string, path: string, body?: unknown) => call(identity, method, `/api/hyperfleet/v1${path}`, body);
  const queue = (identity: string, method: string, path: string, body?: unknown) =>
    call(identity, method, `/api/decom/v1/break-glass-requests${path}`, body);
  const types = async (id: string) => (await fixture.engine.store.readStream(`cluster-${id}`)).map((e) => e.type);
  const deleting = async (name: string) => {
    const created = await hf(OPERATOR, 'POST', '/clusters', { kind: 'Cluster', name, spec: {} });
    expect(created.status).toBe(201);
    expect((await hf(OPERATOR, 'DELETE', `/clusters/${created.body.id}`)).status).toBe(202);
    return created.body.id as string;
  };

  it('force delete: 202 with the request; the requester cannot approve; another admin approves and it runs', async () => {
    const id = await deleting('bg-force-delete');
    const requested = await hf(ALICE, 'POST', `/clusters/${id}/force-delete`, { reason: 'dns adapter stuck on a deleted account' });
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({
      action: 'force_delete',
      target: { kind: 'Cluster', id },
      generation: 2,
      reason: 'dns adapter stuck on a deleted account',
      requested_by: ALICE,
      status: 'Pending',
    });
    const requestId = requested.body.request_id as string;
    expect(requested.location).toBe(`/api/decom/v1/break-glass-requests/${requestId}`);
    expect(Date.parse(requested.body.expires_at) - Date.parse(requested.body.requested_time)).toBe(HOUR_MS);
    expect(requested.body).not.toHaveProperty('stream');
    // Nothing ran: the cluster is still there, Finalizing.
    expect((await hf(OPERATOR, 'GET', `/clusters/${id}`)).status).toBe(200);
    expect(await types(id)).toEqual(['ResourceCreated', 'DeletionRequested', 'BreakGlassRequested']);

    const pending = await queue(BOB, 'GET', '?status=Pending');
    expect(pending.status).toBe(200);
    expect(pending.body.items.map((r: { request_id: string }) => r.request_id)).toContain(requestId);
    expect((await queue(BOB, 'GET', `/${requestId}`)).body).toMatchObject({ request_id: requestId, status: 'Pending' });

    // An operator may not decide; the requester may not approve their own request; nothing is recorded.
    expect((await queue(OPERATOR, 'POST', `/${requestId}/approve`, {})).status).toBe(403);
    const self = await queue(ALICE, 'POST', `/${requestId}/approve`, {});
    expect(self.status).toBe(403);
    expect(self.body.detail).toContain('a different administrator must approve it');
    expect(await types(id)).toEqual(['ResourceCreated', 'DeletionRequested', 'BreakGlassRequested']);

    const approved = await queue(BOB, 'POST', `/${requestId}/approve`, { reason: 'confirmed with the dns team' });
    expect(approved.status).toBe(200);
    expect(approved.body.request).toMatchObject({
      status: 'Approved',
      decision: { status: 'Approved', by: BOB, reason: 'confirmed with the dns team' },
    });
    expect(await types(id)).toEqual([
      'ResourceCreated',
      'DeletionRequested',
      'BreakGlassRequested',
      'BreakGlassApproved',
      'ForceDeleted',
      'HardDeleted',
    ]);
    const stream = await fixture.engine.store.readStream(`cluster-${id}`);
    expect(stream.find((e) => e.type === 'ForceDeleted')!.data).toMatchObject({
      caller: ALICE,
      reason: 'dns adapter stuck on a deleted account',
      generation: 2,
    });
    // The approval is attributed to the verified approver.
    expect(stream.find((e) => e.type === 'BreakGlassApproved')!.metadata).toMatchObject({ caller: BOB, caller_subject: `sub-${BOB}` });
    expect((await hf(OPERATOR, 'GET', `/clusters/${id}`)).status).toBe(404);

    const again = await queue(ALICE, 'POST', `/${requestId}/reject`, { reason: 'too late' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ request_id: requestId, request_status: 'Approved' });
    expect((await queue(BOB, 'POST', '/0190b2b4-0000-7000-8000-00000000dead/approve', {})).status).toBe(404);
  });

  it("abandoning an adapter is a request too: another admin approves, the adapter's Finalized is forced, the deletion finishes", async () => {
    const id = await deleting('bg-abandon');
    const requested = await hf(ALICE, 'POST', `/clusters/${id}/adapters/validation/abandon`, { reason: 'validation adapter retired' });
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({
      action: 'abandon_adapter',
      adapter: 'validation',
      target: { kind: 'Cluster', id },
      status: 'Pending',
    });
    expect(await types(id)).toEqual(['ResourceCreated', 'DeletionRequested', 'BreakGlassRequested']);
    expect((await queue(ALICE, 'POST', `/${requested.body.request_id}/approve`, {})).status).toBe(403);
    expect((await queue(BOB, 'POST', `/${requested.body.request_id}/approve`, {})).status).toBe(200);
    const finalized = (await fixture.engine.store.readStream(`cluster-${id}`)).find((e) => e.type === 'AdapterFinalized');
    expect(finalized?.data).toMatchObject({ adapter: 'validation', forced: true, caller: ALICE, reason: 'validation adapter retired' });
    await eventually('hard-deleted once its only adapter is abandoned', async () =>
      (await hf(OPERATOR, 'GET', `/clusters/${id}`)).status === 404 ? true : undefined,
    );
  });

  it('a resource whose generation moved voids the request: 409 naming both generations, nothing runs', async () => {
    const created = await hf(OPERATOR, 'POST', '/clusters', { kind: 'Cluster', name: 'bg-voided', spec: { size: 1 } });
    const id = created.body.id as string;
    expect((await hf(ALICE, 'POST', `/clusters/${id}/pause`, { reason: 'investigating' })).status).toBe(200);
    const requested = await hf(ALICE, 'POST', `/clusters/${id}/unpause`, { reason: 'investigation done' });
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({ action: 'unpause', generation: 1 });
    expect((await hf(OPERATOR, 'PATCH', `/clusters/${id}`, { spec: { size: 2 } })).body.generation).toBe(2);

    const voided = await queue(BOB, 'POST', `/${requested.body.request_id}/approve`, {});
    expect(voided.status).toBe(409);
    expect(voided.body).toMatchObject({ code: 'HYPERFLEET-CNF-003', requested_generation: 1, current_generation: 2 });
    expect(voided.body.detail).toContain('made at generation 1 and it is at generation 2 now');
    expect((await types(id)).slice(-1)).toEqual(['BreakGlassVoided']);
    expect(await types(id)).not.toContain('ResourceUnpaused');
    expect((await queue(BOB, 'GET', '?status=Voided')).body.items.map((r: { request_id: string }) => r.request_id)).toContain(
      requested.body.request_id,
    );
  });

  it('reject: a reason is required; recorded with who and why; the action never runs', async () => {
    const id = await deleting('bg-rejected');
    const requested = await hf(ALICE, 'POST', `/clusters/${id}/force-orphan`, { reason: 'account closed' });
    expect(requested.status).toBe(202);
    expect((await queue(BOB, 'POST', `/${requested.body.request_id}/reject`, {})).status).toBe(400);
    const rejected = await queue(BOB, 'POST', `/${requested.body.request_id}/reject`, { reason: 'the account is being restored' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'Rejected', decision: { by: BOB, reason: 'the account is being restored' } });
    expect((await types(id)).slice(-2)).toEqual(['BreakGlassRequested', 'BreakGlassRejected']);
    expect(await types(id)).not.toContain('ForceOrphaned');
  });

  it('a request past its expiry is Expired and cannot be approved (the API clock moved an hour on)', async () => {
    const id = await deleting('bg-expired');
    const requested = await hf(ALICE, 'POST', `/clusters/${id}/force-delete`, { reason: 'stuck' });
    expect(requested.status).toBe(202);
    aheadMs = HOUR_MS + 1_000;
    try {
      expect((await queue(BOB, 'GET', '?status=Expired')).body.items.map((r: { request_id: string }) => r.request_id)).toContain(
        requested.body.request_id,
      );
      const late = await queue(BOB, 'POST', `/${requested.body.request_id}/approve`, {});
      expect(late.status).toBe(409);
      expect(late.body.detail).toContain('has expired');
      expect((await types(id)).slice(-1)).toEqual(['BreakGlassRequested']);
    } finally {
      aheadMs = 0;
    }
  });

  it('the request refuses at once what the action would refuse: force delete of an Active cluster is 409, nothing recorded', async () => {
    const created = await hf(OPERATOR, 'POST', '/clusters', { kind: 'Cluster', name: 'bg-active', spec: {} });
    const refused = await hf(ALICE, 'POST', `/clusters/${created.body.id}/force-delete`, { reason: 'x' });
    expect(refused.status).toBe(409);
    expect(await types(created.body.id)).toEqual(['ResourceCreated']);
    expect((await queue(BOB, 'GET', '?status=Bogus')).status).toBe(400);
  });

  it('GraphQL: the mutation records a request (problem status 202 naming it); approveBreakGlass runs it', async () => {
    const id = await deleting('bg-graphql');
    const graphql = async (identity: string, query: string, variables: object) =>
      (await call(identity, 'POST', '/graphql', { query, variables })).body as {
        data?: any;
        errors?: Array<{ extensions: { problem: any } }>;
      };
    const asked = await graphql(ALICE, 'mutation($id: ID!) { forceOrphan(id: $id, reason: "account closed") { id } }', { id });
    const problem = asked.errors![0]!.extensions.problem;
    expect(problem).toMatchObject({
      status: 202,
      title: 'Approval Required',
      break_glass_request: { action: 'force_orphan', target: { id }, status: 'Pending' },
    });
    const listed = await graphql(
      BOB,
      'query { breakGlassRequests(status: "Pending") { request_id action target { id kind } requested_by } }',
      {},
    );
    expect(listed.data.breakGlassRequests).toContainEqual({
      request_id: problem.break_glass_request.request_id,
      action: 'force_orphan',
      target: { id, kind: 'Cluster' },
      requested_by: ALICE,
    });
    const approved = await graphql(BOB, 'mutation($r: ID!) { approveBreakGlass(requestId: $r) { status decision } }', {
      r: problem.break_glass_request.request_id,
    });
    expect(approved.data.approveBreakGlass).toMatchObject({ status: 'Approved', decision: { by: BOB } });
    expect((await types(id)).slice(-2)).toEqual(['BreakGlassApproved', 'ForceOrphaned']);
  });

  it('CLI: decom break-glass list shows the pending request; approve refuses the requester; reject records it', async () => {
    const id = await deleting('bg-cli');
    const requested = await hf(ALICE, 'POST', `/clusters/${id}/force-delete`, { reason: 'cli path' });
    const requestId = requested.body.request_id as string;
    const tokenFile = async (identity: string) => {
      const file = join(folder, `${identity}.jwt`);
      await writeFile(file, `${await issuer.token(identity)}\n`);
      return file;
    };
    const decom = async (...args: string[]) => {
      let out = '';
      const program = new Command('decom').exitOverride();
      registerBreakGlassCommands(program, { out: (text) => void (out += text), defaultApiUrl: () => fixture.engine.url });
      await program.parseAsync(['node', 'decom', 'break-glass', ...args]);
      return out;
    };
    const bob = await tokenFile(BOB);
    const listed = await decom('list', '--status', 'Pending', '--token-file', bob);
    expect(listed).toContain(`${requestId}  Pending  force_delete Cluster/${id} g2  by ${ALICE}`);
    await expect(decom('approve', requestId, '--token-file', await tokenFile(ALICE))).rejects.toThrow('403 ');
    await expect(decom('reject', requestId, '--token-file', bob)).rejects.toThrow('reject needs --reason');
    expect(await decom('reject', requestId, '--reason', 'not this one', '--token-file', bob)).toContain(`${requestId}  Rejected`);
    expect((await types(id)).slice(-1)).toEqual(['BreakGlassRejected']);
  });
});

describe('two-person rule: leak deletion', () => {
  let fixture: EngineFixture;
  let issuer: TestIssuer;
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'decom-break-glass-leaks-'));
    issuer = await TestIssuer.start();
    const document = parse(serverConfigYaml(issuer, { identityClaim: 'email', authorization: { admins: [ALICE, BOB] } })) as {
      authorization: Record<string, unknown>;
    };
    document.authorization['break_glass'] = { approvals: 1 };
    const file = join(folder, 'server.yaml');
    await writeFile(file, stringify(document));
    // The shipped adapters provision the cluster, so its objects carry their owner marker (and become leaks).
    fixture = await startTestEngine({ adaptersDir: resolve('config/adapters'), env: { DECOM_SERVER_CONFIG: file } });
  }, 60_000);
  afterAll(async () => {
    await fixture?.stop();
    await issuer?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const call = (identity: string, method: string, path: string, body?: unknown) => callAs(fixture, issuer, identity, method, path, body);

  it('202 naming the exact objects; on approval those still leaking are deleted, recorded for the requester', async () => {
    const id: string = (await call(OPERATOR, 'POST', '/api/hyperfleet/v1/clusters', { kind: 'Cluster', name: 'bg-leaks', spec: {} })).body
      .id;
    const ns = id.toLowerCase();
    const kube = fixture.engine.localKube!;
    await eventually('the validation adapter provisioned the namespace', async () => kube.peek('v1', 'Namespace', undefined, ns));
    expect((await call(ALICE, 'POST', `/api/hyperfleet/v1/clusters/${id}/pause`, { reason: 'hold' })).status).toBe(200);
    expect((await call(OPERATOR, 'DELETE', `/api/hyperfleet/v1/clusters/${id}`)).status).toBe(202);
    const forced = await call(ALICE, 'POST', `/api/hyperfleet/v1/clusters/${id}/force-delete`, { reason: 'give up' });
    expect((await call(BOB, 'POST', `/api/decom/v1/break-glass-requests/${forced.body.request_id}/approve`, {})).status).toBe(200);

    const requested = await call(ALICE, 'POST', '/api/decom/v1/leaks/delete', { reason: 'INC-9 leftovers' });
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({ action: 'delete_leaks', target: { kind: 'Leaks' }, status: 'Pending', requested_by: ALICE });
    expect(requested.body.objects).toContainEqual(
      expect.objectContaining({ kind: 'Namespace', name: ns, adapter: 'validation', owner: { kind: 'Cluster', id } }),
    );
    expect(kube.peek('v1', 'Namespace', undefined, ns)).toBeDefined();
    const requestId = requested.body.request_id as string;
    expect((await fixture.engine.store.readStream(`breakglass-${requestId}`)).map((e) => e.type)).toEqual(['BreakGlassRequested']);

    expect((await call(ALICE, 'POST', `/api/decom/v1/break-glass-requests/${requestId}/approve`, {})).status).toBe(403);
    const approved = await call(BOB, 'POST', `/api/decom/v1/break-glass-requests/${requestId}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.body.deleted_leaks.items).toContainEqual(expect.objectContaining({ kind: 'Namespace', name: ns }));
    await kube.settle();
    expect(kube.peek('v1', 'Namespace', undefined, ns)).toBeUndefined();
    expect((await fixture.engine.store.readStream(`breakglass-${requestId}`)).map((e) => e.type)).toEqual([
      'BreakGlassRequested',
      'BreakGlassApproved',
    ]);
    const recorded = (await fixture.engine.store.readStream(`cluster-${id}`)).find((e) => e.type === 'LeakedObjectsDeleted');
    expect(recorded?.data).toMatchObject({ id, caller: ALICE, reason: 'INC-9 leftovers' });
  }, 60_000);
});
