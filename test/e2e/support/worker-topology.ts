import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startLocalKube, type LocalKube } from '@decom/kube-local';
import { dropRedisPrefix, useRedis, type RedisForTests } from '../../support/redis.js';
import { startTestEngine, type EngineFixture } from '../engine-fixture.js';
import type { DecomProcess } from './decom-process.js';

/**
 * `decom api` in this process (BullMQ on Redis, no rule sweeps: only the queue's own hand-over moves work)
 * plus the environment for real `decom worker` children: one Redis (REDIS_URL or a throw-away one, keys under
 * `prefix`), the bundled Kubernetes API server through a kubeconfig file, the shipped adapters and kinds.
 */
export interface WorkerTopology {
  readonly redis: RedisForTests;
  readonly kube: LocalKube;
  readonly fixture: EngineFixture;
  /** Environment for `spawnDecom(['worker', ...], workerEnv)`. */
  readonly workerEnv: Record<string, string>;
  /** Worker processes to kill (SIGCONT first, in case one is stopped) when the topology stops. */
  readonly workers: DecomProcess[];
  stop(): Promise<void>;
}

/** @param lockMs `DECOM_JOB_LOCK_MS`: how long a killed or frozen worker's job stays locked. */
export async function startWorkerTopology(options: { prefix: string; lockMs: number }): Promise<WorkerTopology> {
  const redis = await useRedis();
  const kube = await startLocalKube();
  const folder = await mkdtemp(join(tmpdir(), 'decom-workers-'));
  await writeFile(join(folder, 'kubeconfig.yaml'), kube.kubeconfigYaml());
  const queueEnv = { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: options.prefix, DECOM_JOB_LOCK_MS: String(options.lockMs) };
  const fixture = await startTestEngine({ role: 'api', env: queueEnv, sweep: { intervalMs: 60_000, debounceMs: 600_000 } });
  const workers: DecomProcess[] = [];
  return {
    redis,
    kube,
    fixture,
    workers,
    workerEnv: {
      ...queueEnv,
      DECOM_API_URL: fixture.engine.url,
      KUBECONFIG: join(folder, 'kubeconfig.yaml'),
      DECOM_ADAPTERS_DIR: resolve('config/adapters'),
      DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
      LOG_LEVEL: 'info',
      // Several workers on one host: each its own free metrics port.
      DECOM_METRICS_PORT: '0',
    },
    async stop() {
      for (const worker of workers) {
        worker.kill('SIGCONT');
        worker.kill('SIGKILL');
      }
      await Promise.all(workers.map((w) => w.exited));
      await fixture.stop();
      await kube.close();
      // REDIS_URL may be a shared server: leave it without this topology's keys.
      await dropRedisPrefix(redis.url, options.prefix);
      await redis.stop();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
