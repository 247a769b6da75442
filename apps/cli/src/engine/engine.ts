/**
 * The composition root of one Decom process (embedded profile: API + projections + dispatch + adapters
 * in one process, SQLite, in-process jobs, bundled Kubernetes API server unless KUBECONFIG is set).
 * Everything is built here and handed to the modules that use it; nothing else picks a backend.
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import { loadEntitiesConfig } from '@decom/config';
import { KindRegistry } from '@decom/domain';
import type { EventStore } from '@decom/event-store';
import {
  ProjectionRunner,
  ResourceQueries,
  ResourceViewProjection,
  pendingWork,
} from '@decom/projections';
import {
  DispatchReactor,
  ReactorRunner,
  ResourceAddressBook,
  Sweeper,
  type JobQueue,
} from '@decom/jobs';
import { startLocalKube, type LocalKube } from '@decom/kube-local';
import { createApiApp } from '../../../api/src/create-api-app.js';
import { registerHardDeleteProcessor } from '../../../api/src/jobs/hard-delete.processor.js';
import { loadAdapters, type HostedAdapter } from '../../../worker/src/adapter-host.js';
import { AdapterRunProcessor, type AdapterRunObserver } from '../../../worker/src/processors/adapter-run.processor.js';
import { ReadModelCheckpoints } from './read-model-checkpoints.js';
import { openStorage } from './storage.js';
import { openJobQueue } from './job-queue-factory.js';

export interface EngineOptions {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** Delays of adapter re-runs while work is in progress (default 250 ms doubling to 15 s). */
  readonly adapterRerun?: { baseDelayMs: number; maxDelayMs: number };
  /** Sweeper cadence (default every 30 s, debounce 10 s as Sentinel). */
  readonly sweep?: { intervalMs: number; debounceMs: number };
  readonly onAdapterRun?: AdapterRunObserver;
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
  /** Resolves when projections and dispatch caught up with the log and no job is waiting or running. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function startEngine(options: EngineOptions): Promise<Engine> {
  const { config, logger } = options;
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
    const storage = await openStorage(config);
    closers.push(() => storage.close());
    const { store, readModels } = storage;
    const queries = new ResourceQueries(readModels, kinds);
    logger.info(`event store: ${storage.description}`);

    const projections = new ProjectionRunner(store, readModels, [new ResourceViewProjection(kinds)], {
      onError: (error: unknown) => logger.error({ err: error }, 'projection stopped'),
    });
    await projections.start();
    closers.push(() => projections.stop());

    const { queue, localOnly, description: queueDescription } = await openJobQueue(config, logger);
    closers.push(() => queue.close());
    logger.info(`jobs: ${queueDescription}`);

    const app = await createApiApp(
      {
        store,
        kinds,
        queries,
        readSide: { waitFor: (position) => projections.waitFor(position) },
        clock: { now: () => new Date() },
        ids: { next: () => uuidv7() },
        options: { admins: config.admins },
      },
      { logger: config.logLevel !== 'silent' },
    );
    await app.listen({ port: config.port, host: config.host });
    closers.push(() => app.close());
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://127.0.0.1:${port}`;
    const apiBaseUrl = config.port === 0 || config.apiBaseUrl === `http://127.0.0.1:${config.port}` ? url : config.apiBaseUrl;
    logger.info(`API listening on ${url}/api/hyperfleet/v1`);

    let localKube: LocalKube | undefined;
    const kubeConfig = new KubeConfig();
    if (config.kubeconfig) {
      kubeConfig.loadFromFile(config.kubeconfig);
      logger.info(`Kubernetes: using KUBECONFIG ${config.kubeconfig} (context ${kubeConfig.getCurrentContext()})`);
    } else {
      localKube = await startLocalKube();
      closers.push(() => localKube!.close());
      kubeConfig.loadFromString(localKube.kubeconfigYaml());
      logger.info(`Kubernetes: no KUBECONFIG set, using the bundled local Kubernetes API server at ${localKube.url}`);
    }

    const adapters = await loadAdapters(config.adaptersDir, { apiBaseUrl, kubeConfig });
    const rerun = options.adapterRerun ?? { baseDelayMs: 250, maxDelayMs: 15_000 };
    for (const adapter of adapters) {
      new AdapterRunProcessor(adapter, queue, rerun, options.onAdapterRun).register();
    }
    logger.info(`adapters: ${adapters.map((a) => a.name).join(', ') || '(none)'} from ${config.adaptersDir}`);
    registerHardDeleteProcessor(queue, app.get(CommandBus));

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
      (error) => logger.error({ err: error }, 'dispatch stopped'),
    );
    await dispatch.start();
    closers.push(() => dispatch.stop());

    const sweeper = new Sweeper(kinds, queue, addresses, () => pendingWork(readModels), options.sweep ?? { intervalMs: 30_000, debounceMs: 10_000 }, Date.now, (error) =>
      logger.error({ err: error }, 'sweep failed'),
      isDispatchable,
    );
    const recovered = await sweeper.sweepOnce(true);
    if (recovered > 0) logger.info(`recovery sweep re-dispatched ${recovered} job(s)`);
    sweeper.start();
    closers.push(() => sweeper.stop());

    return {
      url,
      store,
      queue,
      queries,
      kinds,
      adapters,
      ...(localKube ? { localKube } : {}),
      app,
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
