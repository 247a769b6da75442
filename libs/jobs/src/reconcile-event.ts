/**
 * Checks an adapter-run payload is a CloudEvent in Sentinel's shape before an adapter acts
 * on it, whoever enqueued it. The envelope is validated by the `cloudevents` package (CloudEvents 1.0
 * JSON schema); `data` must carry `{id, kind, href, generation, owner_references?}`.
 */
import { CloudEvent, ValidationError } from 'cloudevents';
import type { ReconcileCloudEvent } from './job-names.js';
import { TerminalError } from './job-queue.port.js';

/** A malformed payload: retrying cannot fix it, so it is terminal. */
export class InvalidReconcileEvent extends TerminalError {}

/** @throws InvalidReconcileEvent naming every problem found. */
export function parseReconcileEvent(raw: unknown): ReconcileCloudEvent {
  const problems: string[] = [];
  if (typeof raw !== 'object' || raw === null) throw new InvalidReconcileEvent('reconcile event: not an object');
  const event = raw as Record<string, unknown>;
  // The cloudevents constructor invents an id when none is given; a missing id is a broken publisher.
  if (typeof event['id'] !== 'string' || event['id'] === '') problems.push('id: required');
  try {
    new CloudEvent(event as never, true);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const e of (error.errors ?? []) as ({ instancePath?: string; message?: string } | string)[]) {
      problems.push(typeof e === 'string' ? e : `${e.instancePath || '(envelope)'}: ${e.message}`);
    }
    if (!error.errors?.length) problems.push(error.message);
  }
  const data = event['data'] as Record<string, unknown> | undefined;
  if (typeof data !== 'object' || data === null) problems.push('data: required object {id, kind, href, generation}');
  else {
    for (const field of ['id', 'kind', 'href'] as const)
      if (typeof data[field] !== 'string' || data[field] === '') problems.push(`data.${field}: required string`);
    if (!Number.isInteger(data['generation']) || (data['generation'] as number) < 1) problems.push('data.generation: required integer ≥ 1');
    const owner = data['owner_references'] as Record<string, unknown> | undefined;
    if (
      owner !== undefined &&
      (typeof owner !== 'object' || owner === null || typeof owner['id'] !== 'string' || typeof owner['kind'] !== 'string')
    ) {
      problems.push('data.owner_references: must be {id, kind, href}');
    }
  }
  if (problems.length > 0) throw new InvalidReconcileEvent(`reconcile event: ${problems.join('; ')}`);
  return event as unknown as ReconcileCloudEvent;
}
