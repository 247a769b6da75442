/**
 * The leak side of the engine: the leak scanner over the adapters' Kubernetes kinds, the
 * leak-inventory reactor, and the periodic scan with its count (`decom_leaked_objects`, on the process's
 * metrics registry; also `last_scan` of `GET /api/decom/v1/leaks`). Runs where this process has Kubernetes.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import type { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import { KubernetesTransport, loadTaskConfigFile, managedKinds } from '@decom/adapter';
import type { AppConfig } from '@decom/config';
import type { KindRegistry } from '@decom/domain';
import type { EventStore, Supervisor } from '@decom/event-store';
import { ReactorRunner, type CheckpointStore } from '@decom/jobs';
import type { DecomMetrics } from '@decom/metrics';
import type { ResourceQueries } from '@decom/projections';
import { LeakInventoryReactor } from '../leaks/leak-inventory.reactor.js';
import { LeakScanner, type LeakScannerSlot, type OwnerState } from '../leaks/leak-scanner.js';

export interface LeakWorkDeps {
  readonly config: AppConfig;
  readonly kinds: KindRegistry;
  readonly kubeConfig: KubeConfig;
  readonly queries: ResourceQueries;
  readonly store: EventStore;
  readonly checkpoints: CheckpointStore;
  readonly slot: LeakScannerSlot;
  readonly commandBus: CommandBus;
  readonly metrics: DecomMetrics;
  readonly logger: Logger;
  /**
   * Wraps a long-running loop in the process's supervisor (`EngineLoops`, engine-loops.ts): a failure (PostgreSQL outage, …)
   * restarts it from its checkpoint with backoff, and `/readyz` lists it.
   */
  readonly supervise: (name: string, loop: { start(): Promise<void>; stop(): Promise<void> }) => Supervisor;
}

/** What `startLeakWork` started: the inventory loop's supervisor (for `/readyz`) and what stops everything. */
export interface LeakWork {
  /** Supervisor of the `leak-inventory` reactor. */
  readonly inventory: Supervisor;
  /** Last `$all` position the inventory reactor handled (its lag in `/readyz`). */
  position(): number;
  stop(): Promise<void>;
}

/**
 * Fills `slot`, starts the inventory reactor (supervised: a store error restarts it from its checkpoint)
 * and the periodic scan (a failed scan is logged and the next tick tries again).
 * @throws the reactor's start error when it is not transient (a transient one is retried by the supervisor).
 */
export async function startLeakWork(deps: LeakWorkDeps): Promise<LeakWork> {
  const { config, logger } = deps;
  const files = (await readdir(config.adaptersDir)).filter((f) => /\.ya?ml$/.test(f) && !/\.adapter\.ya?ml$/.test(f)).sort();
  const tasks = await Promise.all(files.map((f) => loadTaskConfigFile(join(config.adaptersDir, f))));
  const kinds = managedKinds(tasks);
  // resource_index keeps every id ever created here (also after hard delete): an id it lacks is not ours.
  const ownerState = async (id: string): Promise<OwnerState> =>
    (await deps.queries.get(id)) ? 'live' : (await deps.queries.locate(id)) ? 'gone' : 'unknown';
  const scanner = new LeakScanner(new KubernetesTransport(deps.kubeConfig), kinds, ownerState);
  deps.slot.current = scanner;

  let supervisor: Supervisor | undefined;
  const runner = new ReactorRunner(
    deps.store,
    deps.checkpoints,
    new LeakInventoryReactor(deps.kinds, deps.slot, deps.commandBus),
    (error) => supervisor?.fail(error),
  );
  const inventory = deps.supervise('leak-inventory', runner);
  supervisor = inventory;
  await inventory.start();

  const gauge = new Gauge({
    name: 'decom_leaked_objects',
    help: 'Objects in the managed cluster whose Decom owner marker names a resource that no longer exists, at the last leak scan.',
    registers: [deps.metrics.registry],
  });
  let timer: NodeJS.Timeout | undefined;
  if (config.leakScanIntervalMs > 0) {
    timer = setInterval(() => {
      scanner
        .scan()
        .then((leaks) => {
          gauge.set(leaks.length);
          if (leaks.length > 0)
            logger.warn(
              { leaked_objects: leaks.length },
              `leak scan: ${leaks.length} object(s) whose owner no longer exists (GET /api/decom/v1/leaks, decom leaks)`,
            );
        })
        .catch((error) => logger.warn({ err: error }, 'leak scan failed'));
    }, config.leakScanIntervalMs);
    timer.unref();
  }
  logger.info(
    `leaks: scanning ${kinds.map((k) => k.kind).join(', ') || '(no kinds)'}${config.leakScanIntervalMs > 0 ? ` every ${config.leakScanIntervalMs} ms` : ' on request'}`,
  );
  return {
    inventory,
    position: () => runner.checkpoint(),
    async stop() {
      if (timer) clearInterval(timer);
      deps.slot.current = undefined;
      await inventory.stop();
    },
  };
}
