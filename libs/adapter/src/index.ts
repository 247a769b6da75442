/**
 * The adapter runtime: task-config loading (with load-time CEL/template checks), HyperFleet API
 * client, Kubernetes and Maestro transports and the four-phase executor (built on @decom/cel and
 * @decom/go-template); and the authoring tools' engines: dry run (recorded API + simulated
 * cluster) and deletion plan (read-only simulation over the live state).
 * @see HyperFleet: hyperfleet-adapter docs/configuration.md, seeds/000 "Adapter Framework Changes",
 * docs/adapter-tools.md,
 *   docs/adapter-maestro.md.
 */

export { parseTaskConfig, loadTaskConfigFile, type TaskConfigOptions } from './config/task-config.parser.js';
export { parseAdapterConfig, loadAdapterConfigFile, type AdapterConfigOptions } from './config/adapter-config.parser.js';
export { unsetRequiredEnv } from './config/required-env.js';
export { listAdapterFiles, HYPERFLEET_TASK_FILES, HYPERFLEET_DEPLOYMENT_FILES, type AdapterFiles } from './config/adapter-files.js';
export {
  configKindOf,
  isDeploymentConfigFile,
  isDeploymentConfigName,
  type AdapterConfigKind,
  type ConfigKindEvidence,
} from './config/config-kind.js';
export { loadAdapterDirectory, type LoadedAdapter } from './config/adapter-directory.loader.js';
export { TaskConfigError, formatConfigIssue, type ConfigIssue } from './config/task-config-error.js';
export type * from './config/task-config.types.js';
export {
  CONDITION_OPERATORS,
  RESERVED_CONTEXT_NAMES,
  DELETED_TIME_VARIABLE,
  DELETE_POLICIES,
  ADOPTION_POLICIES,
} from './config/task-config.types.js';
export type { AdapterDeploymentConfig, MaestroClientConfig } from './config/adapter-config.types.js';

export { HttpHyperfleetApiClient, type FetchLike, type HyperfleetApiRuntime } from './api-client/hyperfleet-api.client.js';
export { inProcessFetch, type InjectRequest } from './api-client/in-process-fetch.js';
export type { HyperfleetApiClient, HyperfleetApiClientOptions, ApiRequest, ApiResponse } from './api-client/hyperfleet-api.types.js';
export {
  ApiCallError,
  ApiResourceNotFoundError,
  ApiRouteNotFoundError,
  ApiHttpError,
  ApiTransportError,
  NO_ROUTE_CODE,
} from './api-client/api-errors.js';
export { resolveApiUrl } from './api-client/api-url.js';
export { RunReadCache } from './api-client/run-read-cache.js';
export { tokenFileSource, type BearerTokenSource } from './api-client/token-file.js';
export { retryDelayMs, isRetryableStatus } from './api-client/retry-backoff.js';

export type { ResourceTransport, KubeObject, ObjectRef, DiscoveryQuery, DeleteOutcome } from './transport/resource-transport.port.js';
export { TransportError, isConnectionFailure } from './transport/transport-error.js';
export { GENERATION_ANNOTATION, generationOf, newestByGeneration } from './transport/newest-generation.js';
export { KubernetesTransport } from './transport/kubernetes/kubernetes.transport.js';
export { MaestroTransport, type SpecPublisher } from './transport/maestro/maestro.transport.js';
export {
  MaestroHttpClient,
  MANIFEST_BUNDLE_DATA_TYPE,
  type MaestroHttpClientOptions,
  type SpecEvent,
  type SpecAction,
} from './transport/maestro/maestro-http.client.js';
export { maestroTransports, type MaestroTransportOverrides } from './transport/maestro/maestro-transport.factory.js';
export {
  MaestroGrpcSourceClient,
  type MaestroGrpcSourceClientOptions,
  type WorkStatusEvent,
  type StatusSubscription,
} from './transport/maestro/maestro-grpc-source.client.js';
export {
  manifestWorkId,
  manifestWorkProblem,
  isManifestWork,
  MANIFEST_WORK_API_VERSION,
  MANIFEST_WORK_KIND,
} from './transport/maestro/manifest-work.js';
export { bundleToManifestWork, type ResourceBundle } from './transport/maestro/resource-bundle.js';
export { findInWork, withManifestStatus, manifestMatches, type ManifestQuery } from './transport/maestro/nested-manifests.js';

export { AdapterExecutor, type AdapterRuntimeDeps, type AdapterEvent, type ExecutionRun } from './executor/adapter-executor.js';
export { FENCE_HEADER, FenceLost, fenceHeader, type ExecutionFence, type FenceVerdict } from './executor/run-fence.js';
export type { TransportResolver } from './executor/resource-target.js';
export type * from './executor/execution-result.js';
export { decideResourceStep, decideApply, type ResourceStep, type ApplyDecision } from './executor/resource-plan.js';
export {
  OWNER_ANNOTATION,
  MANAGED_BY_LABEL,
  managedByValue,
  ownerMark,
  isOwnedBy,
  withOwner,
  withoutOwnershipMarks,
} from './executor/ownership.js';
export { decideAdoption, type AdoptionDecision } from './executor/adoption-policy.js';
export { manifestDifferences } from './executor/manifest-match.js';
export { DecomReason } from './executor/status-overrides.js';

export { SimulatedCluster, type SimulatedCall, type SimulatedClusterOptions } from './simulation/simulated-cluster.js';
export {
  RecordedResponsesApiClient,
  RecordedResponsesError,
  type RecordedResponsesFile,
} from './simulation/recorded-responses.api-client.js';
export { ReadOnlyApiClient } from './simulation/read-only.api-client.js';
export type { ApiExchange } from './simulation/api-exchange.js';
export { runDryRun, type DryRunInputs, type DryRunReport } from './dry-run/dry-run.js';
export { formatDryRun, compactJson } from './dry-run/dry-run-report.format.js';
export { SimulationInputError, loadEventFile, loadDiscoveryFile, siblingDeploymentConfig, rawYaml } from './dry-run/dry-run-inputs.js';
export { planDeletion, type DeletionPlanOptions } from './plan/deletion-plan.js';
export { formatDeletionPlan } from './plan/deletion-plan.format.js';
export { PlanError, loadPlanEvent } from './plan/plan-event.js';
export type * from './plan/deletion-plan.types.js';
export { RELEASED_FROM_ANNOTATION, RELEASED_TIME_ANNOTATION, RELEASED_BY_ANNOTATION } from './executor/ownership.js';
export {
  listMarked,
  listOwned,
  managedKinds,
  markedFor,
  parseMark,
  type ManagedKind,
  type MarkedObject,
  type OwnerMark,
} from './leaks/marked-objects.js';
export { watchScopes, describeScope, type WatchScope } from './watch/watch-scopes.js';
export {
  ObjectWatch,
  describeWatchError,
  type ObjectChange,
  type ObjectWatchOptions,
  type WatchChangeType,
  type WatchState,
  type WatchStatus,
} from './watch/object-watch.js';
