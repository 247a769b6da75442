/**
 * The HTTP edge. Infrastructure (event store, read models, kinds) is built by the engine's composition
 * root and handed in as `ApiRuntime`, so this module only wires ports to handlers and controllers.
 */
import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { GraphQLModule } from '@nestjs/graphql';
import { MercuriusDriver, type MercuriusDriverConfig } from '@nestjs/mercurius';
import { JSONObjectResolver } from 'graphql-scalars';
import { TYPE_DEFS } from './graphql/schema.js';
import { ResourcesResolver } from './graphql/resources.resolver.js';
import { MAX_TOKENS, graphqlValidationRules } from './graphql/graphql-limits.js';
import { graphqlErrorHandler } from './graphql/graphql-transport-errors.js';
import {
  COMMAND_HANDLERS,
  QUERY_HANDLERS,
  EVENT_STORE,
  KIND_REGISTRY,
  CLEANUP_VERIFIER,
  type CleanupVerifier,
  RESOURCE_QUERIES,
  ResourceTreeRepository,
  StreamLocator,
  type AppendObserver,
} from '@decom/application';
import type { KindRegistry } from '@decom/domain';
import type { EventStore } from '@decom/event-store';
import type { ResourceQueries } from '@decom/projections';
import { DEFAULT_STREAM_LIMITS, type RateLimitConfig, type StreamLimitsConfig } from '@decom/config';
import { AccessPolicy } from './auth/access-policy.js';
import { Authenticator } from './auth/authenticator.js';
import { WhoamiController } from './auth/whoami.controller.js';
import { AuditController } from './audit/audit.controller.js';
import { FinalizingController } from './finalizing/finalizing.controller.js';
import { EventFeed } from './live/event-feed.js';
import { KindsController } from './kinds/kinds.controller.js';
import { EventsStreamController, STREAM_SLOTS } from './live/events-stream.controller.js';
import { StreamSlots } from './live/stream-slots.js';
import { OpenApiController } from './openapi/openapi.controller.js';
import { OpenApiDocumentSlot } from './openapi/openapi-document-slot.js';
import { HealthController } from './health/health.controller.js';
import { HistoryController } from './history/history.controller.js';
import { LeaksController } from './leaks/leaks.controller.js';
import { DeadLettersController } from './jobs/dead-letters.controller.js';
import { LeakScannerSlot } from './leaks/leak-scanner.js';
import { LEAK_SCANNER } from './leaks/leak-tokens.js';
import { ResourceActions } from './resources/resource-actions.js';
import { ResourceAnswers } from './resources/resource-answers.js';
import { ReferenceValidation } from './resources/reference-validation.js';
import { NameConflicts } from './resources/name-conflicts.js';
import { ReferrerRedaction } from './resources/referrer-redaction.js';
import { DeletionPlanner } from './resources/deletion-planner.js';
import { DeletionBudgetCheck } from './resources/deletion-budget-check.js';
import { CallerAuthorization } from './auth/caller-authorization.js';
import { ResourcesController } from './resources/resources.controller.js';
import { BREAK_GLASS_REQUESTS, type BreakGlassRequests } from './tokens.js';
import { RecordedCommands } from './commands/recorded-commands.js';
import { BreakGlassActions } from './break-glass/break-glass-actions.js';
import { BreakGlassController } from './break-glass/break-glass.controller.js';
import { BreakGlassResolver } from './graphql/break-glass.resolver.js';
import {
  ACCESS_POLICY,
  API_OPTIONS,
  AUDIT_LOG,
  CLOCK,
  DEAD_LETTERS,
  DELETION_BUDGETS,
  ID_GENERATOR,
  OPERATOR_LOG,
  READINESS,
  READ_SIDE,
  type DeletionBudgetSettings,
  type ApiOptions,
  type AuditLog,
  type Clock,
  type DeadLetterSource,
  type IdGenerator,
  type OperatorLog,
  type ReadSide,
  type Readiness,
} from './tokens.js';

export interface ApiRuntime {
  readonly store: EventStore;
  readonly kinds: KindRegistry;
  readonly queries: ResourceQueries;
  readonly readSide: ReadSide;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly options: ApiOptions;
  /** Told about every successful append (transition log lines and deletion metrics). */
  readonly onAppended?: AppendObserver;
  /** `/readyz`'s source (the engine's); without it `/readyz` answers like `/healthz`. */
  readonly readiness?: Readiness;
  /** Authentication and roles; absent = JWT off and the roles of `options.admins` (DECOM_ADMINS). */
  readonly auth?: ApiAuth;
  /** The leak scan, filled once Kubernetes is known; absent = none in this process. */
  readonly leaks?: LeakScannerSlot;
  /** Verify before hard delete (docs/policies.md): the hosted adapters' ownership discovery; absent = nothing verified. */
  readonly cleanupVerifier?: CleanupVerifier;
  /** The job queue's dead letters, shown as `DeadLettered` blockers; none when absent. */
  readonly deadLetters?: DeadLetterSource;
  /** Info lines for operator actions such as a job retry (the engine's logger); Nest's logger when absent. */
  readonly operatorLog?: OperatorLog;
  /** The force delete / orphan audit trail (`audit_log` read model); empty when absent. */
  readonly audit?: AuditLog;
  /** The break-glass approval queue (`break_glass_requests` read model); empty when absent. */
  readonly breakGlass?: BreakGlassRequests;
  /** Where DELETEs checked against a deletion budget are counted (its budgets come with `auth`); none when absent. */
  readonly metrics?: DeletionBudgetSettings['metrics'];
}

