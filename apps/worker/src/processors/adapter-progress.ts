/**
 * After an adapter run: is this adapter's part done, or must it run again? (seed 000 "The `when.expression`
 * is evaluated each reconciliation loop"; Decom: events and backoff instead of a poll interval).
 * Done when the resource is gone, or the adapter's stored report "meets" Reconciled at the current
 * generation (Available=True; Finalized=True while deleting). Otherwise wait with exponential backoff.
 */
import { isAdapterMet, type AdapterStatus } from '@decom/domain';

export type AdapterProgress =
  { readonly kind: 'done'; readonly reason: string } | { readonly kind: 'wait'; readonly reason: string; readonly requeueAfterMs: number };

export interface ProgressInput {
  /** The resource as the API returns it, or undefined after a 404 (hard or force deleted). */
  readonly resource?: { readonly generation: number; readonly deleted_time?: string };
  readonly status?: AdapterStatus;
  readonly adapter: string;
  /** How many re-runs already happened for this trigger. */
  readonly rerun: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export function adapterProgress(input: ProgressInput): AdapterProgress {
  if (!input.resource) return { kind: 'done', reason: 'resource is gone' };
  const met = isAdapterMet(
    {
      generation: input.resource.generation,
      ...(input.resource.deleted_time ? { deleted_time: input.resource.deleted_time } : {}),
      required_adapters: [input.adapter],
      adapter_statuses: input.status ? { [input.adapter]: input.status } : {},
      child_record_count: 0,
    },
    input.adapter,
  );
  if (met) return { kind: 'done', reason: input.resource.deleted_time ? 'Finalized=True' : 'Available=True' };
  const requeueAfterMs = Math.min(input.maxDelayMs, input.baseDelayMs * 2 ** Math.min(input.rerun, 20));
  const reason = input.resource.deleted_time ? 'cleanup not yet confirmed (Finalized is not True)' : 'not yet Available';
  return { kind: 'wait', reason, requeueAfterMs };
}
