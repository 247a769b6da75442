/**
 * What an adapter run reports into the process's metrics (`decom_adapter_*`): the operation from the
 * executor's policy report, the outcome, the duration.
 */
import type { AdapterOperation, AdapterOutcome, DecomMetrics } from '@decom/metrics';
import type { AdapterRunObserver } from '../processors/adapter-run.processor.js';

/** The adapter-run observer that feeds `decom_adapter_*`, chained before `next`. */
export function adapterRunMetrics(metrics: DecomMetrics, next?: AdapterRunObserver): AdapterRunObserver {
  return (run) => {
    const policy = run.result?.policy.resource;
    const operation: AdapterOperation = policy?.deleting ? (policy.deletionPolicy === 'Orphan' ? 'orphan' : 'delete') : 'apply';
    const outcome: AdapterOutcome = run.failure
      ? run.failure.kind === 'transient'
        ? 'transient_error'
        : 'terminal_error'
      : run.progress?.kind === 'wait'
        ? 'in_progress'
        : 'success';
    metrics.observeAdapterRun({ adapter: run.adapter, resourceId: run.job.event.data.id, operation, outcome, seconds: run.seconds ?? 0 });
    next?.(run);
  };
}
