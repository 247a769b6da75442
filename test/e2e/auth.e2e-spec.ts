/**
 * Authentication and authorization end to end: JWT authentication against a real local JWKS endpoint
 * (HTTP) with RS256/ES256 keys
 * the test generates, the role × action matrix over REST and GraphQL, the adapter ↔ identity binding (a
 * forged Finalized=True is refused and the cluster keeps its Kubernetes objects), the embedded adapters
 * authenticating with minted tokens, key rotation without restart, an unreachable JWKS, the audit fields.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { Writable } from 'node:stream';
import { Command } from 'commander';
import { DELETION_WAITS_FOR_UNPAUSE } from '@decom/domain';
import { registerHistoryCommand } from '../../apps/cli/src/commands/history.command.js';
import { eventually } from '../../apps/cli/src/demo/api-client.js';
import { TestIssuer, unsignedToken } from '../support/test-issuer.js';
import { writeServerConfig } from '../support/server-config.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const ADMIN = 'admin@example.com';
const OPERATOR = 'operator@example.com';
const VIEWER = 'viewer@example.com';
const MALLORY = 'mallory@example.com';
const VALIDATION_BOT = 'validation-bot@example.com';
const COOLDOWN_MS = 1_000;

const cond = (r: any, type: string) => r?.status?.conditions?.find((c: any) => c.type === type);

describe('authentication and authorization', () => {
  let issuer: TestIssuer;
  let fixture: EngineFixture;
  let dir: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    dir = await mkdtemp(join(tmpdir(), 'decom-auth-'));
    const file = await writeServerConfig(join(dir, 'server.yaml'), issuer, {
      identityClaim: 'email',
      jwksRefetchCooldownSeconds: COOLDOWN_MS / 1000,
      // An issuer whose keys cannot be fetched: its tokens must never be accepted.
      extraIssuers: [{ issuer_url: 'http://127.0.0.1:1/dead', jwk_cert_url: 'http://127.0.0.1:1/jwks.json', audience: issuer.audience }],
      authorization: { admins: [ADMIN], operators: [OPERATOR], adapters: { validation: [VALIDATION_BOT] } },
    });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    fixture = await startTestEngine({
      adaptersDir: resolve('config/adapters'),
      env: { DECOM_SERVER_CONFIG: file },
      logger: pino({ level: 'info' }, sink),
    });
  });
  afterAll(async () => {
    await fixture?.stop();
    await issuer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GraphQL introspection is off with JWT on (server.graphql.introspection defaults to false): 400, __typename still answers', async () => {
    const token = await as(VIEWER);
    const schema = await call('POST', '/graphql', { token, body: { query: '{ __schema { queryType { name } } }' } });
    expect(schema.status).toBe(400);
    expect(JSON.stringify(schema.body)).toContain('introspection');
    const type = await call('POST', '/graphql', { token, body: { query: '{ __type(name: "Resource") { name } }' } });
    expect(type.status).toBe(400);
    const typename = await call('POST', '/graphql', { token, body: { query: '{ __typename }' } });
    expect(typename.status).toBe(200);
    expect(typename.body.data).toEqual({ __typename: 'Query' });
  });

  const call = async (method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const response = await fetch(
      `${fixture.engine.url}${path.startsWith('/graphql') || path.startsWith('/api/') || path.startsWith('/healthz') ? path : `/api/hyperfleet/v1${path}`}`,
      {
        method,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      },
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };
  const as = async (identity: string, alg: 'RS256' | 'ES256' = 'RS256') => issuer.token(identity, { alg });
  const gql = async (token: string, query: string, variables: object = {}) =>
    (await call('POST', '/graphql', { token, body: { query, variables } })).body;

  it('refuses requests without a valid token (401 problem details), keeps health open', async () => {
    expect((await call('GET', '/healthz')).status).toBe(200);
    const none = await call('GET', '/clusters');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({
      code: 'HYPERFLEET-AUT-001',
      status: 401,
      type: 'https://api.hyperfleet.io/errors/authentication-error',
    });
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await call('GET', '/clusters', { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } })).body.code).toBe('HYPERFLEET-AUT-002');
    // A forged identity header without a token is not a caller.
    expect((await call('GET', '/clusters', { headers: { 'x-hyperfleet-identity': ADMIN } })).status).toBe(401);

    const refused: [string, string][] = [
      ['garbage', 'not.a.jwt'],
      ['alg none', unsignedToken(issuer.issuer, issuer.audience, ADMIN)],
      ['expired', await issuer.token(ADMIN, { expiresIn: -3600 })],
      ['not yet valid', await issuer.token(ADMIN, { notBefore: 3600 })],
      ['wrong audience', await issuer.token(ADMIN, { audience: 'someone-else' })],
      ['unknown issuer', await issuer.token(ADMIN, { issuer: 'https://evil.example.com' })],
      ['bad signature', await issuer.token(ADMIN, { forgeWithKid: true })],
      ['bad signature ES256', await issuer.token(ADMIN, { alg: 'ES256', forgeWithKid: true })],
      ['no identity claim', await issuer.token(ADMIN, { claims: { email: 42 } })],
    ];
    for (const [why, token] of refused) {
      const answer = await call('GET', '/clusters', { token });
      // HyperFleet's codes: AUT-003 only for an expired token, AUT-002 for every other refusal.
      const code = why === 'expired' ? 'HYPERFLEET-AUT-003' : 'HYPERFLEET-AUT-002';
      expect({ why, status: answer.status, code: answer.body.code }).toEqual({ why, status: 401, code });
    }
    expect((await call('GET', '/clusters', { token: await as(VIEWER) })).status).toBe(200);
    expect((await call('GET', '/clusters', { token: await as(VIEWER, 'ES256') })).status).toBe(200);
  });

  it('whoami says who the caller is and what it may do', async () => {
    const admin = await call('GET', '/api/decom/v1/whoami', { token: await as(ADMIN) });
    expect(admin.body).toEqual({
      identity: ADMIN,
      issuer: issuer.issuer,
      roles: ['admin', 'operator', 'reader'],
      tenant: null,
      can: {
        create: true,
        delete: true,
        pause: true,
        unpause: true,
        force_delete: true,
        force_orphan: true,
        abandon_adapter: true,
        clear_deletion_protection: true,
        override_deletion_budget: true,
      },
    });
    const operator = await call('GET', '/api/decom/v1/whoami', { token: await as(OPERATOR) });
    expect(operator.body.can).toEqual({
      create: true,
      delete: true,
      pause: false,
      unpause: false,
      force_delete: false,
      force_orphan: false,
      abandon_adapter: false,
      clear_deletion_protection: false,
      override_deletion_budget: false,
    });
    const viewer = await call('GET', '/api/decom/v1/whoami', { token: await as(VIEWER) });
    expect(viewer.body).toMatchObject({ roles: ['reader'], can: { create: false, delete: false } });
    const bot = await call('GET', '/api/decom/v1/whoami', { token: await as(VALIDATION_BOT) });
    expect(bot.body).toMatchObject({ roles: ['adapter', 'reader'], can: { create: false, delete: false, force_delete: false } });
    expect((await call('GET', '/api/decom/v1/whoami')).status).toBe(401);
  });

  it('REST role matrix: create/delete for operators, break-glass actions for admins, nothing but statuses for adapters', async () => {
    const create = (identity: string, name: string) =>
      as(identity).then((token) => call('POST', '/clusters', { token, body: { kind: 'Cluster', name, spec: {} } }));
    expect((await create(VIEWER, 'matrix-viewer')).body).toMatchObject({ status: 403, code: 'HYPERFLEET-AUZ-001' });
    expect((await create(VALIDATION_BOT, 'matrix-bot')).body).toMatchObject({
      status: 403,
      detail: expect.stringContaining('system identities may only write status'),
    });
    const created = await create(OPERATOR, 'matrix-op');
    expect(created.status).toBe(201);
    expect(created.body.created_by).toBe(OPERATOR);
    const id = created.body.id as string;
    const operator = await as(OPERATOR);
    const admin = await as(ADMIN);

    expect((await call('PATCH', `/clusters/${id}`, { token: await as(VIEWER), body: { labels: { a: 'b' } } })).status).toBe(403);
    expect((await call('PATCH', `/clusters/${id}`, { token: operator, body: { labels: { a: 'b' } } })).status).toBe(200);
    expect((await call('POST', `/clusters/${id}/pause`, { token: operator, body: { reason: 'x' } })).status).toBe(403);
    expect((await call('POST', `/clusters/${id}/pause`, { token: admin, body: { reason: 'hold' } })).status).toBe(200);
    expect((await call('POST', `/clusters/${id}/unpause`, { token: operator, body: { reason: 'x' } })).status).toBe(403);
    expect((await call('DELETE', `/clusters/${id}`, { token: await as(VALIDATION_BOT) })).status).toBe(403);
    expect((await call('DELETE', `/clusters/${id}`, { token: await as(VIEWER) })).status).toBe(403);
    // A preview reveals the tree: it needs the DELETE's role.
    expect((await call('DELETE', `/clusters/${id}?dryRun=All`, { token: await as(VIEWER) })).status).toBe(403);
    expect((await call('DELETE', `/clusters/${id}?dryRun=All`, { token: operator })).status).toBe(200);
    expect((await call('DELETE', `/clusters/${id}`, { token: operator })).status).toBe(202);
    expect((await call('POST', `/clusters/${id}/force-orphan`, { token: operator, body: { reason: 'x' } })).status).toBe(403);
    const forcedByOperator = await call('POST', `/clusters/${id}/force-delete`, { token: operator, body: { reason: 'x' } });
    expect(forcedByOperator.body).toMatchObject({ status: 403, code: 'HYPERFLEET-AUZ-001' });
    expect((await call('POST', `/clusters/${id}/force-delete`, { token: admin, body: { reason: 'INC-1 break glass' } })).status).toBe(204);

    // The audit trail records the verified caller: identity, issuer, subject (and tenant, null while off).
    const located = await fixture.engine.queries.locate(id);
    const events = await fixture.engine.store.readStream(located!.stream);
    const forced = events.find((e) => e.type === 'ForceDeleted')!;
    expect(forced.metadata).toMatchObject({ caller: ADMIN, caller_issuer: issuer.issuer, caller_subject: `sub-${ADMIN}`, tenant: null });
    expect(typeof forced.metadata['trace_id']).toBe('string');
    expect(events.find((e) => e.type === 'DeletionRequested')!.metadata).toMatchObject({ caller: OPERATOR, caller_issuer: issuer.issuer });
    const history = (await call('GET', `/resources/${id}/events`, { token: await as(VIEWER) })).body.items as any[];
    expect(history.find((e) => e.type === 'ForceDeleted')).toMatchObject({
      caller: ADMIN,
      caller_issuer: issuer.issuer,
      caller_subject: `sub-${ADMIN}`,
    });

    // `decom history --token-file` reads the same history from the secured engine.
    const tokenFile = join(dir, 'viewer.token');
    await writeFile(tokenFile, `${await as(VIEWER)}\n`);
    let text = '';
    const program = new Command('decom').exitOverride();
    registerHistoryCommand(program, { out: (chunk) => void (text += chunk), defaultApiUrl: () => fixture.engine.url });
    await program.parseAsync(['node', 'decom', 'history', id, '--token-file', tokenFile]);
    expect(text).toContain('ForceDeleted');
    const without = new Command('decom').exitOverride();
    registerHistoryCommand(without, { out: () => undefined, defaultApiUrl: () => fixture.engine.url });
    await expect(without.parseAsync(['node', 'decom', 'history', id])).rejects.toThrow(/^401 /);
  }, 30_000);

  it("mallory's forged Finalized=True is refused (403) and the cluster keeps its objects; the bound identity is accepted", async () => {
    const admin = await as(ADMIN);
    // Created by an operator; the embedded validation adapter reconciles it with its minted token.
    const id = (await call('POST', '/clusters', { token: await as(OPERATOR), body: { kind: 'Cluster', name: 'forged-1', spec: {} } })).body
      .id as string;
    await eventually('Reconciled by the embedded adapter', async () =>
      cond((await call('GET', `/clusters/${id}`, { token: admin })).body, 'Reconciled')?.status === 'True' ? true : undefined,
    );
    const kube = fixture.engine.localKube!;
    const ns = id.toLowerCase();
    expect(kube.peek('v1', 'Namespace', undefined, ns)).toBeDefined();
    expect((await call('POST', `/clusters/${id}/pause`, { token: admin, body: { reason: 'hold for the forgery test' } })).status).toBe(200);
    expect((await call('DELETE', `/clusters/${id}`, { token: admin })).status).toBe(202);
    await eventually('the adapter reports the hold', async () => {
      const statuses = (await call('GET', `/clusters/${id}/statuses`, { token: admin })).body.items as any[];
      const finalized = statuses
        .find((s) => s.adapter === 'validation' && s.observed_generation === 2)
        ?.conditions.find((c: any) => c.type === 'Finalized');
      return finalized?.message === DELETION_WAITS_FOR_UNPAUSE ? true : undefined;
    });
    const forged = {
      adapter: 'validation',
      observed_generation: 2,
      observed_time: new Date().toISOString(),
      conditions: [
        { type: 'Finalized', status: 'True', reason: 'Done' },
        { type: 'Applied', status: 'True' },
        { type: 'Available', status: 'True' },
        { type: 'Health', status: 'True' },
      ],
    };
    for (const identity of [MALLORY, ADMIN, OPERATOR]) {
      const answer = await call('PUT', `/clusters/${id}/statuses`, { token: await as(identity), body: forged });
      expect({ identity, status: answer.status, code: answer.body?.code }).toEqual({ identity, status: 403, code: 'HYPERFLEET-AUZ-001' });
    }
    // Nothing was recorded: the cluster is still Finalizing and its Kubernetes objects are all there.
    const cluster = (await call('GET', `/clusters/${id}`, { token: admin })).body;
    expect(cluster.deleted_time).toBeDefined();
    expect(cond(cluster, 'Reconciled').status).toBe('False');
    expect(kube.peek('v1', 'Namespace', undefined, ns)).toBeDefined();
    expect(kube.peek('v1', 'ConfigMap', ns, `cluster-${id}-config`)).toBeDefined();
    const events = await fixture.engine.store.readStream((await fixture.engine.queries.locate(id))!.stream);
    expect(events.filter((e) => e.metadata['caller'] === MALLORY)).toEqual([]);

    // The identity bound to `validation` is accepted (201), like the embedded adapter itself.
    const bound = await call('PUT', `/clusters/${id}/statuses`, {
      token: await as(VALIDATION_BOT),
      body: {
        ...forged,
        conditions: forged.conditions.map((c) => (c.type === 'Finalized' ? { ...c, status: 'False', reason: 'Held' } : c)),
      },
    });
    expect(bound.status).toBe(201);
    // Unpaused, the embedded adapter (minted token) cleans up and the cluster is hard-deleted.
    expect((await call('POST', `/clusters/${id}/unpause`, { token: admin, body: { reason: 'done' } })).status).toBe(200);
    await eventually('hard delete', async () =>
      (await call('GET', `/clusters/${id}`, { token: admin })).status === 404 ? true : undefined,
    );
    expect(kube.peek('v1', 'Namespace', undefined, ns)).toBeUndefined();
  }, 45_000);

  it('GraphQL: same authentication and roles on every operation', async () => {
    const anonymous = await call('POST', '/graphql', { body: { query: '{ finalizing { id } }' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('HYPERFLEET-AUT-001');
    const id = (await call('POST', '/clusters', { token: await as(OPERATOR), body: { kind: 'Cluster', name: 'gql-auth', spec: {} } })).body
      .id as string;
    const viewer = await as(VIEWER);
    expect((await gql(viewer, 'query($id: ID!) { resource(id: $id) { id } }', { id })).data.resource.id).toBe(id);
    const denied = await gql(viewer, 'mutation($id: ID!) { deleteResource(id: $id) { id } }', { id });
    expect(denied.errors[0].extensions.problem).toMatchObject({ status: 403, code: 'HYPERFLEET-AUZ-001' });
    const pauseByOperator = await gql(await as(OPERATOR), 'mutation($id: ID!) { pause(id: $id, reason: "x") { id } }', { id });
    expect(pauseByOperator.errors[0].extensions.problem.status).toBe(403);
    expect(
      (await gql(await as(OPERATOR), 'mutation($id: ID!) { deleteResource(id: $id) { deleted_by } }', { id })).data.deleteResource
        .deleted_by,
    ).toBe(OPERATOR);
    const forceByOperator = await gql(await as(OPERATOR), 'mutation($id: ID!) { forceDelete(id: $id, reason: "x") }', { id });
    expect(forceByOperator.errors[0].extensions.problem.status).toBe(403);
    expect((await gql(await as(ADMIN), 'mutation($id: ID!) { forceDelete(id: $id, reason: "INC-2") }', { id })).data.forceDelete).toBe(
      true,
    );
  }, 30_000);

  it('key rotation: a new kid is fetched without restart; unknown kids refetch at most once per cooldown', async () => {
    // A new kid within a cooldown of the last fetch is refused by design; this test must not depend on how
    // long the tests before it took since theirs.
    await issuer.outOfCooldown(COOLDOWN_MS);
    await issuer.rotate();
    const token = await as(VIEWER);
    expect((await call('GET', '/clusters', { token })).status).toBe(200);
    expect((await call('GET', '/clusters', { token: await as(VIEWER, 'ES256') })).status).toBe(200);
    // Wait out the cooldown the rotation fetch started, then flood with unknown kids: one refetch per
    // cooldown window the flood spans (one, unless a slow box stretches it past a window).
    await issuer.outOfCooldown(COOLDOWN_MS);
    const before = issuer.fetches;
    const startedMs = performance.now();
    for (let i = 0; i < 5; i++)
      expect((await call('GET', '/clusters', { token: await issuer.tokenWithUnknownKid(MALLORY) })).status).toBe(401);
    const windows = 1 + Math.floor((performance.now() - startedMs) / COOLDOWN_MS);
    expect(issuer.fetches - before).toBeGreaterThanOrEqual(1);
    expect(issuer.fetches - before).toBeLessThanOrEqual(windows);
  });

  it('an unreachable JWKS endpoint never accepts: 503 for the reader and one log line', async () => {
    const dead = await issuer.token(ADMIN, { issuer: 'http://127.0.0.1:1/dead' });
    const answer = await call('GET', '/clusters', { token: dead });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'HYPERFLEET-SVC-001', status: 503 });
    expect(logLines.some((l) => l.includes('cannot fetch the signing keys of issuer http://127.0.0.1:1/dead'))).toBe(true);
    // And with the live issuer's JWKS failing (500) a token with a new kid is refused, never accepted.
    issuer.failing = true;
    try {
      await issuer.outOfCooldown(COOLDOWN_MS);
      expect([401, 503]).toContain((await call('GET', '/clusters', { token: await issuer.tokenWithUnknownKid(ADMIN) })).status);
    } finally {
      issuer.failing = false;
    }
  });

  it('logs which issuers and how many admins at start-up', () => {
    const text = logLines.join('');
    expect(text).toContain(`authentication: JWT from ${issuer.issuer}, http://127.0.0.1:1/dead (+ embedded adapter issuer)`);
    expect(text).toContain('authorization: 1 admin(s), operators: 1, adapters bound: validation; tenants: off');
  });
});
