/**
 * The worker app's public entry point: what a composition root (`decom start`, `decom worker`) needs to host
 * adapters on the job queue. Other apps import the worker only from here.
 */
export { startAdapterWorker, UnknownAdapter, type AdapterWorker, type AdapterWorkerOptions } from './worker-runtime.js';
export { checkAdapterConfigs, loadAdapters, AdapterConfigsInvalid, type HostedAdapter, type AdapterHostOptions } from './adapter-host.js';
export { FAILURE_BACKOFF_CAP_MS, type AdapterRunObserver, type AdapterRunTiming } from './processors/adapter-run.processor.js';
export { MAX_TRIGGERED_RUNS, type RunEnd, type WatchTriggerObserver } from './watch/watch-triggers.js';
