/**
 * A dependency down at start is waited for, not a reason to exit (an exit under systemd or Kubernetes
 * becomes a crash loop). Real `decom` processes against a private PostgreSQL that is stopped, and a port
 * where a private Redis is not running yet:
 * - the process stays up; `/healthz` 200, `/readyz` 503 naming the dependency, a command 503 problem
 *   details with `Retry-After`; the log says the dependency is down once, not once per retry;
 * - once the dependency answers, everything comes up by itself: `/readyz` 200, a create and a DELETE are
 *   carried out by the adapters (in process, or by a `decom worker` that waited for Redis too);
 * - SIGTERM while waiting exits 0.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startLocalKube, type LocalKube } from '@decom/kube-local';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { freePort } from '../support/free-port.js';
import { useThrowAwayPostgres, type RestartablePostgres } from '../support/postgres.js';
import { useThrowAwayRedisOn, type RedisForTests } from '../support/redis.js';
import { spawnDecom, type DecomProcess } from './support/decom-process.js';

/** Spawning from the TypeScript sources takes a while on a busy machine. */
const SPAWN_MS = 40_000;

describe('decom start, api and worker wait for a dependency that is down at start', () => {
  let folder: string;
  const processes: DecomProcess[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'decom-startwait-'));
  });
  afterEach(async () => {
    for (const child of processes.splice(0)) child.kill('SIGKILL');
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const spawn = (args: string[], env: Record<string, string>) => {
    const child = spawnDecom(args, {
      HOST: '127.0.0.1',
      DECOM_METRICS_PORT: '0',
      DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
      LOG_LEVEL: 'info',
      ...env,
    });
    processes.push(child);
    return child;
  };
  const isAlive = async (child: DecomProcess) =>
    (await Promise.race([child.exited, new Promise((done) => setTimeout(() => done('alive'), 0))])) === 'alive';
  const logLines = (child: DecomProcess, pattern: RegExp) =>
    child
      .output()
      .split('\n')
      .filter((line) => pattern.test(line));
  const command = (url: string) =>
    fetch(`${url}/api/hyperfleet/v1/clusters`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hyperfleet-identity': 'operator@example.com' },
      body: JSON.stringify({ kind: 'Cluster', name: 'while-waiting', spec: {} }),
    });

  /** What every waiting API process answers: alive, 503 naming `dependency`, commands refused with Retry-After. */
  const expectWaiting = async (url: string, dependency: string) => {
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const readyz = await fetch(`${url}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toMatchObject({ status: 'not_ready', checks: { startup: { state: 'waiting', dependency } } });
    const refused = await command(url);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(await refused.json()).toMatchObject({
      status: 503,
      code: 'HYPERFLEET-SVC-001',
      detail: expect.stringContaining(`waiting for ${dependency}`),
    });
    const read = await fetch(`${url}/api/hyperfleet/v1/clusters`);
    expect(read.status).toBe(503);
  };

  /** Creates a cluster, waits until the adapters reconciled it, deletes it and waits for the hard delete. */
  const expectDeletionWorks = async (url: string) => {
    const api = new DemoApi(url);
    const created = await api.call('POST', '/clusters', { kind: 'Cluster', name: `after-wait-${Date.now()}`, spec: {} });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await eventually(
      'the adapters reconciled the cluster',
      async () => {
        const conditions = ((await api.get(`/clusters/${id}`)).body.status?.conditions ?? []) as { type: string; status: string }[];
        return conditions.find((c) => c.type === 'Reconciled')?.status === 'True' || undefined;
      },
      20_000,
      100,
    );
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    await eventually(
      'the cluster is hard-deleted (GET 404)',
      async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined),
      20_000,
      100,
    );
  };

  const readyWithin = (url: string, timeoutMs: number) =>
    eventually(
      'ready',
      async () => ((await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200 ? true : undefined),
      timeoutMs,
      100,
    );

  it('decom start with PostgreSQL stopped: waits, answers 503, then migrates, starts and deletes once the server is up; SIGTERM exits 0', async () => {
    const postgres: RestartablePostgres = await useThrowAwayPostgres();
    cleanups.push(() => postgres.stop());
    const schema = await postgres.newSchema();
    await postgres.stopServer();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const start = spawn(['start'], {
      PORT: String(port),
      DECOM_DATA_DIR: await mkdtemp(join(folder, 'pg-')),
      DECOM_ADAPTERS_DIR: resolve('config/adapters'),
      DECOM_EVENT_STORE: 'postgres',
      DATABASE_URL: postgres.connectionString,
      DECOM_PG_SCHEMA: schema,
    });
    await start.waitFor(/API port \d+: \/healthz answers 200/, SPAWN_MS);
    await expectWaiting(url, 'postgres');
    // Several attempts (0.5 s, 1 s, 2 s apart) go by: still alive, still one line saying it is down.
    await new Promise((done) => setTimeout(done, 4_000));
    expect(await isAlive(start)).toBe(true);
    expect(((await (await fetch(`${url}/readyz`)).json()) as any).checks.startup.attempts).toBeGreaterThanOrEqual(3);
    expect(logLines(start, /unavailable/)).toHaveLength(1);
    expect(logLines(start, /unavailable/)[0]).toContain('PostgreSQL postgres://postgres@127.0.0.1');

    await postgres.startServer();
    await readyWithin(url, 20_000);
    expect(logLines(start, /answered after/)).toHaveLength(1);
    await expectDeletionWorks(url);

    start.kill('SIGTERM');
    expect(await start.exited).toBe(0);
  }, 90_000);

  it('decom api and decom worker with Redis not running: both wait; once Redis is up the API is ready and the worker carries out a DELETE', async () => {
    const redisPort = await freePort();
    const redisUrl = `redis://127.0.0.1:${redisPort}`;
    const kube: LocalKube = await startLocalKube();
    cleanups.push(() => kube.close());
    const kubeconfig = join(folder, 'kubeconfig.yaml');
    await writeFile(kubeconfig, kube.kubeconfigYaml());
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const queueEnv = { REDIS_URL: redisUrl, DECOM_QUEUE_PREFIX: 'decom-startwait' };
    const api = spawn(['api'], { ...queueEnv, PORT: String(port), DECOM_DATA_DIR: await mkdtemp(join(folder, 'redis-')) });
    const workerMetrics = `http://127.0.0.1:${await freePort()}/metrics`;
    const worker = spawn(['worker', '--adapters', 'validation'], {
      ...queueEnv,
      DECOM_METRICS_PORT: new URL(workerMetrics).port,
      DECOM_API_URL: url,
      KUBECONFIG: kubeconfig,
      DECOM_ADAPTERS_DIR: resolve('config/adapters'),
    });
    await api.waitFor(/API port \d+: \/healthz answers 200/, SPAWN_MS);
    await worker.waitFor(/Redis at redis:\/\/127\.0\.0\.1:\d+ unavailable/, SPAWN_MS);
    await expectWaiting(url, 'redis');
    await new Promise((done) => setTimeout(done, 3_000));
    for (const child of [api, worker]) {
      expect(await isAlive(child)).toBe(true);
      expect(logLines(child, /unavailable/)).toHaveLength(1);
    }
    expect(worker.output()).not.toContain('worker ready');
    // The waiting worker says so on its metrics too (the gauge alerts fire on).
    expect(await (await fetch(workerMetrics)).text()).toMatch(/^decom_dependency_up\{dependency="redis"\} 0$/m);
    // ...and on its /healthz (alive: no restart) and /readyz (not ready, naming Redis) on the same port.
    const workerPort = new URL(workerMetrics).origin;
    expect((await fetch(`${workerPort}/healthz`)).status).toBe(200);
    const waiting = await fetch(`${workerPort}/readyz`);
    expect(waiting.status).toBe(503);
    expect(await waiting.json()).toMatchObject({
      status: 'not_ready',
      failing: [expect.objectContaining({ dependency: 'redis' })],
      checks: { startup: { state: 'starting', reason: 'waiting for Redis (the job queue)' }, adapters: [] },
    });

    const redis: RedisForTests = await useThrowAwayRedisOn(redisPort);
    cleanups.push(() => redis.stop());
    await readyWithin(url, 20_000);
    await worker.waitFor(/worker ready: validation/, 20_000);
    for (const child of [api, worker]) expect(logLines(child, /Redis at .* back after/)).toHaveLength(1);
    let up = '';
    for (let i = 0; i < 50 && !/^decom_dependency_up\{dependency="redis"\} 1$/m.test(up); i++) {
      up = await (await fetch(workerMetrics)).text();
      if (!/^decom_dependency_up\{dependency="redis"\} 1$/m.test(up)) await new Promise((done) => setTimeout(done, 100));
    }
    expect(up).toMatch(/^decom_dependency_up\{dependency="redis"\} 1$/m);
    const ready = await fetch(`${workerPort}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      failing: [],
      checks: { startup: { state: 'done' }, adapters: ['validation'] },
    });
    await expectDeletionWorks(url);

    for (const child of [worker, api]) {
      child.kill('SIGTERM');
      expect(await child.exited).toBe(0);
    }
  }, 90_000);

  it('SIGTERM while waiting for a server that never answers exits 0 (api on PostgreSQL, worker on Redis)', async () => {
    const kube: LocalKube = await startLocalKube();
    cleanups.push(() => kube.close());
    const kubeconfig = join(folder, 'kubeconfig-never.yaml');
    await writeFile(kubeconfig, kube.kubeconfigYaml());
    const port = await freePort();
    const api = spawn(['api'], {
      PORT: String(port),
      DECOM_DATA_DIR: await mkdtemp(join(folder, 'never-')),
      DECOM_EVENT_STORE: 'postgres',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/decom`,
    });
    const worker = spawn(['worker'], {
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      KUBECONFIG: kubeconfig,
      DECOM_ADAPTERS_DIR: resolve('config/adapters'),
    });
    await api.waitFor(/API port \d+: \/healthz answers 200/, SPAWN_MS);
    await worker.waitFor(/unavailable/, SPAWN_MS);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    for (const child of [api, worker]) {
      child.kill('SIGTERM');
      expect(await child.exited).toBe(0);
      expect(child.output()).toMatch(/stopped while waiting for (postgres|redis)/);
    }
  }, 60_000);

  it('SIGTERM of a running decom start whose Redis went away exits within its stop grace, releasing the data folder', async () => {
    const redisPort = await freePort();
    const redis: RedisForTests = await useThrowAwayRedisOn(redisPort);
    cleanups.push(() => redis.stop());
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = await mkdtemp(join(folder, 'gone-'));
    const engine = spawn(['start'], {
      PORT: String(port),
      DECOM_DATA_DIR: dataDir,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      DECOM_QUEUE_PREFIX: 'decom-stopgrace',
    });
    await readyWithin(url, SPAWN_MS);
    await redis.stop();
    await eventually(
      'readyz says Redis is down',
      async () => ((await fetch(`${url}/readyz`)).status === 503 ? true : undefined),
      10_000,
      100,
    );
    const stopped = Date.now();
    engine.kill('SIGTERM');
    expect([0, 1]).toContain(await engine.exited);
    // The stop grace is 10 s; a hang would run into this test's timeout instead.
    expect(Date.now() - stopped).toBeLessThan(20_000);
    // The folder is free again: a new engine on it starts (and waits for Redis rather than refusing the lock).
    const again = spawn(['start'], {
      PORT: String(await freePort()),
      DECOM_DATA_DIR: dataDir,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      DECOM_QUEUE_PREFIX: 'decom-stopgrace',
    });
    await again.waitFor(/Redis at redis:\/\/127\.0\.0\.1:\d+ unavailable/, SPAWN_MS);
    expect(again.output()).not.toMatch(/in use by another running Decom engine/);
  }, 90_000);
});
