/**
 * The adapter runtime: task-config loading, HyperFleet API client, Kubernetes transport and the
 * four-phase executor; plus the CEL and Go-template engines it is built on.
 * @see hyperfleet-contract.md §2, seeds/000 "Adapter Framework Changes".
 */
export * from './cel/index.js';
export * from './template/index.js';

export { parseTaskConfig, loadTaskConfigFile } from './config/task-config.parser.js';
export { parseAdapterConfig, loadAdapterConfigFile } from './config/adapter-config.parser.js';
export { loadAdapterDirectory, type LoadedAdapter } from './config/adapter-directory.loader.js';
export { TaskConfigError, formatConfigIssue, type ConfigIssue } from './config/task-config-error.js';
export { parseGoDuration } from './config/go-duration.js';
export type * from './config/task-config.types.js';
export { CONDITION_OPERATORS, RESERVED_CONTEXT_NAMES, DELETED_TIME_VARIABLE } from './config/task-config.types.js';
export type { AdapterDeploymentConfig } from './config/adapter-config.types.js';

export { HttpHyperfleetApiClient, type HyperfleetApiRuntime } from './api-client/hyperfleet-api.client.js';
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
export { retryDelayMs, isRetryableStatus } from './api-client/retry-backoff.js';

export type { ResourceTransport, KubeObject, ObjectRef, DiscoveryQuery, DeleteOutcome } from './transport/resource-transport.port.js';
export { TransportError } from './transport/transport-error.js';
export { GENERATION_ANNOTATION, generationOf, newestByGeneration } from './transport/newest-generation.js';
export { KubernetesTransport } from './transport/kubernetes/kubernetes.transport.js';

export { AdapterExecutor, type AdapterRuntimeDeps, type AdapterEvent } from './executor/adapter-executor.js';
export type * from './executor/execution-result.js';
export { decideResourceStep, decideApply, type ResourceStep, type ApplyDecision } from './executor/resource-plan.js';
