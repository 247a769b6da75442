import type { KubeObject, ObjectRef } from '../transport/resource-transport.port.js';
import { isConnectionFailure } from '../transport/transport-error.js';
import type { ExecutionContext } from './execution-context.js';
import type { ResourceOperation } from './execution-result.js';
import type { Target } from './resource-target.js';

/** `adapter.errorReason` and the `Health` reason when the cluster could not be reached. */
export const CONNECTION_FAILURE_REASON = 'ConnectionFailure';

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The reference of a discovered object (apiVersion/kind from the manifest when the server left them out). */
export function refOf(object: KubeObject, fallback: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion ?? fallback.apiVersion,
    kind: object.kind ?? fallback.kind,
    name: object.metadata.name,
    ...(object.metadata.namespace && { namespace: object.metadata.namespace }),
  };
}

export function sameObject(a: KubeObject, b: KubeObject): boolean {
  if (a.metadata.uid && b.metadata.uid) return a.metadata.uid === b.metadata.uid;
  return a.metadata.name === b.metadata.name && a.metadata.namespace === b.metadata.namespace;
}

/** `Namespace abc`, `ConfigMap abc/cm` (for messages). */
export function describeObject(object: KubeObject): string {
  return `${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
}

/** One trace entry for a resource. */
export function operation(target: Target, object: KubeObject, kind: ResourceOperation['operation'], reason: string): ResourceOperation {
  return {
    resource: target.spec.name,
    operation: kind,
    reason,
    kind: object.kind ?? target.desired.kind,
    name: object.metadata.name,
    ...(object.metadata.namespace && { namespace: object.metadata.namespace }),
    ...(target.consumer && { consumer: target.consumer }),
  };
}

/**
 * Records a failed cluster call: a resource error (or a phase error when `resource` is false),
 * with reason `ConnectionFailure` when the cluster could not be reached at all, so the status
 * names the connection problem (docs/policies.md "Adapter side").
 */
export function failCall(
  ctx: ExecutionContext,
  step: string,
  text: string,
  error: unknown,
  scope: 'resource' | 'phase' = 'resource',
): void {
  const unreachable = isConnectionFailure(error);
  const reason = unreachable ? CONNECTION_FAILURE_REASON : 'ResourceFailed';
  if (unreachable) ctx.verdicts.connectionFailure ??= errorMessage(error);
  const detail = { phase: 'resources', step, message: text };
  if (scope === 'resource') ctx.failResource(step, detail, reason);
  else ctx.fail(reason, detail);
}
