/**
 * A local Maestro-compatible server for tests: Maestro's resource-bundle REST API, a simulated
 * work agent (status feedback, asynchronous deletion) and ManifestWork spec intake over gRPC
 * (`CloudEventService` Publish/Subscribe, at `grpcAddress`) and over the CloudEvents HTTP binding.
 * Built like libs/kube-local.
 */
export { startLocalMaestro } from './server.js';
export type { LocalMaestro, LocalMaestroOptions, ManifestSelector } from './local-maestro.js';
export type { ResourceBundle, StatusFeedbackValue, ManifestCondition, WorkCondition } from './resource-bundle.js';
export type { RecordedMaestroRequest } from './request-log.js';
export type { MaestroFault } from './maestro-faults.js';
export { workId } from './work-id.js';
export { parseSearch, SearchSyntaxError } from './search-filter.js';
export { MANIFEST_BUNDLE_DATA_TYPE } from './cloudevent-intake.js';
