/**
 * `/readyz` of `decom worker` (docs/operations.md "Readiness"), answered on its metrics port from cached
 * state only. Ready once the worker took its queues and loaded its adapters (`worker ready` in the log)
 * and Redis answered its last probe with `maxmemory-policy noeviction`; Kubernetes is information only, as
 * for the API process (`@decom/api`'s readiness.ts): a cluster that is down is the adapters' work to wait out, and restarting
 * the worker would not bring it back. The body's `failing[]` names each dependency with reason and since,
 * and `startup` says what the worker is still doing (waiting for Redis, loading adapters).
 */
import type { HealthReport } from '@decom/metrics';
import type { ProbeResult } from '@decom/health';

export interface WorkerReadinessSources {
  /** The last probe results (`DependencyProbes.results()`); none before the probes start. */
  dependencies(): readonly ProbeResult[];
  /** What the start is still doing, or undefined once the worker serves its queues. */
  startup(): string | undefined;
  /** The adapters the worker runs (empty before they are loaded). */
  adapters(): readonly string[];
}

/** The readiness report now (synchronous: no I/O). */
export function workerReadiness(sources: WorkerReadinessSources): HealthReport {
  const dependencies = sources.dependencies();
  const starting = sources.startup();
  const failing = dependencies
    .filter((d) => d.affects_readiness && d.status !== 'up')
    .map((d) => ({ dependency: d.dependency, status: d.status, reason: d.reason ?? d.status, since: d.since }));
  const probedRedis = dependencies.some((d) => d.dependency === 'redis');
  const ready = starting === undefined && failing.length === 0 && probedRedis;
  return {
    ready,
    body: {
      status: ready ? 'ready' : 'not_ready',
      failing,
      checks: {
        startup: starting === undefined ? { state: 'done' } : { state: 'starting', reason: starting },
        dependencies,
        adapters: sources.adapters(),
      },
    },
  };
}
