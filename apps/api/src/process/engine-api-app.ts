import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { v7 as uuidv7 } from 'uuid';
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import type { KindRegistry } from '@decom/domain';
import type { EventStore } from '@decom/event-store';
import { auditEntries, breakGlassRequest, breakGlassRequests, type ReadModelStore, type ResourceQueries } from '@decom/projections';
import type { DecomMetrics } from '@decom/metrics';
import type { BuildInfo, EngineProbes } from '@decom/runtime';
import { createApiApp } from '../create-api-app.js';
import type { ApiAuth } from '../app.module.js';
import type { KubernetesCleanupVerifier } from '../leaks/kubernetes-cleanup-verifier.js';
import type { LeakScannerSlot } from '../leaks/leak-scanner.js';
import { domainTransitionObserver } from '../observability/domain-transitions.js';
import type { SpanExporter } from '../observability/otlp-export.js';
import { NestPinoLogger } from './nest-pino-logger.js';
import { readinessReport } from './readiness.js';
import type { EngineReadSide } from './read-side.js';
import type { EngineJobs } from './engine-jobs.js';
import type { StartedAfterListen } from './started-after-listen.js';

/** Everything the API app is handed by the engine (nothing in it picks a backend). */
export interface EngineApiParts {
  readonly config: AppConfig;
  readonly logger: Logger;
  /** The build the API reports (its version in the OpenAPI document and answers). */
  readonly build: BuildInfo;
  readonly metrics: DecomMetrics;
  readonly kinds: KindRegistry;
  readonly store: EventStore;
  readonly readModels: ReadModelStore;
  readonly queries: ResourceQueries;
  readonly readSide: EngineReadSide;
  readonly dependencies: EngineProbes;
  readonly jobs: EngineJobs;
  readonly later: StartedAfterListen;
  readonly leaks: LeakScannerSlot;
  readonly cleanupVerifier: KubernetesCleanupVerifier;
  readonly auth: ApiAuth;
  readonly spans?: SpanExporter;
  /** The API's clock (command times, break-glass expiry); the system clock when absent. */
  readonly clock?: { now(): Date };
  /** Access log and request metrics (default true). */
  readonly requestObservability?: boolean;
}

/**
 * Builds the REST/GraphQL app (not listening): its read side, `/readyz` from the cached probes and the
 * loops, dead letters and audit from the stores, domain transitions logged and counted.
 */
export function createEngineApiApp(parts: EngineApiParts): Promise<NestFastifyApplication> {
  const { config, logger, metrics, readSide, dependencies, later } = parts;
  return createApiApp(
    {
      leaks: parts.leaks,
      cleanupVerifier: parts.cleanupVerifier,
      store: parts.store,
      kinds: parts.kinds,
      queries: parts.queries,
      readSide: readSide.forApi(),
      readiness: {
        check: async () =>
          readinessReport({
            dependencies: () => dependencies.probes.results(),
            eventStore: dependencies.eventStore,
            loops: [readSide.loop(), later.dispatchLoop(), ...later.extraLoops],
            writeRefusal: () => readSide.writeRefusal(),
            watches: () => later.watches(),
          }),
      },
      clock: parts.clock ?? { now: () => new Date() },
      ids: { next: () => uuidv7() },
      options: { admins: config.admins, corsOrigins: config.corsOrigins, version: parts.build.version },
      onAppended: domainTransitionObserver(logger, metrics),
      auth: parts.auth,
      deadLetters: parts.jobs.deadLetters,
      audit: { list: (options) => auditEntries(parts.readModels, options) },
      breakGlass: {
        list: (options) => breakGlassRequests(parts.readModels, options),
        get: (id, now) => breakGlassRequest(parts.readModels, id, now),
      },
      operatorLog: logger,
      metrics,
    },
    {
      logger: config.logLevel === 'silent' ? false : new NestPinoLogger(logger.child({ component: 'nest' })),
      observability: parts.requestObservability === false ? {} : { logger, metrics, ...(parts.spans ? { spans: parts.spans } : {}) },
    },
  );
}
