/**
 * The work an API process runs beside its routes, each started after the API listens: dispatch (events →
 * adapter jobs), the sweeper (Sentinel's rules; its first pass recovers jobs an in-process queue lost in a
 * crash), dead-letter pruning and, where this process reaches Kubernetes, the leak inventory.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import type { KindRegistry } from '@decom/domain';
import { describeError, isTransientError, type EventStore } from '@decom/event-store';
import type { ReadModelStore, ResourceQueries } from '@decom/projections';
import type { DecomMetrics } from '@decom/metrics';
import {
  DeadLetterPruner,
  DispatchReactor,
  ReactorRunner,
  ResourceAddressBook,
  Sweeper,
  type JobQueue,
  type SentinelRules,
} from '@decom/jobs';
import { OutageLog, prunedDeadLetterReporter, type Closers } from '@decom/runtime';
import type { LeakScannerSlot } from '../leaks/leak-scanner.js';
import { resourceProgressOf } from './resource-progress.js';
import { ReadModelCheckpoints } from './read-model-checkpoints.js';
import { startLeakWork } from './leak-work.js';
import type { EngineLoops } from './engine-loops.js';
import type { EngineReadSide } from './read-side.js';
import type { StartedAfterListen } from './started-after-listen.js';

interface BackgroundParts {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly metrics: DecomMetrics;
  readonly kinds: KindRegistry;
  readonly store: EventStore;
  readonly readModels: ReadModelStore;
  readonly queries: ResourceQueries;
  readonly queue: JobQueue;
  readonly loops: EngineLoops;
  readonly later: StartedAfterListen;
  readonly closers: Closers;
}

/** Leak inventory and scans, supervised; listed in `/readyz` after dispatch. */
export async function startLeakInventory(
  parts: BackgroundParts & { kubeConfig: KubeConfig; slot: LeakScannerSlot; commandBus: CommandBus },
): Promise<void> {
  const leakWork = await startLeakWork({
    config: parts.config,
    kinds: parts.kinds,
    kubeConfig: parts.kubeConfig,
    queries: parts.queries,
    store: parts.store,
    checkpoints: new ReadModelCheckpoints(parts.readModels),
    slot: parts.slot,
    commandBus: parts.commandBus,
    metrics: parts.metrics,
    logger: parts.logger,
    supervise: (name, loop) => parts.loops.supervise(name, loop),
  });
  parts.closers.add(() => leakWork.stop());
  parts.later.extraLoops.push({ status: () => leakWork.inventory.status(), position: () => leakWork.position() });
}

/**
 * Dispatch: turns events into adapter jobs once the projections applied them. With an in-process queue only
 * the adapters hosted here can be dispatched to; the others report over HTTP (a warning per kind says so).
 */
export async function startDispatch(
  parts: BackgroundParts & { readSide: EngineReadSide; isDispatchable: (adapter: string) => boolean },
): Promise<ReactorRunner> {
  const addresses = new ResourceAddressBook(parts.kinds, parts.queries);
  const projections = parts.readSide.projections;
  const dispatch: ReactorRunner = new ReactorRunner(
    parts.store,
    new ReadModelCheckpoints(parts.readModels),
    new DispatchReactor(parts.kinds, parts.queue, addresses, (position) => projections.waitFor(position), parts.isDispatchable),
    (error) => parts.later.dispatch?.supervisor.fail(error),
  );
  const supervisor = parts.loops.supervise('dispatch', dispatch);
  parts.later.dispatch = { supervisor, checkpoint: () => dispatch.checkpoint() };
  await supervisor.start();
  parts.closers.add(() => supervisor.stop());
  return dispatch;
}

/**
 * The sweeper and the dead-letter pruner, at the sweep interval. A sweep fails on every tick while a dependency
 * is down: one line when lost, one when back.
 */
export async function startSweeping(
  parts: BackgroundParts & { rules: SentinelRules; intervalMs: number; isDispatchable: (adapter: string) => boolean },
): Promise<{ sweeper: Sweeper; deadLetterPruner: DeadLetterPruner }> {
  const { logger, closers } = parts;
  const sweepOutage = new OutageLog('sweeper: read models', logger);
  const sweeper = new Sweeper(
    parts.kinds,
    parts.queue,
    // The same JSON Sentinel reads from the API's list endpoints.
    parts.queries,
    parts.rules,
    { intervalMs: parts.intervalMs },
    Date.now,
    (error) => (isTransientError(error) ? sweepOutage.lost(error) : logger.warn(`sweep: ${describeError(error)}`)),
    parts.isDispatchable,
    () => sweepOutage.back(),
  );
  parts.later.sweeper = sweeper;
  // The first sweep is a recovery sweep: the in-process queue lost its jobs if this process crashed.
  const recovered = await sweeper.sweepOnce();
  if (recovered > 0) logger.info(`recovery sweep re-dispatched ${recovered} job(s)`);
  sweeper.start();
  closers.add(() => sweeper.stop());

  // Dead letters of work a sweep (or a later run) finished: removed at the sweep's pace, one info line each.
  const deadLetterPruner = new DeadLetterPruner(parts.queue, resourceProgressOf(parts.queries), {
    intervalMs: parts.intervalMs,
    onPruned: prunedDeadLetterReporter(logger, parts.metrics),
    onError: (error) => (isTransientError(error) ? sweepOutage.lost(error) : logger.warn(`dead-letter pruning: ${describeError(error)}`)),
  });
  deadLetterPruner.start();
  closers.add(() => deadLetterPruner.stop());
  return { sweeper, deadLetterPruner };
}
