/**
 * One line per top-level `decom` command: shown by `decom --help` without loading the command's modules
 * (main.ts loads only the command that runs), and by the command itself.
 */
export const COMMAND_DESCRIPTIONS = {
  start:
    'start the engine: REST API on $PORT (default 8000), metrics on $DECOM_METRICS_PORT (default 9090), projections, jobs and adapters',
  demo: 'run the deletion scenario of seeds 000/001 on a fresh embedded engine and print a timeline',
  adapter: 'tools for adapter authors (validate, dry-run, plan)',
  api: 'start the API role: REST API, projections, dispatch, sweeper and hard delete; no adapter runs (see `decom worker`)',
  worker:
    'run adapter jobs from Redis (REDIS_URL); adapters call the API at DECOM_API_URL and Kubernetes via KUBECONFIG (else $DECOM_DATA_DIR/kubeconfig of a running engine)',
  jobs: 'the job queue: dead letters (through the engine API, or BullMQ on REDIS_URL with --redis)',
  projections: 'read models derived from the event log',
  history: "print a resource's recorded history: time, event, caller, key fields (works after hard delete)",
  leaks: 'list objects whose Decom owner marker names a resource that no longer exists; --delete --reason removes them (audited)',
  'break-glass': 'the two-person rule: list break-glass requests, approve or reject one (administrators)',
  delete: 'request the deletion of a resource and its subresources; --dry-run shows what it would do and records nothing',
  protect: 'set deletion protection on a resource (a DELETE reaching it is refused); --clear --reason clears it (administrators)',
  abandon:
    "count one adapter's cleanup of a deleting resource as done without it (administrators; audited, its objects inventoried as leaks)",
} as const;

export type CommandName = keyof typeof COMMAND_DESCRIPTIONS;