/** The authentication and authorization of one API (built by the composition root, docs/security.md). */
export interface ApiAuth {
  readonly authenticator: Authenticator;
  readonly policy: AccessPolicy;
  /** Per-caller rate limit (off when absent or disabled). */
  readonly rateLimit?: RateLimitConfig;
  /** `server.trusted_proxies`: addresses/CIDRs whose `X-Forwarded-For` names the client (Fastify `trustProxy`). */
  readonly trustedProxies?: readonly string[];
  /** `server.streams`: open event streams per caller and per process (DEFAULT_STREAM_LIMITS when absent). */
  readonly streams?: StreamLimitsConfig;
  /** `server.graphql.introspection` (`__schema`/`__type`); allowed when absent. */
  readonly graphqlIntrospection?: boolean;
  /** `limits.deletions` of the server config (docs/policies.md "Deletion budget"); none when absent. */
  readonly deletionBudgets?: DeletionBudgetSettings['budgets'];
}

/** JWT off, header identities, `DECOM_ADMINS` as the admins (today's behaviour). */
export function headerAuth(admins: readonly string[]): ApiAuth {
  return {
    authenticator: new Authenticator({}),
    policy: new AccessPolicy({ authorization: { admins, adapters: {} }, authenticated: false }),
  };
}

/** Without the engine's logger (tests building the module alone): Nest's logger, context `operator`. */
function nestOperatorLog(): OperatorLog {
  const logger = new Logger('operator');
  return { info: (fields, message) => logger.log({ ...fields, msg: message }) };
}

@Module({})
export class AppModule {
  static forRuntime(runtime: ApiRuntime): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CqrsModule.forRoot(),
        GraphQLModule.forRoot<MercuriusDriverConfig>({
          driver: MercuriusDriver,
          typeDefs: TYPE_DEFS,
          resolvers: { JSONObject: JSONObjectResolver },
          path: '/graphql',
          graphiql: false,
          validationRules: graphqlValidationRules({ introspection: runtime.auth?.graphqlIntrospection ?? true }),
          graphql: { parseOptions: { maxTokens: MAX_TOKENS } },
          errorHandler: graphqlErrorHandler as never,
        }),
      ],
      controllers: [
        OpenApiController,
        HealthController,
        WhoamiController,
        HistoryController,
        FinalizingController,
        LeaksController,
        DeadLettersController,
        AuditController,
        BreakGlassController,
        EventsStreamController,
        KindsController,
        ResourcesController,
      ],
      providers: [
        { provide: EVENT_STORE, useValue: runtime.store },
        { provide: KIND_REGISTRY, useValue: runtime.kinds },
        { provide: RESOURCE_QUERIES, useValue: runtime.queries },
        { provide: READ_SIDE, useValue: runtime.readSide },
        { provide: CLOCK, useValue: runtime.clock },
        { provide: ID_GENERATOR, useValue: runtime.ids },
        { provide: API_OPTIONS, useValue: runtime.options },
        ...(runtime.readiness ? [{ provide: READINESS, useValue: runtime.readiness }] : []),
        { provide: ACCESS_POLICY, useValue: (runtime.auth ?? headerAuth(runtime.options.admins)).policy },
        {
          provide: DELETION_BUDGETS,
          useValue: {
            ...(runtime.auth?.deletionBudgets && { budgets: runtime.auth.deletionBudgets }),
            ...(runtime.metrics && { metrics: runtime.metrics }),
          } satisfies DeletionBudgetSettings,
        },
        { provide: LEAK_SCANNER, useValue: runtime.leaks ?? new LeakScannerSlot() },
        ...(runtime.cleanupVerifier ? [{ provide: CLEANUP_VERIFIER, useValue: runtime.cleanupVerifier }] : []),
        {
          provide: ResourceTreeRepository,
          useFactory: (store: EventStore) => new ResourceTreeRepository(store, runtime.onAppended),
          inject: [EVENT_STORE],
        },
        { provide: AUDIT_LOG, useValue: runtime.audit ?? { list: async () => [] } },
        { provide: BREAK_GLASS_REQUESTS, useValue: runtime.breakGlass ?? { list: async () => [], get: async () => undefined } },
        CallerAuthorization,
        BreakGlassActions,
        RecordedCommands,
        { provide: DEAD_LETTERS, useValue: runtime.deadLetters ?? { list: async () => [] } },
        { provide: OPERATOR_LOG, useValue: runtime.operatorLog ?? nestOperatorLog() },
        {
          provide: StreamLocator,
          useFactory: (kinds: KindRegistry, queries: ResourceQueries) =>
            new StreamLocator(kinds, queries, runtime.readSide.catchUp?.bind(runtime.readSide)),
          inject: [KIND_REGISTRY, RESOURCE_QUERIES],
        },
        ReferenceValidation,
        NameConflicts,
        ReferrerRedaction,
        DeletionPlanner,
        DeletionBudgetCheck,
        ResourceAnswers,
        ResourceActions,
        OpenApiDocumentSlot,
        EventFeed,
        { provide: STREAM_SLOTS, useValue: new StreamSlots(runtime.auth?.streams ?? DEFAULT_STREAM_LIMITS) },
        ResourcesResolver,
        BreakGlassResolver,
        ...COMMAND_HANDLERS,
        ...QUERY_HANDLERS,
      ],
      exports: [CqrsModule],
    };
  }
}
