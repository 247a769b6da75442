import type { HyperfleetApiClient } from '../api-client/hyperfleet-api.types.js';
import type { TaskConfig } from '../config/task-config.types.js';
import { AdapterExecutor } from '../executor/adapter-executor.js';
import type { ExecutionResult } from '../executor/execution-result.js';
import { ReadOnlyApiClient } from '../simulation/read-only.api-client.js';
import { SimulatedCluster } from '../simulation/simulated-cluster.js';
import type { ResourceTransport } from '../transport/resource-transport.port.js';
import type { AdapterPass, Blocker, DeletionPlan, PlanAdapter, PlanPass, WhenResult } from './deletion-plan.types.js';
import { loadPlanEvent } from './plan-event.js';

export interface DeletionPlanOptions {
  readonly adapters: readonly PlanAdapter[];
  /** The resource's `href` (`/api/hyperfleet/v1/clusters/<id>`) or its id. */
  readonly resource: string;
  /** The live API; only GETs are sent. */
  readonly api: HyperfleetApiClient;
  /** The live cluster; only read. */
  readonly kubernetes: ResourceTransport;
  /** Live Maestro per consumer; only read. Without it, Maestro resources are reported as blocked. */
  readonly maestro?: (consumer: string) => ResourceTransport;
  /** Default 10. */
  readonly maxPasses?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly now?: () => Date;
}

const DELETE_WHEN = /^resources\[(\d+)\]\.lifecycle\.delete\.when\.expression$/;

function deleteWhens(task: TaskConfig, result: ExecutionResult): WhenResult[] {
  return result.celResults.flatMap((cel) => {
    const match = DELETE_WHEN.exec(cel.where);
    const spec = match ? task.resources[Number(match[1])] : undefined;
    if (!spec) return [];
    return [{ resource: spec.name, expression: cel.expression, ...('error' in cel ? { error: cel.error } : { value: cel.value }) }];
  });
}

function finalizedOf(result: ExecutionResult): AdapterPass['finalized'] {
  for (const report of result.statusReports) {
    const conditions = (report as { conditions?: unknown } | null)?.conditions;
    if (!Array.isArray(conditions)) continue;
    const finalized = conditions.find((c) => (c as { type?: unknown })?.type === 'Finalized') as
      { status?: unknown; reason?: unknown } | undefined;
    if (finalized && typeof finalized.status === 'string') {
      return {
        status: finalized.status,
        ...(typeof finalized.reason === 'string' && finalized.reason !== '' && { reason: finalized.reason }),
      };
    }
  }
  return undefined;
}

/** Did this pass change anything (a delete that happened, or an apply)? */
function madeProgress(pass: PlanPass): boolean {
  if (pass.completedAfter.length > 0) return true;
  return pass.adapters.some((a) =>
    a.operations.some(
      (op) =>
        (op.operation === 'delete' && !op.reason.startsWith('already gone')) || ['create', 'update', 'recreate'].includes(op.operation),
    ),
  );
}

