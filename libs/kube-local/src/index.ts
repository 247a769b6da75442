export { startLocalKube } from './server.js';
export type { LocalKube, LocalKubeOptions } from './local-kube.js';
export type { RecordedKubeRequest, RequestFilter } from './request-log.js';
export type { FaultInjector, FaultHandle, FaultSpec, FaultMatch, FaultEffect } from './faults.js';
export type { KindRegistration, PropagationPolicy } from './kinds.js';
export type { StoreChange } from './object-store.js';
export { KubeStatusError, type KubeStatus, type StatusReason, type StatusCause, type StatusDetails } from './status-errors.js';
export { kubeConfigFor, kubeconfigYamlFor } from './kubeconfig.js';
export { parseLabelSelector, matchesLabels, SelectorSyntaxError, type LabelRequirement } from './label-selector.js';
