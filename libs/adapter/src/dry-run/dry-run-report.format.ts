import { stringify as toYaml } from 'yaml';
import type { CelResult, ExecutionResult, ResourceOperation } from '../executor/execution-result.js';
import type { ApiExchange } from '../simulation/api-exchange.js';
import type { SimulatedCall } from '../simulation/simulated-cluster.js';
import type { DryRunReport } from './dry-run.js';

const indent = (text: string, by: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n');

/** `value` as compact JSON (bigint-safe), for one-line CEL results. */
export function compactJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) ?? 'undefined';
}

function oneLine(expression: string): string {
  return expression.replace(/\s+/g, ' ').trim();
}

export function formatCel(result: CelResult): string {
  const outcome = 'error' in result ? `error: ${result.error}` : `= ${compactJson(result.value)}`;
  return `  ${result.where}\n      ${oneLine(result.expression)}\n      ${outcome}`;
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

export function formatExchange(exchange: ApiExchange): string {
  return `  ${exchange.method.padEnd(6)} ${pathOf(exchange.url)} → ${exchange.status} (${exchange.answeredBy})`;
}

function objectName(call: { name?: string; namespace?: string }): string {
  return `${call.namespace ? `${call.namespace}/` : ''}${call.name ?? ''}`;
}

export function formatCall(call: SimulatedCall, withBody: boolean): string {
  const target =
    call.name !== undefined
      ? objectName(call)
      : `selector ${Object.entries(call.labelSelector ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(',')}${call.namespace ? ` in ${call.namespace}` : ''}`;
  const policy = call.propagationPolicy ? ` propagationPolicy=${call.propagationPolicy}` : '';
  const via = call.via ? ` [${call.via}]` : '';
  const line = `  ${call.verb.padEnd(8)} ${call.apiVersion} ${call.kind} ${target}${policy}${via} → ${call.outcome}`;
  return withBody && call.object ? `${line}\n${indent(toYaml(call.object), '      ')}` : line;
}

export function formatOperation(op: ResourceOperation): string {
  const via = op.consumer ? ` [maestro:${op.consumer}]` : '';
  return `  ${op.resource.padEnd(22)} ${op.operation.padEnd(8)} ${op.kind} ${objectName(op)}${via}: ${op.reason}`;
}

export function formatAdapter(result: ExecutionResult): string[] {
  const a = result.adapter;
  const lines = [
    `  executionStatus=${a.executionStatus} resourcesSkipped=${a.resourcesSkipped} skipReason=${JSON.stringify(a.skipReason)}`,
    `  errorReason=${JSON.stringify(a.errorReason)} errorMessage=${JSON.stringify(a.errorMessage)}`,
  ];
  if (a.executionError) lines.push(`  executionError: ${a.executionError.phase}/${a.executionError.step}: ${a.executionError.message}`);
  for (const [name, error] of Object.entries(a.resourceErrors)) lines.push(`  resourceErrors.${name}: ${error.message}`);
  return lines;
}

/** What the executor read from the resource (deleting, policy, pause), ownership decisions and status overrides. */
function formatPolicy(result: DryRunReport['result']): string[] {
  const { resource, outcomes, overrides } = result.policy;
  const lines = [
    `  deleting=${resource.deleting} deletion_policy=${resource.deletionPolicy} paused=${resource.paused}${resource.from ? ` (from precondition ${resource.from})` : ' (no precondition returned the resource)'}`,
  ];
  for (const o of outcomes) lines.push(`  ${o.resource}: ${o.outcome}: ${o.message}`);
  for (const o of overrides) lines.push(`  payload ${o.payload}: ${o.type}=${o.status}/${o.reason} (set by the executor): ${o.message}`);
  return lines;
}

/**
 * Human-readable dry-run report: phases, every CEL result, every API exchange, every Kubernetes
 * or Maestro call (with the manifests it would send), resource operations, adapter metadata,
 * Decom's policy decisions and the status payloads the post actions would send.
 */
export function formatDryRun(report: DryRunReport): string {
  const { result, event } = report;
  const out: string[] = [];
  out.push(
    `Dry run of ${report.taskConfig} as adapter "${report.adapter.name}"${report.adapter.version ? ` ${report.adapter.version}` : ''}`,
  );
  out.push(`Event: ${event.kind ?? '?'} ${event.id}${event.generation !== undefined ? ` (generation ${event.generation})` : ''}`, '');
  out.push('Phases');
  for (const phase of result.phases) out.push(`  ${phase.phase.padEnd(17)} ${phase.status}${phase.detail ? `: ${phase.detail}` : ''}`);
  out.push('', `CEL (${result.celResults.length} evaluations)`, ...result.celResults.map(formatCel));
  out.push('', 'HyperFleet API (answered from the recorded responses; nothing was sent)', ...report.apiExchanges.map(formatExchange));
  out.push('', 'Kubernetes and Maestro (simulated; nothing was sent)', ...report.kubernetesCalls.map((c) => formatCall(c, true)));
  out.push(
    '',
    'Resources',
    ...(result.operations.length > 0 ? result.operations.map(formatOperation) : ['  (resource phase did not run)']),
  );
  out.push('', 'Adapter', ...formatAdapter(result));
  out.push('', 'Decom policies (docs/policies.md "Adapter side")', ...formatPolicy(result));
  out.push('', 'Status payloads (would be sent)');
  if (report.statusReports.length === 0) out.push('  (none)');
  for (const sent of report.statusReports)
    out.push(`  ${sent.method} ${pathOf(sent.url)}`, indent(JSON.stringify(sent.body, null, 2), '    '));
  return `${out.join('\n')}\n`;
}
