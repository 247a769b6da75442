import type { HyperfleetApiClient } from '../api-client/hyperfleet-api.types.js';
import type { AdapterEvent } from '../executor/adapter-executor.js';
import type { DeletionPlan } from './deletion-plan.types.js';

/** The resource cannot be planned (unknown, or not marked for deletion). */
export class PlanError extends Error {
  override readonly name = 'PlanError';
}

/**
 * Reads the resource (`href`, or an id through the kind-agnostic `/resources/{id}` route) and
 * builds the event Sentinel would send for it: `{id, kind, href, generation, owner_references?}`.
 * @throws PlanError when it is not marked for deletion; the API client's errors when it cannot be read.
 */
export async function loadPlanEvent(
  api: HyperfleetApiClient,
  resource: string,
): Promise<{ event: AdapterEvent; resource: DeletionPlan['resource'] }> {
  const url = resource.startsWith('/') || /^https?:\/\//.test(resource) ? resource : `/resources/${encodeURIComponent(resource)}`;
  const body = (await api.request({ method: 'GET', url })).body as Record<string, unknown> | undefined;
  if (!body || typeof body.id !== 'string' || typeof body.kind !== 'string') throw new PlanError(`GET ${url} did not return a resource`);
  const deletedTime = typeof body['deleted_time'] === 'string' ? body['deleted_time'] : undefined;
  if (!deletedTime) throw new PlanError(`${body.kind} ${body.id} is not marked for deletion (no deleted_time): DELETE it first`);
  const owners = body['owner_references'];
  const owner = Array.isArray(owners) ? owners[0] : owners;
  const event: AdapterEvent = {
    id: body.id,
    kind: body.kind,
    ...(typeof body['href'] === 'string' && { href: body['href'] }),
    ...(typeof body['generation'] === 'number' && { generation: body['generation'] }),
    ...(owner && typeof owner === 'object' && { owner_references: owner as AdapterEvent['owner_references'] }),
  };
  return {
    event,
    resource: {
      id: body.id,
      kind: body.kind,
      ...(event.href !== undefined && { href: event.href }),
      ...(event.generation !== undefined && { generation: event.generation }),
      deleted_time: deletedTime,
    },
  };
}
