/**
 * The worker app's public entry point: the `decom worker` process (`startWorkerProcess`, main.ts) and what
 * `decom start` needs to host adapters inside the API process (`adapterHost`). Other apps import the worker
 * only from here.
 */
export { startWorkerProcess, WorkerRefused, WorkerStartFailed, type WorkerProcess, type WorkerProcessOptions } from './main.js';
export { adapterHost, type AdapterHostingOptions } from './process/hosted-adapters.js';
export { adapterRunMetrics } from './process/adapter-run-metrics.js';
export { startAdapterWorker, UnknownAdapter, type AdapterWorker, type AdapterWorkerOptions } from './worker-runtime.js';
export { checkAdapterConfigs, loadAdapters, AdapterConfigsInvalid, type HostedAdapter, type AdapterHostOptions } from './adapter-host.js';
export { FAILURE_BACKOFF_CAP_MS, type AdapterRunObserver, type AdapterRunTiming } from './processors/adapter-run.processor.js';
export { MAX_TRIGGERED_RUNS, type RunEnd, type WatchTriggerObserver } from './watch/watch-triggers.js';