/** What keeps each adapter from finishing, judged on its last pass. */
function blockersOf(pass: PlanPass, adapters: readonly PlanAdapter[], cluster: SimulatedCluster): Blocker[] {
  const blockers: Blocker[] = [];
  for (const run of pass.adapters) {
    const task = adapters.find((a) => a.name === run.adapter)?.task;
    if (run.operations.length === 0) {
      if (run.executionStatus === 'failed') blockers.push({ adapter: run.adapter, reason: `execution failed: ${run.errorMessage}` });
      else if (run.skipReason) blockers.push({ adapter: run.adapter, reason: `the resource phase is skipped: ${run.skipReason}` });
      // No cluster call at all (e.g. paused): the adapter still says why it is not finalized.
      else if (run.finalized && run.finalized.status !== 'True') {
        blockers.push({
          adapter: run.adapter,
          reason: `reports Finalized=${run.finalized.status}${run.finalized.reason ? ` (${run.finalized.reason})` : ''}`,
        });
      }
      continue;
    }
    for (const op of run.operations) {
      // Left in place on purpose (orphaned, or not Decom's): nothing to wait for.
      if (op.operation === 'orphan' || op.operation === 'foreign') continue;
      const when = run.deleteWhen.find((w) => w.resource === op.resource);
      const spec = task?.resources.find((r) => r.name === op.resource);
      if (op.operation === 'blocked') blockers.push({ adapter: run.adapter, resource: op.resource, reason: op.reason });
      else if (op.operation === 'wait') {
        const deleteCall = [...cluster.calls].reverse().find((c) => c.verb === 'delete' && c.kind === op.kind && c.name === op.name);
        blockers.push({
          adapter: run.adapter,
          resource: op.resource,
          reason: deleteCall?.outcome.startsWith('terminating (finalizers') ? deleteCall.outcome : op.reason,
        });
      } else if (op.operation !== 'delete' && !op.reason.includes('lifecycle.create.when condition evaluated to false')) {
        const reason = !spec?.lifecycle?.delete
          ? 'no lifecycle.delete: this adapter never deletes it'
          : when && 'error' in when
            ? `lifecycle.delete.when fails: ${when.error}`
            : `lifecycle.delete.when stays ${when ? JSON.stringify(when.value) : 'unevaluated'}: ${when?.expression.replace(/\s+/g, ' ').trim() ?? spec.lifecycle.delete.when.source}`;
        blockers.push({ adapter: run.adapter, resource: op.resource, reason });
      }
    }
    if (run.executionStatus === 'failed' && !blockers.some((b) => b.adapter === run.adapter)) {
      blockers.push({ adapter: run.adapter, reason: `execution failed: ${run.errorMessage}` });
    }
    if (run.finalized && run.finalized.status !== 'True' && !blockers.some((b) => b.adapter === run.adapter)) {
      blockers.push({
        adapter: run.adapter,
        reason: `reports Finalized=${run.finalized.status}${run.finalized.reason ? ` (${run.finalized.reason})` : ''}`,
      });
    }
  }
  return blockers;
}

/**
 * Simulates deletion passes of a resource marked for deletion over every adapter: each pass runs
 * each adapter once against the live state seen through a read-only view (deletes are assumed
 * to succeed, except that finalizers hold an object; asynchronous deletions complete between
 * passes). Stops when a pass changes nothing, or after `maxPasses`. Nothing is written: the API
 * gets GETs only, the cluster and Maestro reads only.
 * @throws PlanError (not marked for deletion), the API client's errors (cannot read the resource).
 * @see docs/adapter-tools.md "plan".
 */
export async function planDeletion(options: DeletionPlanOptions): Promise<DeletionPlan> {
  const api = new ReadOnlyApiClient(options.api);
  const { event, resource } = await loadPlanEvent(api, options.resource);
  const cluster = new SimulatedCluster({
    live: options.kubernetes,
    ...(options.maestro && { liveMaestro: options.maestro }),
    ...(options.now && { now: options.now }),
  });
  const executors = options.adapters.map(
    (adapter) =>
      new AdapterExecutor(
        adapter.task,
        { name: adapter.name, ...(adapter.version && { version: adapter.version }) },
        {
          api,
          transport: cluster,
          ...(options.maestro && { maestro: (consumer: string) => cluster.forConsumer(consumer) }),
          env: options.env ?? {},
          config: adapter.config ?? {},
          recreateWait: { timeoutMs: 0, intervalMs: 1, sleep: async () => undefined },
          ...(options.now && { now: options.now }),
        },
      ),
  );
  const passes: PlanPass[] = [];
  const maxPasses = options.maxPasses ?? 10;
  let progressing = true;
  while (progressing && passes.length < maxPasses) {
    const adapters: AdapterPass[] = [];
    for (const [i, executor] of executors.entries()) {
      const adapter = options.adapters[i] as PlanAdapter;
      const result = await executor.execute(event);
      adapters.push({
        adapter: adapter.name,
        operations: result.operations,
        deleteWhen: deleteWhens(adapter.task, result),
        executionStatus: result.status,
        errorMessage: result.adapter.errorMessage,
        skipReason: result.adapter.skipReason,
        ...(finalizedOf(result) && { finalized: finalizedOf(result) }),
      });
    }
    const pass: PlanPass = { number: passes.length + 1, adapters, completedAfter: cluster.settle() };
    passes.push(pass);
    progressing = madeProgress(pass);
  }
  const last = passes.at(-1) as PlanPass;
  const blockers = blockersOf(last, options.adapters, cluster);
  const outcome = blockers.length === 0 ? 'complete' : progressing ? 'unfinished' : 'blocked';
  return { resource, passes, outcome, blockers };
}
