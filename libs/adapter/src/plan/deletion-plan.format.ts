import { compactJson } from '../dry-run/dry-run-report.format.js';
import type { ResourceOperation } from '../executor/execution-result.js';
import type { AdapterPass, DeletionPlan } from './deletion-plan.types.js';

function target(op: ResourceOperation): string {
  return `${op.kind} ${op.namespace ? `${op.namespace}/` : ''}${op.name}${op.consumer ? ` [maestro:${op.consumer}]` : ''}`;
}

function verb(op: ResourceOperation): string {
  if (op.operation === 'delete') return op.reason.startsWith('already gone') ? 'gone' : 'DELETE';
  if (op.operation === 'wait') return 'pending';
  if (op.operation === 'skip') return op.reason.includes('lifecycle.create.when') ? 'absent' : 'keep';
  if (op.operation === 'blocked') return 'BLOCKED';
  if (op.operation === 'foreign') return 'not-ours';
  return op.operation.toUpperCase();
}

function adapterLines(run: AdapterPass): string[] {
  const lines = [`  ${run.adapter}`];
  for (const op of run.operations) {
    const when = run.deleteWhen.find((w) => w.resource === op.resource);
    const whenText = when ? ` — delete.when ${'error' in when ? `error: ${when.error}` : `= ${compactJson(when.value)}`}` : '';
    lines.push(`    ${verb(op).padEnd(8)} ${target(op)} (${op.resource}): ${op.reason}${whenText}`);
  }
  if (run.operations.length === 0)
    lines.push(`    (no resource steps) ${run.executionStatus === 'failed' ? `failed: ${run.errorMessage}` : run.skipReason}`);
  else if (run.executionStatus === 'failed') lines.push(`    execution failed: ${run.errorMessage}`);
  if (run.finalized)
    lines.push(`    would report Finalized=${run.finalized.status}${run.finalized.reason ? ` (${run.finalized.reason})` : ''}`);
  return lines;
}

/** Human-readable deletion plan: passes in order, each adapter's steps and `when` values, then the outcome and blockers. */
export function formatDeletionPlan(plan: DeletionPlan): string {
  const r = plan.resource;
  const details = [r.generation !== undefined ? `generation ${r.generation}` : undefined, `deleted_time ${r.deleted_time ?? '?'}`]
    .filter(Boolean)
    .join(', ');
  const out = [
    `Deletion plan for ${r.kind} ${r.id} (${details})`,
    'Simulated: deletes are assumed to succeed (finalizers still hold objects); nothing was changed.',
  ];
  for (const pass of plan.passes) {
    out.push('', `Pass ${pass.number}`);
    for (const run of pass.adapters) out.push(...adapterLines(run));
    for (const done of pass.completedAfter) out.push(`  then: ${done} is gone (asynchronous deletion completes)`);
  }
  out.push('');
  if (plan.outcome === 'complete') out.push(`Outcome: complete after ${plan.passes.length} pass(es); nothing blocks.`);
  else
    out.push(
      `Outcome: ${plan.outcome === 'blocked' ? 'BLOCKED (a pass changed nothing)' : `unfinished after ${plan.passes.length} passes`}`,
    );
  for (const blocker of plan.blockers) out.push(`  ${blocker.adapter}${blocker.resource ? ` ${blocker.resource}` : ''}: ${blocker.reason}`);
  return `${out.join('\n')}\n`;
}
