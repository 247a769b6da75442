/**
 * Process plumbing shared by the Decom processes (`decom start`, `decom api`, `decom worker`): waiting for a
 * dependency at start, the job queue by profile, the process's metrics port, dependency probes, Kubernetes
 * recovery, closing what a start opened, the heap growth, and the contract of adapters hosted in the API
 * process. Nothing here serves an API or runs an adapter: the apps do, each from its `main.ts`.
 */
export * from './adapter-hosting.js';
export * from './build-info.js';
export * from './closers.js';
export * from './dependency-wait.js';
export * from './engine-probes.js';
export * from './heap-growth.js';
export * from './job-queue-factory.js';
export * from './kubernetes-recovery.js';
export * from './outage-log.js';
export * from './process-metrics.js';
