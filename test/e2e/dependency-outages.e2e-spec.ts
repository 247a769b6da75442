/**
 * docs/operations.md "During an outage": `/metrics` never fails as a whole and `/readyz` answers from cached
 * probes. With a dependency stopped, `/metrics` answers 200 within 1 s with `decom_dependency_up{…} 0` and
 * every other metric, `/readyz` answers 503 within 100 ms naming the dependency; after the restart both
 * recover. Also not ready: Redis with an eviction policy other than `noeviction`, and a JWKS that cannot be
 * fetched before any key was cached. Private servers only (throw-away Redis and PostgreSQL, a JWKS server of
 * the test's own); never the shared ones.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { useRestartableRedis, useThrowAwayRedis, type RedisForTests, type RestartableRedis } from '../support/redis.js';
import { useThrowAwayPostgres, type RestartablePostgres } from '../support/postgres.js';
import { TestIssuer } from '../support/test-issuer.js';
import { serverConfigYaml, writeServerConfig } from '../support/server-config.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly ms: number;
}

async function timed(url: string): Promise<Answer> {
  const started = performance.now();
  const answer = await fetch(url, { signal: AbortSignal.timeout(3_000) });
  const text = await answer.text();
  return { status: answer.status, text, ms: performance.now() - started };
}

const failing = (answer: Answer): { dependency: string; reason: string; since: string }[] => JSON.parse(answer.text).failing;

/** Polls `/readyz` until it is 503 naming `dependency`; returns that answer. */
const notReadyNaming = (engineUrl: string, dependency: string) =>
  eventually(
    `/readyz 503 naming ${dependency}`,
    async () => {
      const answer = await timed(`${engineUrl}/readyz`);
      return answer.status === 503 && failing(answer).some((f) => f.dependency === dependency) ? answer : undefined;
    },
    10_000,
    100,
  );

const readyAgain = (engineUrl: string) =>
  eventually(
    '/readyz 200',
    async () => {
      const answer = await timed(`${engineUrl}/readyz`);
      return answer.status === 200 ? answer : undefined;
    },
    20_000,
    100,
  );

