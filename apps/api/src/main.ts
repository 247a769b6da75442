/**
 * The composition root of an API process, as a list of wiring steps (each a function or class of its own
 * file under `process/`). Two processes are built from it:
 * - `decom start` (role `all`): API + projections + dispatch + sweeper + hard-delete + the adapters, hosted
 *   here by the `adapterHost` the caller passes (`@decom/worker`'s). Embedded profile: SQLite, in-process
 *   jobs, bundled Kubernetes API server unless KUBECONFIG is set.
 * - `decom api` (role `api`): the same without `adapterHost`; `decom worker` processes run the adapters (BullMQ).
 * The queue is BullMQ when `REDIS_URL` is set (`@decom/runtime`'s job-queue-factory.ts). Several API processes
 * may share one Redis and one PostgreSQL store: dispatch and sweep job ids are deterministic, so duplicates
 * collapse. Everything is built here and handed to the modules that use it; nothing else picks a backend.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import type { KindRegistry } from '@decom/domain';
import type { EventStore } from '@decom/event-store';
import { ResourceQueries, type ReadModelStore } from '@decom/projections';
import type { DecomMetrics } from '@decom/metrics';
import { KubernetesTransport } from '@decom/adapter';
import type { DeadLetterPruner, JobQueue, Sweeper } from '@decom/jobs';
import type { LocalKube } from '@decom/kube-local';
import {
  Closers,
  engineProbes,
  kubernetesRecovery,
  retryUntilAvailable,
  startProcessMetrics,
  type AdapterHost,
  type BuildInfo,
  type EngineProbes,
  type HostedAdapters,
  type QueueTuning,
} from '@decom/runtime';
import { registerHardDeleteProcessor } from './jobs/hard-delete.processor.js';
import { KubernetesCleanupVerifier } from './leaks/kubernetes-cleanup-verifier.js';
import { LeakScannerSlot } from './leaks/leak-scanner.js';
import { startOtlpExport, type SpanExporter } from './observability/otlp-export.js';
import type { JwtVerifier } from './auth/jwt-verifier.js';
import { hostedAdapterKinds } from './process/hosted-adapter-kinds.js';
import { openStorage, StorageUnavailable } from './process/storage.js';
import { EngineLoops } from './process/engine-loops.js';
import { ApiPort } from './process/api-port.js';
import { EngineReadSide } from './process/read-side.js';
import { StartedAfterListen } from './process/started-after-listen.js';
import { openEngineJobs } from './process/engine-jobs.js';
import { createEngineApiApp } from './process/engine-api-app.js';
import { startDispatch, startLeakInventory, startSweeping } from './process/background-work.js';
import { watchEngineMetrics } from './process/engine-metrics.js';
import { loadKubeConfig, readEngineFiles } from './process/engine-files.js';

export { PortInUse } from './process/api-port.js';

/** How to start an API process. */
export interface ApiProcessOptions {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** The build the process reports (`hyperfleet_api_build_info`, the API's version, span resources). */
  readonly build: BuildInfo;
  /**
   * The adapters this process hosts (`decom start`: `@decom/worker`'s `adapterHost`); absent for `decom api`,
   * whose adapters run in `decom worker` processes.
   */
  readonly adapterHost?: AdapterHost;
  /**
   * Sweeper overrides (tests, demo): `intervalMs` instead of `DECOM_SWEEP_INTERVAL_MS`; `debounceMs`
   * replaces every kind's rule by Sentinel's default rule with this debounce.
   */
  readonly sweep?: { intervalMs?: number; debounceMs?: number };
  /** BullMQ knobs for tests and benchmarks. */
  readonly queueTuning?: QueueTuning;
  /** The API's clock (command times, break-glass expiry); the system clock when absent. Tests pass a fixed one. */
  readonly apiClock?: { now(): Date };
  /** Access log and request metrics on the API (default true; the benchmark measures their cost with false). */
  readonly requestObservability?: boolean;
  /**
   * Stops a start that waits for PostgreSQL, EventStoreDB or Redis (SIGINT/SIGTERM): `startApiProcess` then
   * rejects with `StartAborted` after closing what it opened.
   */
  readonly abort?: AbortSignal;
}

export interface ApiProcess {
  /** Base URL of the API, e.g. http://127.0.0.1:8000. */
  readonly url: string;
  readonly store: EventStore;
  readonly queue: JobQueue;
  readonly queries: ResourceQueries;
  readonly kinds: KindRegistry;
  /** The adapters hosted in this process (none without `adapterHost`). */
  readonly adapters: HostedAdapters['adapters'];
  /** The bundled Kubernetes API server, when the hosted adapters were given no KUBECONFIG. */
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

/**
 * Starts one API process: files checked, metrics port, stores (waited for), read side, job queue, probes,
 * the API (listening), the hosted adapters (with `adapterHost`), hard-delete jobs, leak inventory, dispatch
 * and sweeping. A failure at any step closes what the steps before it opened.
 * @throws ConfigError for a file at fault; PortInUse; StartAborted when `options.abort` fires during a wait.
 */
export async function startApiProcess(options: ApiProcessOptions): Promise<ApiProcess> {
  const { config, logger, adapterHost } = options;
  const closers = new Closers(logger);
  try {
    // Everything a user can get wrong in files is checked before a port opens or a store is touched.
    const { kinds, auth, kubeConfig, rules } = await readEngineFiles(config, logger, adapterHost, options.sweep?.debounceMs);
    // The metrics port opens first: a clash is named before any store is touched.
    const processMetrics = await startProcessMetrics(config, 'api', options.build);
    closers.add(() => processMetrics.close());
    const { metrics } = processMetrics;
    const apiPort = new ApiPort(config, logger, closers);
    const startWait = apiPort.startWait(options.abort);
    const storage = await retryUntilAvailable(
      () => openStorage(config),
      (error) => (error instanceof StorageUnavailable ? { dependency: error.dependency, label: error.label } : undefined),
      startWait,
    );
    closers.add(() => storage.close());
    const { store, readModels } = storage;
    const queries = new ResourceQueries(readModels, kinds);
    logger.info(`event store: ${storage.description}`);

    const loops = new EngineLoops(storage.description.split(',')[0]!.replace(/ \(.*$/, ''), logger);
    const readSide = await EngineReadSide.start({ store, readModels, kinds, loops, logger, closers });
    const later = new StartedAfterListen();
    const jobs = await openEngineJobs({
      config,
      logger,
      ...(options.queueTuning ? { tuning: options.queueTuning } : {}),
      metrics,
      later,
      startWait,
      closers,
    });
    const { queue } = jobs;
    const dependencies = await startDependencyProbes({
      config,
      store,
      readModels,
      kubeConfig,
      verifier: auth.verifier,
      queue,
      later,
      logger,
      metrics,
      closers,
    });
    const spans = await startTracing(config, options.build, logger, closers);
    const leaks = new LeakScannerSlot();
    // Leak inventory, scans and verify-before-hard-delete where this process reaches Kubernetes (role all, or api with KUBECONFIG).
    const leakKube = kubeConfig ?? (config.kubeconfig ? loadKubeConfig(config.kubeconfig) : undefined);
    const cleanupVerifier = await startCleanupVerifier(config, logger, leakKube !== undefined);
    const app = await createEngineApiApp({
      config,
      logger,
      build: options.build,
      metrics,
      kinds,
      store,
      readModels,
      queries,
      readSide,
      dependencies,
      jobs,
      later,
      leaks,
      cleanupVerifier,
      auth: auth.auth,
      ...(spans ? { spans } : {}),
      ...(options.requestObservability !== undefined ? { requestObservability: options.requestObservability } : {}),
      ...(options.apiClock ? { clock: options.apiClock } : {}),
    });
    closers.add(() => app.close());
    const url = await apiPort.listen(app);
    const apiBaseUrl = config.port === 0 || config.apiBaseUrl === `http://127.0.0.1:${config.port}` ? url : config.apiBaseUrl;
    logger.info(`API listening on ${url}/api/hyperfleet/v1`);
    for (const line of auth.summary) logger.info(line);

    const embedded = auth.embedded;
    const hosted: HostedAdapters =
      adapterHost && kubeConfig
        ? await adapterHost.start({
            config,
            logger,
            metrics,
            kubeConfig,
            queue,
            apiBaseUrl,
            inject: (request) => app.getHttpAdapter().getInstance().inject(request),
            ...(embedded ? { tokenFor: (adapter: string) => embedded.tokenSource(`adapter:${adapter}`) } : {}),
            closers,
          })
        : noHostedAdapters(logger);
    later.hostedAdapters = hosted.adapters.map((a) => a.name);
    later.watchStatuses = hosted.watches;
    const commandBus = app.get(CommandBus);
    registerHardDeleteProcessor(queue, commandBus);
    const background = { config, logger, metrics, kinds, store, readModels, queries, queue, loops, later, closers };
    if (leakKube) {
      cleanupVerifier.transport = new KubernetesTransport(leakKube);
      closers.add(async () => void (cleanupVerifier.transport = undefined));
      await startLeakInventory({ ...background, kubeConfig: leakKube, slot: leaks, commandBus });
    }
    const isDispatchable = dispatchableAdapters(kinds, hosted.adapters, jobs.localOnly, logger);
    const dispatch = await startDispatch({ ...background, readSide, isDispatchable });
    const { sweeper, deadLetterPruner } = await startSweeping({
      ...background,
      rules,
      intervalMs: options.sweep?.intervalMs ?? config.sweepIntervalMs,
      isDispatchable,
    });
    watchEngineMetrics({ metrics, store, readModels, queries, projections: readSide.projections, dispatch, jobs, later });
    logger.info(`metrics: ${processMetrics.url}`);

    return {
      url,
      store,
      queue,
      queries,
      kinds,
      adapters: hosted.adapters,
      ...(hosted.localKube ? { localKube: hosted.localKube } : {}),
      app,
      sweeper,
      deadLetterPruner,
      metrics,
      metricsUrl: processMetrics.url,
      async settle() {
        for (;;) {
          const head = await store.headPosition();
          await readSide.projections.waitFor(head);
          while (dispatch.checkpoint() < head) await new Promise((r) => setTimeout(r, 5));
          await queue.idle();
          if ((await store.headPosition()) === head) return;
        }
      },
      close: () => closers.close(),
    };
  } catch (error) {
    await closers.close();
    throw error;
  }
}

/**
 * `/readyz` and `decom_dependency_up` answer from these cached probes, never from a call made while asked. When
 * Kubernetes comes back, the hosted adapters' runs are re-queued (none until the adapters start).
 */
async function startDependencyProbes(parts: {
  config: AppConfig;
  store: EventStore;
  readModels: ReadModelStore;
  kubeConfig: KubeConfig | undefined;
  verifier: JwtVerifier | undefined;
  queue: JobQueue;
  later: StartedAfterListen;
  logger: Logger;
  metrics: DecomMetrics;
  closers: Closers;
}): Promise<EngineProbes> {
  const { config, logger, later } = parts;
  const probeKube = parts.kubeConfig ?? (config.kubeconfig ? loadKubeConfig(config.kubeconfig) : undefined);
  const onBack = kubernetesRecovery(parts.queue, () => later.hostedAdapters, logger);
  const dependencies = engineProbes({
    config,
    store: parts.store,
    readModels: parts.readModels,
    ...(parts.verifier ? { verifier: parts.verifier } : {}),
    ...(probeKube ? { kubeConfig: probeKube } : {}),
    logger,
    onBack,
  });
  parts.closers.add(() => dependencies.close());
  await dependencies.probes.probeOnce();
  dependencies.probes.start();
  parts.metrics.watchDependencies(() => dependencies.probes.results());
  return dependencies;
}

/**
 * Verify before hard delete: the hosted adapters are known from their files now; their objects can be listed
 * once Kubernetes is (its transport is set after the API listens; until then a check is unverified, never
 * clean). A process that never reaches Kubernetes (`decom api` without KUBECONFIG) cannot list anything, so it
 * verifies nothing rather than holding every deletion: it says so at start (docs/policies.md).
 */
async function startCleanupVerifier(config: AppConfig, logger: Logger, reachesKubernetes: boolean): Promise<KubernetesCleanupVerifier> {
  if (!reachesKubernetes) {
    logger.warn(
      "verify before hard delete is off in this process: it has no KUBECONFIG, so hosted adapters' objects cannot be listed before a hard delete (set KUBECONFIG to their cluster to verify; docs/policies.md)",
    );
    return new KubernetesCleanupVerifier(new Map());
  }
  return new KubernetesCleanupVerifier(await hostedAdapterKinds(config.adaptersDir, config.adapterEnv, config.apiBaseUrl));
}

/** OpenTelemetry only when asked for: the SDK is imported then, never otherwise. */
async function startTracing(config: AppConfig, build: BuildInfo, logger: Logger, closers: Closers): Promise<SpanExporter | undefined> {
  if (!config.otlpEndpoint) return undefined;
  const spans = await startOtlpExport(config.otlpEndpoint, { version: build.version, component: 'api' });
  closers.add(() => spans.shutdown());
  logger.info(`tracing: exporting request spans over OTLP/HTTP to ${config.otlpEndpoint}/v1/traces`);
  return spans;
}

function noHostedAdapters(logger: Logger): HostedAdapters {
  logger.info(`adapters: none in this process (role api); \`decom worker\` processes run them`);
  return { adapters: [] };
}

/**
 * Which adapters dispatch may enqueue for: all with BullMQ (workers elsewhere consume them); with the
 * in-process queue only those hosted here, and a kind requiring another one waits for its reports over HTTP.
 */
function dispatchableAdapters(
  kinds: KindRegistry,
  adapters: HostedAdapters['adapters'],
  localOnly: boolean,
  logger: Logger,
): (adapter: string) => boolean {
  const hosted = new Set(adapters.map((a) => a.name));
  for (const kind of kinds.descriptors) {
    const external = kind.required_adapters.filter((a) => !hosted.has(a));
    if (localOnly && external.length > 0)
      logger.warn(`${kind.kind} requires adapter(s) ${external.join(', ')} not hosted here: deletions wait for their reports over HTTP`);
  }
  return (adapter) => !localOnly || hosted.has(adapter);
}
