/**
 * Health of a Decom process, shared by `decom start`, `decom api` and `decom worker`: dependency probes
 * (`/readyz`, `decom_dependency_up`), the start-up phase, and the readiness answer.
 */
export * from './dependency-probes.js';
export * from './jwks-probe.js';
export * from './readiness-report.js';
export * from './redis-probe.js';
export * from './startup-state.js';