describe('Redis stopped: /metrics answers with decom_dependency_up 0, /readyz 503 from its cache; both recover', () => {
  let redis: RestartableRedis;
  let fixture: EngineFixture;

  beforeAll(async () => {
    redis = await useRestartableRedis();
    fixture = await startTestEngine({ env: { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: `decom-e2e-${randomUUID()}` } });
    const api = new DemoApi(fixture.engine.url);
    const id = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'pending-during-redis-outage', spec: {} })).body.id as string;
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
  }, 30_000);
  afterAll(async () => {
    await fixture?.stop();
    await redis?.stop();
  });

  it('before: ready, decom_dependency_up 1 for sqlite and redis', async () => {
    await readyAgain(fixture.engine.url);
    const metrics = await timed(fixture.engine.metricsUrl);
    expect(metrics.text).toMatch(/^decom_dependency_up\{dependency="redis"\} 1$/m);
    expect(metrics.text).toMatch(/^decom_dependency_up\{dependency="sqlite"\} 1$/m);
  });

  it('while down and after the restart', async () => {
    // The server stays down 6 s, then starts again on the same port (empty).
    const restart = redis.restart(6_000);
    const notReady = await notReadyNaming(fixture.engine.url, 'redis');
    expect(notReady.ms).toBeLessThan(100);
    expect(failing(notReady).find((f) => f.dependency === 'redis')).toEqual({
      dependency: 'redis',
      status: 'down',
      reason: expect.any(String),
      since: expect.any(String),
    });
    // Asked again during the outage: still from the cache, still fast.
    const again = await timed(`${fixture.engine.url}/readyz`);
    expect([again.status, again.ms < 100]).toEqual([503, true]);

    const metrics = await timed(fixture.engine.metricsUrl);
    expect(metrics.status).toBe(200);
    expect(metrics.ms).toBeLessThan(1_000);
    expect(metrics.text).toMatch(/^decom_dependency_up\{dependency="redis"\} 0$/m);
    expect(metrics.text).toMatch(/^decom_dependency_up\{dependency="sqlite"\} 1$/m);
    expect(metrics.text).toMatch(/^decom_resources_finalizing\{kind="Cluster"\} 1$/m);
    expect(metrics.text).toMatch(/^hyperfleet_api_build_info\{/m);
    expect(metrics.text).toMatch(/^decom_queue_depth\{queue="/m);

    await restart;
    await readyAgain(fixture.engine.url);
    const back = await eventually(
      'decom_dependency_up redis 1',
      async () => {
        const answer = await timed(fixture.engine.metricsUrl);
        return /^decom_dependency_up\{dependency="redis"\} 1$/m.test(answer.text) ? answer : undefined;
      },
      10_000,
      100,
    );
    expect(back.status).toBe(200);
  }, 40_000);
});

describe('Redis with maxmemory-policy allkeys-lru: not ready, naming the policy', () => {
  let redis: RedisForTests;
  let fixture: EngineFixture;
  beforeAll(async () => {
    redis = await useThrowAwayRedis(['--maxmemory-policy', 'allkeys-lru']);
    fixture = await startTestEngine({ env: { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: `decom-e2e-${randomUUID()}` } });
  }, 30_000);
  afterAll(async () => {
    await fixture?.stop();
    await redis?.stop();
  });

  it('/readyz 503 names redis and allkeys-lru; decom_dependency_up redis 0', async () => {
    const notReady = await notReadyNaming(fixture.engine.url, 'redis');
    expect(notReady.ms).toBeLessThan(100);
    expect(failing(notReady)).toEqual([
      expect.objectContaining({ dependency: 'redis', reason: expect.stringMatching(/maxmemory-policy is allkeys-lru.*noeviction/) }),
    ]);
    expect((await timed(fixture.engine.metricsUrl)).text).toMatch(/^decom_dependency_up\{dependency="redis"\} 0$/m);
  });
});

describe('JWKS unreachable before the first key fetch: not ready, naming jwks', () => {
  let issuer: TestIssuer;
  let fixture: EngineFixture;
  beforeAll(async () => {
    issuer = await TestIssuer.start();
    // No fetch has happened yet: no key is cached.
    await issuer.close();
    const file = await writeServerConfig(join(await mkdtemp(join(tmpdir(), 'decom-jwks-')), 'server.yaml'), issuer, {
      jwksRefetchCooldownSeconds: 1,
    });
    fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: file } });
  }, 30_000);
  afterAll(async () => {
    await fixture?.stop();
  });

  it('/readyz 503 names jwks and the issuer; decom_dependency_up jwks 0', async () => {
    const notReady = await notReadyNaming(fixture.engine.url, 'jwks');
    expect(notReady.ms).toBeLessThan(100);
    const jwks = failing(notReady).find((f) => f.dependency === 'jwks')!;
    expect(jwks.reason).toContain(`keys of issuer ${issuer.issuer} cannot be loaded and none are cached`);
    expect((await timed(fixture.engine.metricsUrl)).text).toMatch(/^decom_dependency_up\{dependency="jwks"\} 0$/m);
    // What a caller sees meanwhile (docs/operations.md): a token cannot be checked (503), no token is refused (401).
    const signed = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`, {
      headers: { authorization: `Bearer ${await issuer.token('reader@example.com')}` },
    });
    expect(signed.status).toBe(503);
    expect((await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`)).status).toBe(401);
    expect((await fetch(`${fixture.engine.url}/healthz`)).status).toBe(200);
  });
});

