import type { DiscoverySpec, ResourceSpec } from '../config/task-config.types.js';
import { findInWork, type ManifestQuery } from '../transport/maestro/nested-manifests.js';
import type { DiscoveryQuery, KubeObject, ResourceTransport } from '../transport/resource-transport.port.js';
import type { ExecutionContext } from './execution-context.js';
import { renderManifest } from './render-tree.js';

/** Which transport a resource goes through; `maestro` is absent when no Maestro client is configured. */
export interface TransportResolver {
  readonly kubernetes: ResourceTransport;
  readonly maestro?: (consumer: string) => ResourceTransport;
}

/** A resource rendered for this execution: desired object, how to find it, and through what. */
export interface Target {
  readonly spec: ResourceSpec;
  readonly desired: KubeObject;
  readonly query: DiscoveryQuery;
  readonly transport: ResourceTransport;
  /** Maestro consumer, for traces. */
  readonly consumer?: string;
  readonly nested: readonly { readonly name: string; readonly query: ManifestQuery }[];
}

/** A resource cannot be rendered (template error, bad manifest, no transport). */
export class TargetError extends Error {}

function renderLocation(
  ctx: ExecutionContext,
  discovery: DiscoverySpec,
): { namespace?: string; byName?: string; labelSelector?: Record<string, string> } {
  const namespace = discovery.namespace ? ctx.render(discovery.namespace).trim() : '';
  return {
    ...(namespace !== '' && namespace !== '*' && { namespace }),
    ...(discovery.byName && { byName: ctx.render(discovery.byName) }),
    ...(discovery.bySelectors && {
      labelSelector: Object.fromEntries(discovery.bySelectors.map((s) => [ctx.render(s.key), ctx.render(s.value)])),
    }),
  };
}

/**
 * Renders a resource's manifest, discovery and nested discoveries, and picks its transport
 * (Kubernetes, or Maestro for `target_cluster`).
 * @throws TemplateExecError, ManifestError, TargetError.
 */
export function renderTarget(ctx: ExecutionContext, spec: ResourceSpec, transports: TransportResolver): Target {
  const desired = renderManifest(ctx, spec.manifest);
  const query: DiscoveryQuery = { apiVersion: desired.apiVersion, kind: desired.kind, ...renderLocation(ctx, spec.discovery) };
  const nested = spec.nestedDiscoveries.map((n) => ({ name: n.name, query: renderLocation(ctx, n.discovery) }));
  if (spec.transport.client === 'kubernetes') return { spec, desired, query, transport: transports.kubernetes, nested };
  const consumer = ctx.render(spec.transport.targetCluster).trim();
  if (consumer === '') throw new TargetError('transport.maestro.target_cluster rendered empty');
  if (!transports.maestro) throw new TargetError('maestro transport is not configured (clients.maestro.http_server_address and source_id)');
  return { spec, desired, query, transport: transports.maestro(consumer), consumer, nested };
}

/**
 * Stores (or leaves out) a resource's discovered object and promotes its nested discoveries
 * (manifests inside a ManifestWork, with their status feedback) next to it. Absent objects never
 * appear as `null` (STACK.md "CEL"). Decom promotes nested objects whenever the work is known
 * (before, after apply and after delete), so they stay visible while Maestro has not confirmed
 * a deletion.
 */
export function remember(ctx: ExecutionContext, target: Target, object: KubeObject | undefined): void {
  if (object) ctx.resources[target.spec.name] = object;
  else delete ctx.resources[target.spec.name];
  for (const nested of target.nested) {
    const found = object && findInWork(object, nested.query);
    if (found) ctx.resources[nested.name] = found;
    else delete ctx.resources[nested.name];
  }
}
