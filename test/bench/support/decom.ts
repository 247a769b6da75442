/**
 * Starts the shipped CLI (`node bin/decom.js start|api|worker`, the compiled build) as a bench child, with
 * the configuration variables of README "Configuration": a fresh data folder (SQLite), a free API port,
 * metrics on any free port, the access log on (LOG_LEVEL=info, to the child's log file).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../../support/free-port.js';
import { repoRoot, spawnNode, waitForHttp, type BenchChild } from './child.js';

export interface DecomChild extends BenchChild {
  /** `http://127.0.0.1:<port>` (start and api). */
  readonly url: string;
  readonly dataDir: string;
}

export interface DecomStartOptions {
  readonly label: string;
  /** Folder for data, logs and profiles. */
  readonly dir: string;
  /** Variables beyond the defaults below (they win). */
  readonly env?: Record<string, string>;
  readonly profile?: boolean;
  /** The data folder (default `<dir>/data`); a restart passes the same one. */
  readonly dataDir?: string;
  /** The API port (default: a free one), e.g. picked early so workers can start alongside. */
  readonly port?: number;
}

/** The shipped adapters and kinds, a folder with no adapters for the API-only scenarios. */
export const shippedConfig = {
  DECOM_ADAPTERS_DIR: join(repoRoot, 'config/adapters'),
  DECOM_ENTITIES_FILE: join(repoRoot, 'config/entities.yaml'),
  DECOM_SENTINEL_FILE: join(repoRoot, 'config/sentinel.yaml'),
} as const;

/**
 * `decom start` (role all) or `decom api`: resolves once `/readyz` answers 200.
 * @throws Error with the child's log when it exits or is not ready within 90 s.
 */
export async function startDecom(command: 'start' | 'api', options: DecomStartOptions): Promise<DecomChild> {
  const dataDir = options.dataDir ?? join(options.dir, 'data');
  await mkdir(dataDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const child = spawnNode(['bin/decom.js', command], {
    label: options.label,
    dir: options.dir,
    profile: options.profile ?? false,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DECOM_DATA_DIR: dataDir,
      DECOM_METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      ...shippedConfig,
      ...options.env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(child, `${url}/readyz`);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { ...child, url, dataDir };
}

/** `decom worker` processes: resolves once each logged `worker ready`. */
export async function startWorkers(
  count: number,
  options: { dir: string; env: Record<string, string>; profile?: boolean; label?: string },
): Promise<BenchChild[]> {
  const workers = Array.from({ length: count }, (_, i) =>
    spawnNode(['bin/decom.js', 'worker'], {
      label: `${options.label ?? 'decom worker'} ${i + 1}`,
      dir: options.dir,
      profile: options.profile ?? false,
      env: { LOG_LEVEL: 'info', DECOM_METRICS_PORT: '0', ...shippedConfig, ...options.env },
    }),
  );
  try {
    await Promise.all(workers.map((w) => w.waitForLog(/worker ready/)));
  } catch (error) {
    await Promise.all(workers.map((w) => w.stop()));
    throw error;
  }
  return workers;
}