describe('JWKS failing, then answering: ready once its keys are fetched', () => {
  let issuer: TestIssuer;
  let fixture: EngineFixture;
  beforeAll(async () => {
    issuer = await TestIssuer.start();
    issuer.failing = true;
    const file = await writeServerConfig(join(await mkdtemp(join(tmpdir(), 'decom-jwks-')), 'server.yaml'), issuer, {
      jwksRefetchCooldownSeconds: 1,
    });
    fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: file } });
  }, 30_000);
  afterAll(async () => {
    await fixture?.stop();
    await issuer?.close();
  });

  it('503 naming jwks while it answers 500; 200 and decom_dependency_up jwks 1 after', async () => {
    await notReadyNaming(fixture.engine.url, 'jwks');
    issuer.failing = false;
    await readyAgain(fixture.engine.url);
    expect((await timed(fixture.engine.metricsUrl)).text).toMatch(/^decom_dependency_up\{dependency="jwks"\} 1$/m);
  }, 30_000);
});

describe('jwks_file missing: not ready, naming jwks and the file; ready once the file is written', () => {
  let issuer: TestIssuer;
  let fixture: EngineFixture;
  let dir: string;
  let keys: string;
  beforeAll(async () => {
    issuer = await TestIssuer.start();
    dir = await mkdtemp(join(tmpdir(), 'decom-jwks-file-'));
    keys = join(dir, 'jwks.json');
    const yaml = serverConfigYaml(issuer).replace(`jwk_cert_url: ${issuer.jwksUrl}`, `jwks_file: ${keys}`);
    expect(yaml).toContain('jwks_file:');
    await writeFile(join(dir, 'server.yaml'), yaml);
    fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: join(dir, 'server.yaml') } });
  }, 30_000);
  afterAll(async () => {
    await fixture?.stop();
    await issuer?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('/readyz 503 names jwks and ENOENT while the file is missing; 200 and tokens verify once it is there', async () => {
    const notReady = await notReadyNaming(fixture.engine.url, 'jwks');
    const jwks = failing(notReady).find((f) => f.dependency === 'jwks')!;
    expect(jwks.reason).toContain(`keys of issuer ${issuer.issuer} cannot be loaded`);
    expect(jwks.reason).toContain(`ENOENT`);
    const token = await issuer.token('reader@example.com');
    expect(
      (await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(503);

    await writeFile(keys, JSON.stringify(issuer.jwks));
    await readyAgain(fixture.engine.url);
    expect(
      (await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);

    // Removed again: its keys are revoked steadily (never a token accepted or /readyz 200 in between).
    await rm(keys);
    await notReadyNaming(fixture.engine.url, 'jwks');
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      seen.push(
        (await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`, { headers: { authorization: `Bearer ${token}` } })).status,
      );
      seen.push((await fetch(`${fixture.engine.url}/readyz`)).status);
      await new Promise((done) => setTimeout(done, 400));
    }
    expect(new Set(seen)).toEqual(new Set([503]));
  }, 30_000);
});

describe('PostgreSQL stopped: /metrics keeps the stuck-deletion gauges and answers 200, /readyz 503 names postgres', () => {
  let postgres: RestartablePostgres | undefined;
  let fixture: EngineFixture;
  let skipReason: string | undefined;

  beforeAll(async () => {
    try {
      postgres = await useThrowAwayPostgres();
    } catch (error) {
      skipReason = `no throw-away PostgreSQL: ${(error as Error).message}`;
      console.warn(`skipped: ${skipReason}`);
      return;
    }
    fixture = await startTestEngine({
      env: { DECOM_EVENT_STORE: 'postgres', DATABASE_URL: postgres.connectionString, DECOM_PG_SCHEMA: await postgres.newSchema() },
    });
    const api = new DemoApi(fixture.engine.url);
    const id = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'pending-during-pg-outage', spec: {} })).body.id as string;
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
  }, 60_000);
  afterAll(async () => {
    await fixture?.stop().catch(() => undefined);
    await postgres?.stop();
  });

  it('while down and after the restart', async () => {
    if (skipReason) return;
    await readyAgain(fixture.engine.url);
    const before = await timed(fixture.engine.metricsUrl);
    expect(before.text).toMatch(/^hyperfleet_api_resource_pending_reconciliation\{resource_type="Cluster",is_delete="true".*\} 1$/m);

    await postgres!.stopServer();
    const notReady = await notReadyNaming(fixture.engine.url, 'postgres');
    expect(notReady.ms).toBeLessThan(100);
    const metrics = await eventually(
      'decom_dependency_up postgres 0',
      async () => {
        const answer = await timed(fixture.engine.metricsUrl);
        return /^decom_dependency_up\{dependency="postgres"\} 0$/m.test(answer.text) ? answer : undefined;
      },
      10_000,
      100,
    );
    expect(metrics.status).toBe(200);
    expect(metrics.ms).toBeLessThan(1_000);
    // Last values served: the deletion pending before the outage is still counted.
    expect(metrics.text).toMatch(/^hyperfleet_api_resource_pending_reconciliation\{resource_type="Cluster",is_delete="true".*\} 1$/m);
    expect(metrics.text).toMatch(/^decom_resources_finalizing\{kind="Cluster"\} 1$/m);
    const next = await timed(fixture.engine.metricsUrl);
    expect(next.status).toBe(200);
    expect(next.text).toMatch(/^decom_scrape_collector_errors_total\{collector="decom_resources_finalizing"\} [1-9]/m);
    // What the other endpoints answer meanwhile (docs/operations.md "During an outage").
    const statuses = await Promise.all(
      ['/healthz', '/api/hyperfleet/v1/clusters', '/api/decom/v1/finalizing'].map(async (path) => [
        path,
        (await fetch(`${fixture.engine.url}${path}`, { signal: AbortSignal.timeout(8_000) })).status,
      ]),
    );
    expect(statuses).toEqual([
      ['/healthz', 200],
      ['/api/hyperfleet/v1/clusters', 503],
      ['/api/decom/v1/finalizing', 503],
    ]);

    await postgres!.startServer();
    await readyAgain(fixture.engine.url);
    await eventually(
      'decom_dependency_up postgres 1',
      async () =>
        (await timed(fixture.engine.metricsUrl)).text.match(/^decom_dependency_up\{dependency="postgres"\} 1$/m) ? true : undefined,
      10_000,
      100,
    );
  }, 60_000);
});

describe('Kubernetes API server stopped: information only, /readyz stays 200, decom_dependency_up kubernetes 0', () => {
  let fixture: EngineFixture;
  beforeAll(async () => {
    fixture = await startTestEngine();
  }, 30_000);
  afterAll(async () => {
    await fixture?.stop();
  });

  it('kubernetes 1 while the bundled server runs, 0 once it stopped; readiness and reads unaffected', async () => {
    await eventually(
      'kubernetes up',
      async () =>
        /^decom_dependency_up\{dependency="kubernetes"\} 1$/m.test((await timed(fixture.engine.metricsUrl)).text) ? true : undefined,
      10_000,
      100,
    );
    await fixture.engine.localKube!.close();
    await eventually(
      'kubernetes down',
      async () =>
        /^decom_dependency_up\{dependency="kubernetes"\} 0$/m.test((await timed(fixture.engine.metricsUrl)).text) ? true : undefined,
      10_000,
      100,
    );
    const ready = await timed(`${fixture.engine.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text).checks.dependencies).toContainEqual(
      expect.objectContaining({ dependency: 'kubernetes', status: 'down', affects_readiness: false }),
    );
    expect((await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`)).status).toBe(200);
    expect(
      (await new DemoApi(fixture.engine.url).call('POST', '/clusters', { kind: 'Cluster', name: 'created-without-kubernetes', spec: {} }))
        .status,
    ).toBe(201);
  }, 30_000);
});
