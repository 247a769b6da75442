/**
 * Boots a real embedded engine for e2e tests: fresh SQLite file in a temp folder, random port, the
 * bundled local Kubernetes server, and the adapters of `adaptersDir` (none by default, so a test can
 * play the adapters itself over HTTP).
 */
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino, { type Logger } from 'pino';
import { loadAppConfig } from '@decom/config';
import { REALISTIC_CONTROLLER_DELAY_MS } from '@decom/kube-local';
import { startEngine, type Engine, type EngineOptions } from '../../apps/cli/src/engine/engine.js';

export interface EngineFixture {
  readonly engine: Engine;
  readonly dataDir: string;
  stop(): Promise<void>;
}

/**
 * `logger`: where the engine logs (default silent; a test may capture the access and transition lines).
 * `env`: extra configuration variables, e.g. `{ DECOM_EVENT_STORE: 'postgres', DATABASE_URL, DECOM_PG_SCHEMA }`
 * or `{ REDIS_URL, DECOM_QUEUE_PREFIX }` for BullMQ. `role`, `sweep`, `queueTuning`, `adapterRerun` (default 50 ms
 * doubling to 1 s), `onAdapterRun`, `onWatchTrigger`, `localKube` (the bundled server's options; default: controllers
 * delayed 50-300 ms per pass, `REALISTIC_CONTROLLER_DELAY_MS`): as `EngineOptions`.
 */
export async function startTestEngine(
  options: { adaptersDir?: string; admins?: string; env?: Record<string, string>; logger?: Logger; dataDir?: string } & Pick<
    EngineOptions,
    'role' | 'sweep' | 'queueTuning' | 'adapterRerun' | 'onAdapterRun' | 'onWatchTrigger' | 'localKube' | 'apiClock'
  > = {},
): Promise<EngineFixture> {
  // A given `dataDir` (a restart on the same data) belongs to the caller: `stop()` leaves it in place.
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'decom-e2e-')));
  const emptyAdapters = join(dataDir, 'no-adapters');
  await mkdir(emptyAdapters, { recursive: true });
  const config = {
    ...loadAppConfig(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        DECOM_DATA_DIR: dataDir,
        DECOM_ADAPTERS_DIR: options.adaptersDir ?? emptyAdapters,
        DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
        ...(options.admins ? { DECOM_ADMINS: options.admins } : {}),
        ...options.env,
      },
      process.cwd(),
    ),
    logLevel: 'silent' as const,
  };
  const engine = await startEngine({
    config,
    logger: options.logger ?? pino({ level: 'silent' }),
    adapterRerun: options.adapterRerun ?? { baseDelayMs: 50, maxDelayMs: 1_000 },
    ...(options.onAdapterRun ? { onAdapterRun: options.onAdapterRun } : {}),
    ...(options.onWatchTrigger ? { onWatchTrigger: options.onWatchTrigger } : {}),
    sweep: options.sweep ?? { intervalMs: 2_000, debounceMs: 1_000 },
    ...(options.role ? { role: options.role } : {}),
    ...(options.queueTuning ? { queueTuning: options.queueTuning } : {}),
    ...(options.apiClock && { apiClock: options.apiClock }),
    // The bundled server's controllers (garbage collector, namespace controller) take 50-300 ms per pass, as a real
    // cluster's take time: every suite goes through the wait and re-run paths. A suite may set its own.
    localKube: { controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS, ...options.localKube },
  });
  return {
    engine,
    dataDir,
    async stop() {
      await engine.close();
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
