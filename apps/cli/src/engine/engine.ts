/**
 * The composition root of one Decom process. Roles:
 * - `all` (`decom start`): API + projections + dispatch + sweeper + hard-delete + adapter runs. Embedded
 *   profile: SQLite, in-process jobs, bundled Kubernetes API server unless KUBECONFIG is set.
 * - `api` (`decom api`): the same without adapter runs; `decom worker` processes run them (BullMQ).
 * The queue is BullMQ when `REDIS_URL` is set (job-queue-factory.ts). Several API processes may share one
 * Redis and one PostgreSQL store: dispatch and sweep job ids are deterministic, so duplicates collapse.
 * Everything is built here and handed to the modules that use it; nothing else picks a backend.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import { ConfigError, loadEntitiesConfig } from '@decom/config';
import { KindRegistry } from '@decom/domain';
import { Supervisor, describeError, isTransientError, type EventStore, type LoopState, type LoopStatus } from '@decom/event-store';
import { ProjectionRunner, ResourceQueries, auditEntries, pendingWork } from '@decom/projections';
import { createProjections } from './rebuild-projections.js';
import type { DecomMetrics } from '@decom/metrics';
import { domainTransitionObserver, startOtlpExport, createApiApp, registerHardDeleteProcessor, LeakScannerSlot, openStartupGate, type StartupGate } from '@decom/api';
import { adapterRunMetrics, countRetries, prunedDeadLetterReporter, startProcessMetrics } from './observability.js';
import { resourceProgressOf } from './resource-progress.js';
import { buildInfo } from '../build-info.js';
import {
  DispatchReactor,
  ReactorRunner,
  DeadLetterPruner,
  ResourceAddressBook,
  QueueConsumers,
  Sweeper,
  compileMessageDecision,
  loadSentinelConfig,
  sentinelDefaultDecision,
  sentinelRules,
  type JobQueue,
  type SentinelRules,
} from '@decom/jobs';
import { startLocalKube, type LocalKube, type LocalKubeOptions } from '@decom/kube-local';
import { startLeakWork } from './leak-work.js';
import { type HostedAdapter, type WatchTriggerObserver, type AdapterRunObserver, startAdapterWorker, checkAdapterConfigs } from '@decom/worker';
import { inProcessFetch, type WatchStatus } from '@decom/adapter';
import { ReadModelCheckpoints } from './read-model-checkpoints.js';
import { NestPinoLogger } from './nest-pino-logger.js';
import { bundledKubeconfigPath } from './bundled-kubeconfig.js';
import { openStorage, StorageUnavailable } from './storage.js';
import { retryUntilAvailable, type StartWait } from './dependency-wait.js';
import { StartupState } from '@decom/health';
import { OutageLog } from './outage-log.js';
import { readinessReport } from './readiness.js';
import { engineProbes } from './engine-probes.js';
import { kubernetesRecovery } from './kubernetes-recovery.js';

/** @throws ConfigError naming KUBECONFIG when the file cannot be read as a kubeconfig. Undefined path → empty config. */
function loadKubeConfig(path: string | undefined): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (!path) return kubeConfig;
  try {
    kubeConfig.loadFromFile(path);
  } catch (error) {
    throw new ConfigError('KUBECONFIG', `cannot read ${path} as a kubeconfig: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
  }
  if (!kubeConfig.getCurrentCluster()) throw new ConfigError('KUBECONFIG', `${path} names no current cluster`);
  return kubeConfig;
}
import { openJobQueue, type QueueTuning } from './job-queue-factory.js';
import { buildEngineAuth } from './api-auth.js';

export type EngineRole = 'all' | 'api';

/**
 * Requests and changes the bundled Kubernetes server keeps for looking back (`localKube.requests`/`changes`,
 * the demo's timeline): bounded, so a long-running embedded engine does not grow. 5,000 covers
 * the demo (a few hundred) many times over; at 20,000 the request log alone held 11 MB of a 120 MB heap once
 * 300 clusters had come and gone (heap snapshot, its dominator tree), and the live heap is what V8 sizes
 * its growth by (heap-growth.ts).
 */
const BUNDLED_KUBE_HISTORY = 5_000;

export interface EngineOptions {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** `all` (default): API and adapter runs; `api`: no adapter runs (workers elsewhere). */
  readonly role?: EngineRole;
  /** Delays of adapter re-runs while work is in progress (default 250 ms doubling to 15 s). */
  readonly adapterRerun?: { baseDelayMs: number; maxDelayMs: number };
  /**
   * Sweeper overrides (tests, demo): `intervalMs` instead of `DECOM_SWEEP_INTERVAL_MS`; `debounceMs`
   * replaces every kind's rule by Sentinel's default rule with this debounce.
   */
  readonly sweep?: { intervalMs?: number; debounceMs?: number };
  /** BullMQ knobs for tests and benchmarks. */
  readonly queueTuning?: QueueTuning;
  /** Options of the bundled local Kubernetes API server (benchmarks batch its controller passes). */
  readonly localKube?: LocalKubeOptions;
  readonly onAdapterRun?: AdapterRunObserver;
  /**
   * Watch the objects the adapters manage and run an adapter as soon as one changes (default
   * true). False: re-runs by backoff only (benchmarks compare both).
   */
  readonly adapterWatch?: boolean;
  /**
   * How the adapters this process hosts call its API: `in-process` (default) through the API's request pipeline
   * without a socket (`inProcessFetch`), or `http` over loopback as an adapter elsewhere does (benchmarks
   * compare both; `decom worker` always uses HTTP).
   */
  readonly adapterApiTransport?: 'in-process' | 'http';
  /** Called for each run a watch change enqueued (tests). */
  readonly onWatchTrigger?: WatchTriggerObserver;
  /** Access log and request metrics on the API (default true; the benchmark measures their cost with false). */
  readonly requestObservability?: boolean;
  /**
   * Stops a start that waits for PostgreSQL, EventStoreDB or Redis (SIGINT/SIGTERM): `startEngine` then
   * rejects with `StartAborted` after closing what it opened.
   */
  readonly abort?: AbortSignal;
}

export interface Engine {
  /** Base URL of the API, e.g. http://127.0.0.1:8000. */
  readonly url: string;
  readonly store: EventStore;
  readonly queue: JobQueue;
  readonly queries: ResourceQueries;
  readonly kinds: KindRegistry;
  readonly adapters: readonly HostedAdapter[];
  /** The bundled Kubernetes API server, when no KUBECONFIG was given. */
  readonly localKube?: LocalKube;
  readonly app: NestFastifyApplication;
  readonly sweeper: Sweeper;
  /** Removes dead letters whose work is done, every sweep interval (dead-letter-pruner.ts). */
  readonly deadLetterPruner: DeadLetterPruner;
  /** This process's metrics, served at `metricsUrl` (DECOM_METRICS_PORT). */
  readonly metrics: DecomMetrics;
  /** e.g. http://127.0.0.1:9090/metrics. */
  readonly metricsUrl: string;
  /** Resolves when projections and dispatch caught up with the log and no job is waiting or running. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function startEngine(options: EngineOptions): Promise<Engine> {
  const { config, logger } = options;
  const role = options.role ?? 'all';
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) {
      try {
        await closer();
      } catch (error) {
        logger.warn({ err: error }, 'error while stopping');
      }
    }
  };
  try {
    const kinds = new KindRegistry(await loadEntitiesConfig(config.entitiesFile));
    const { auth, embedded, verifier, summary: authSummary } = await buildEngineAuth(config, logger, { hostsAdapters: role === 'all' });
    // Everything a user can get wrong in files is checked before a port opens or a store is touched.
    const kubeConfig = role === 'all' ? loadKubeConfig(config.kubeconfig) : undefined;
    if (role === 'all') await checkAdapterConfigs(config.adaptersDir, undefined, config.adapterEnv, config.apiBaseUrl);
    // The Sentinel file is checked against the kinds file now, not when the sweeper starts after listening.
    const rules = await sweepRules(config, kinds, options.sweep?.debounceMs);
    // The metrics port opens first: a clash is named before any store is touched.
    const processMetrics = await startProcessMetrics(config, 'api');
    closers.push(() => processMetrics.close());
    const { metrics } = processMetrics;
    // A store or Redis down at start is waited for, not a reason to exit (a supervisor would restart the
    // process in a loop): the API port answers meanwhile through the start-up gate, opened at the first
    // failed attempt, and the API takes the port over once everything it needs answers.
    const startup = new StartupState();
    let gate: StartupGate | undefined;
    const startWait: StartWait = {
      logger,
      state: startup,
      ...(options.abort ? { signal: options.abort } : {}),
      onWaiting: async () => {
        if (gate) return;
        gate = await openGate(startup, config);
        closers.push(() => gate!.close());
        logger.info(`API port ${gate.port}: /healthz answers 200, /readyz and every other route 503 (Retry-After) until the dependencies answer`);
      },
    };
    const storage = await retryUntilAvailable(
      () => openStorage(config),
      (error) => (error instanceof StorageUnavailable ? { dependency: error.dependency, label: error.label } : undefined),
      startWait,
    );
    closers.push(() => storage.close());
    const { store, readModels } = storage;
    const queries = new ResourceQueries(readModels, kinds);
    logger.info(`event store: ${storage.description}`);

    // Every long-running loop is supervised: a failure restarts it from its checkpoint with a
    // capped jittered backoff; state changes are logged once and reported by /readyz.
    const storeOutage = new OutageLog(storage.description.split(',')[0]!.replace(/ \(.*$/, ''), logger);
    const supervisors: Supervisor[] = [];
    const onStateChange = (status: LoopStatus, previous: LoopState) => {
      if (status.state === 'recovering' || status.state === 'failing') {
        if (status.state === 'recovering') storeOutage.lost(new Error(status.error ?? 'connection lost'));
        logger.warn(`${status.name} ${status.state === 'recovering' ? 'recovering' : 'failing, retrying'}: ${status.error ?? ''}`);
      } else if (status.state === 'running' && (previous === 'recovering' || previous === 'failing')) {
        logger.info(`${status.name} running again (restarts: ${status.restarts})`);
        if (supervisors.every((supervisor) => supervisor.state === 'running')) storeOutage.back();
      }
    };
    const supervise = (name: string, loop: { start(): Promise<void>; stop(): Promise<void> }) => {
      const supervisor = new Supervisor(name, loop, { onStateChange });
      supervisors.push(supervisor);
      return supervisor;
    };
    // The head seen now: until the read models have applied it, they are catching up with a backlog (a
    // restart behind the log). Commands still run meanwhile: each decides from its tree's stream in the event
    // store, not from a read model; the few reads a decision needs exact (the delete guard's referrers and the
    // deletion budget, `references` targets, a child's stream) wait for the read models to reach the head seen
    // when they ask (`catchUp`, bounded: 503 past it), and a command's answer comes from the decided state
    // without waiting for the backlog (`catchingUp`): a restart 20,000 events behind accepts writes as soon as
    // it listens instead of after the whole replay (~11 s on PostgreSQL).
    const startHead = await store.headPosition();
    let projectionsSupervisor: Supervisor | undefined;
    const projections = new ProjectionRunner(store, readModels, createProjections(kinds), {
      onError: (error: unknown) => projectionsSupervisor?.fail(error),
      onSchemaChange: (names) => logger.info(`read-model schema changed (${names.join(', ')}): replaying the event log into them`),
    });
    projectionsSupervisor = supervise('projections', projections);
    await projectionsSupervisor.start();
    closers.push(() => projectionsSupervisor!.stop());
    let hasCaughtUp = false;
    const catchingUp = (): boolean => !(hasCaughtUp ||= projections.appliedPosition() >= startHead);
    const writeRefusal = (): string | undefined =>
      projectionsSupervisor!.state === 'running' ? undefined : `the read models are ${projectionsSupervisor!.state} (event store or read-model database unavailable)`;

    let sweeperRef: Sweeper | undefined;
    // Assigned below; until then (the API already listens) /readyz reports dispatch as starting.
    let dispatchSupervisor: Supervisor | undefined;
    const startedAt = new Date().toISOString();
    const redisWatch = {
      onBack: async () => {
        const recovered = (await sweeperRef?.sweepOnce('recovery')) ?? 0;
        return `, re-dispatched ${recovered} job(s) for resources with pending work`;
      },
    };
    const { queue: rawQueue, localOnly, description: queueDescription, reachability } = await openJobQueue(config, logger, options.queueTuning, metrics, redisWatch, startWait);
    const queue = countRetries(rawQueue, metrics);
    // One CLIENT LIST per few seconds, whatever the number of /finalizing reads and scrapes.
    const consumers = new QueueConsumers(async () => (reachability && queue.queueConsumers ? reachability.bounded(() => queue.queueConsumers!()) : []));
    closers.push(() => queue.close());
    logger.info(`jobs: ${queueDescription}`);

    // /readyz and decom_dependency_up answer from these cached probes, never from a call made while asked.
    const probeKube = kubeConfig ?? (config.kubeconfig ? loadKubeConfig(config.kubeconfig) : undefined);
    // The adapters start after the API listens: until then a recovery of Kubernetes has no run to re-queue.
    let hostedAdapters: readonly string[] = [];
    const onBack = kubernetesRecovery(queue, () => hostedAdapters, logger);
    const dependencies = engineProbes({ config, store, readModels, ...(verifier ? { verifier } : {}), ...(probeKube ? { kubeConfig: probeKube } : {}), logger, onBack });
    closers.push(() => dependencies.close());
    await dependencies.probes.probeOnce();
    dependencies.probes.start();
    metrics.watchDependencies(() => dependencies.probes.results());

    const leaks = new LeakScannerSlot();
    // The adapters' Kubernetes watches, once they started: information in /readyz, never a condition.
    let watchStatuses: (() => WatchStatus[]) | undefined;
    // Supervised loops started after the API listens (leak inventory), listed in /readyz after dispatch.
    const extraLoops: { status(): LoopStatus; position(): number }[] = [];
    // OpenTelemetry only when asked for: the SDK is imported here, never otherwise.
    const spans = config.otlpEndpoint ? await startOtlpExport(config.otlpEndpoint, { version: buildInfo().version, component: 'api' }) : undefined;
    if (spans) {
      closers.push(() => spans.shutdown());
      logger.info(`tracing: exporting request spans over OTLP/HTTP to ${config.otlpEndpoint}/v1/traces`);
    }
    const app = await createApiApp(
      {
        leaks,
        store,
        kinds,
        queries,
        readSide: { waitFor: (position) => projections.waitFor(position), writeRefusal, catchingUp, catchUp: async () => projections.waitFor(await store.headPosition()) },
        readiness: {
          check: async () =>
            readinessReport({
              dependencies: () => dependencies.probes.results(),
              eventStore: dependencies.eventStore,
              loops: [
                { status: () => projectionsSupervisor!.status(), position: () => projections.appliedPosition() },
                {
                  status: () => dispatchSupervisor?.status() ?? { name: 'dispatch', state: 'starting', since: startedAt, restarts: 0 },
                  position: () => (dispatchSupervisor ? dispatch.checkpoint() : 0),
                },
                ...extraLoops,
              ],
              writeRefusal,
              watches: () => watchStatuses?.() ?? [],
            }),
        },
        clock: { now: () => new Date() },
        ids: { next: () => uuidv7() },
        options: { admins: config.admins, corsOrigins: config.corsOrigins, version: buildInfo().version },
        onAppended: domainTransitionObserver(logger, metrics),
        auth,
        deadLetters: reachability
          ? {
              // Bounded: with Redis down these would wait for a reconnect; they answer 503 / `unavailable` instead.
              list: (name) => reachability.bounded(() => queue.failed(name)),
              retry: (name, id) => reachability.bounded(() => queue.retry(name, id)),
              queues: () => reachability.bounded(() => queue.queueNames()),
              // Only here: an in-process queue dispatches only to the adapters it hosts, each with its handler.
              ...(queue.queueConsumers && { consumedQueues: () => consumers.queues() }),
              availability: () => reachability.availability(),
            }
          : { list: (name) => queue.failed(name), retry: (name, id) => queue.retry(name, id), queues: () => queue.queueNames() },
        audit: { list: (options) => auditEntries(readModels, options) },
        operatorLog: logger,
        metrics,
      },
      { logger: config.logLevel === 'silent' ? false : new NestPinoLogger(logger.child({ component: 'nest' })), observability: options.requestObservability === false ? {} : { logger, metrics, ...(spans ? { spans } : {}) } },
    );
    closers.push(() => app.close());
    await listen(app, config, gate);
    startup.ready();
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://127.0.0.1:${port}`;
    const apiBaseUrl = config.port === 0 || config.apiBaseUrl === `http://127.0.0.1:${config.port}` ? url : config.apiBaseUrl;
    logger.info(`API listening on ${url}/api/hyperfleet/v1`);
    for (const line of authSummary) logger.info(line);

    let localKube: LocalKube | undefined;
    let adapters: HostedAdapter[] = [];
    if (role === 'all' && kubeConfig) {
      if (config.kubeconfig) {
        logger.info(`Kubernetes: using KUBECONFIG ${config.kubeconfig} (context ${kubeConfig.getCurrentContext()})`);
      } else {
        localKube = await startLocalKube({ historyLimit: BUNDLED_KUBE_HISTORY, ...options.localKube });
        closers.push(() => localKube!.close());
        kubeConfig.loadFromString(localKube.kubeconfigYaml());
        // Its port is random: a kubeconfig in the data folder lets `kubectl`, `decom adapter plan` and `decom worker` find it.
        const kubeconfigFile = bundledKubeconfigPath(config.dataDir);
        await mkdir(config.dataDir, { recursive: true });
        await writeFile(kubeconfigFile, localKube.kubeconfigYaml(), { mode: 0o600 });
        closers.push(() => rm(kubeconfigFile, { force: true }));
        logger.info(
          { kubeconfig: kubeconfigFile, server: localKube.url },
          `Kubernetes: no KUBECONFIG set, using the bundled local Kubernetes API server at ${localKube.url}; kubeconfig for it: ${kubeconfigFile} (KUBECONFIG=${kubeconfigFile} kubectl get namespaces)`,
        );
      }
      const worker = await startAdapterWorker({
          adaptersDir: config.adaptersDir,
          apiBaseUrl,
          kubeConfig,
          queue,
          concurrency: config.workerConcurrency,
          env: config.adapterEnv,
          ...(options.adapterRerun ? { rerun: options.adapterRerun } : {}),
          onAdapterRun: adapterRunMetrics(metrics, options.onAdapterRun),
          ...(embedded ? { tokenFor: (adapter: string) => embedded.tokenSource(`adapter:${adapter}`) } : {}),
          // The adapters call this process's own API: through its request pipeline, without a loopback socket.
          ...(options.adapterApiTransport !== 'http' && { apiFetch: inProcessFetch(apiBaseUrl, (request) => app.getHttpAdapter().getInstance().inject(request)) }),
          log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
          onWatchTrigger: (trigger) => {
            metrics.watchTriggeredRuns.inc({ adapter: trigger.adapter });
            options.onWatchTrigger?.(trigger);
          },
          ...(options.adapterWatch === false && { watch: false }),
        });
      closers.push(() => worker.close());
      adapters = [...worker.adapters];
      hostedAdapters = adapters.map((a) => a.name);
      watchStatuses = worker.watches ? () => worker.watches!.statuses() : undefined;
      logger.info(`adapters: ${adapters.map((a) => a.name).join(', ') || '(none)'} from ${config.adaptersDir}`);
      for (const warning of adapters.flatMap((a) => a.warnings)) logger.warn(`adapter config warning: ${warning}`);
    } else {
      logger.info(`adapters: none in this process (role api); \`decom worker\` processes run them`);
    }
    registerHardDeleteProcessor(queue, app.get(CommandBus));
    // Leak inventory and scans where this process reaches Kubernetes (role all, or api with KUBECONFIG).
    const leakKube = kubeConfig ?? (config.kubeconfig ? loadKubeConfig(config.kubeconfig) : undefined);
    if (leakKube) {
      const leakWork = await startLeakWork({
        config,
        kinds,
        kubeConfig: leakKube,
        queries,
        store,
        checkpoints: new ReadModelCheckpoints(readModels),
        slot: leaks,
        commandBus: app.get(CommandBus),
        metrics,
        logger,
        supervise,
      });
      closers.push(() => leakWork.stop());
      extraLoops.push({ status: () => leakWork.inventory.status(), position: () => leakWork.position() });
    }

    // In-process jobs reach only the adapters this process hosts; an adapter hosted elsewhere reports over HTTP.
    const hosted = new Set(adapters.map((a) => a.name));
    const isDispatchable = (adapter: string) => !localOnly || hosted.has(adapter);
    for (const kind of kinds.descriptors) {
      const external = kind.required_adapters.filter((a) => !hosted.has(a));
      if (localOnly && external.length > 0) logger.warn(`${kind.kind} requires adapter(s) ${external.join(', ')} not hosted here: deletions wait for their reports over HTTP`);
    }
    const addresses = new ResourceAddressBook(kinds, queries);
    const dispatch = new ReactorRunner(
      store,
      new ReadModelCheckpoints(readModels),
      new DispatchReactor(kinds, queue, addresses, (position) => projections.waitFor(position), isDispatchable),
      (error) => dispatchSupervisor?.fail(error),
    );
    const dispatchLoop = supervise('dispatch', dispatch);
    dispatchSupervisor = dispatchLoop;
    await dispatchLoop.start();
    closers.push(() => dispatchLoop.stop());

    const sweepOutage = new OutageLog('sweeper: read models', logger);
    const sweeper = new Sweeper(
      kinds,
      queue,
      // The same JSON Sentinel reads from the API's list endpoints.
      queries,
      rules,
      { intervalMs: options.sweep?.intervalMs ?? config.sweepIntervalMs },
      Date.now,
      // A sweep fails on every tick while a dependency is down: one line when lost, one when back.
      (error) => (isTransientError(error) ? sweepOutage.lost(error) : logger.warn(`sweep: ${describeError(error)}`)),
      isDispatchable,
      () => sweepOutage.back(),
    );
    sweeperRef = sweeper;
    // The first sweep is a recovery sweep: the in-process queue lost its jobs if this process crashed.
    const recovered = await sweeper.sweepOnce();
    if (recovered > 0) logger.info(`recovery sweep re-dispatched ${recovered} job(s)`);
    sweeper.start();
    closers.push(() => sweeper.stop());

    // Dead letters of work a sweep (or a later run) finished: removed at the sweep's pace, one info line each.
    const deadLetterPruner = new DeadLetterPruner(queue, resourceProgressOf(queries), {
      intervalMs: options.sweep?.intervalMs ?? config.sweepIntervalMs,
      onPruned: prunedDeadLetterReporter(logger, metrics),
      onError: (error) => (isTransientError(error) ? sweepOutage.lost(error) : logger.warn(`dead-letter pruning: ${describeError(error)}`)),
    });
    deadLetterPruner.start();
    closers.push(() => deadLetterPruner.stop());

    metrics.watchPending(async () =>
      (await pendingWork(readModels)).map((p) => ({
        kind: p.kind,
        deleting: p.deleted_time !== undefined,
        sinceMs: Date.parse(p.deleted_time ?? p.reconciled_updated_time) || Date.now(),
      })),
    );
    metrics.watchFinalizing(() => queries.finalizing(new Date()));
    metrics.watchQueues(async () => (queue.depths ? (reachability ? reachability.bounded(() => queue.depths!()) : queue.depths()) : []));
    if (reachability && queue.queueConsumers) {
      // Every queue the store knows, 0 when nothing consumes it: `decom_queue_workers == 0` is the alert.
      metrics.watchQueueWorkers(async () => {
        const counts = new Map((await consumers.counts()).map((c) => [c.queue, c.consumers]));
        const names = new Set([...(await reachability.bounded(() => queue.queueNames())), ...counts.keys()]);
        return [...names].sort().map((name) => ({ queue: name, workers: counts.get(name) ?? 0 }));
      });
    }
    metrics.watchLag('projections', async () => (await store.headPosition()) - (await projections.checkpoint()));
    metrics.watchLag('dispatch', async () => (await store.headPosition()) - dispatch.checkpoint());
    metrics.watchKubeWatches(() => watchStatuses?.() ?? []);
    logger.info(`metrics: ${processMetrics.url}`);

    return {
      url,
      store,
      queue,
      queries,
      kinds,
      adapters,
      ...(localKube ? { localKube } : {}),
      app,
      sweeper,
      deadLetterPruner,
      metrics,
      metricsUrl: processMetrics.url,
      async settle() {
        for (;;) {
          const head = await store.headPosition();
          await projections.waitFor(head);
          while (dispatch.checkpoint() < head) await new Promise((r) => setTimeout(r, 5));
          await queue.idle();
          if ((await store.headPosition()) === head) return;
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Opens the API port, or takes it over from the start-up gate (closed first; with PORT=0 the API listens
 * on the port the gate was given). Fastify's own listen (after Nest's init) rejects without Nest logging
 * the error a second time, so a port in use is reported once, by the caller.
 * @throws PortInUse when another process holds `config.port` on `config.host`.
 */
async function listen(app: NestFastifyApplication, config: AppConfig, gate?: StartupGate): Promise<void> {
  await app.init();
  const port = gate?.port ?? config.port;
  await gate?.close();
  try {
    await app.getHttpAdapter().getInstance().listen({ port, host: config.host });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUse(port, config.host);
    throw error;
  }
}

/** The start-up gate on the API port. @throws PortInUse when another process holds it. */
async function openGate(state: StartupState, config: AppConfig): Promise<StartupGate> {
  try {
    return await openStartupGate(state, config.port, config.host);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUse(config.port, config.host);
    throw error;
  }
}

/** The API port is taken by another process. */
export class PortInUse extends Error {
  override readonly name = 'PortInUse';
  constructor(
    readonly port: number,
    readonly host: string,
  ) {
    super(`port ${port} on ${host} is already in use: stop the other process or set PORT to a free port`);
  }
}

/** The sweep's Sentinel rules: `sentinel.yaml`, or (tests, demo) the default rule with another debounce. */
async function sweepRules(config: AppConfig, kinds: KindRegistry, debounceMs?: number): Promise<SentinelRules> {
  if (debounceMs !== undefined) return sentinelRules(new Map(), compileMessageDecision(sentinelDefaultDecision({ debounce: `${debounceMs}ms` })));
  return loadSentinelConfig(
    config.sentinelFile,
    kinds.descriptors.map((d) => d.plural),
  );
}
