/**
 * One break-glass request as folded from its events, and its status at a given time. The status is the one
 * rule the decider, the read model and the API share: a pending request past `expires_at` is `Expired`.
 */
import type { BreakGlassEvent, BreakGlassRequested } from './break-glass.events.js';

/** `Pending` until approved, rejected or voided; `Expired` is a pending one whose `expires_at` has passed. */
export type BreakGlassStatus = 'Pending' | 'Approved' | 'Rejected' | 'Voided' | 'Expired';

export const BREAK_GLASS_STATUSES: readonly BreakGlassStatus[] = ['Pending', 'Approved', 'Rejected', 'Voided', 'Expired'];

/** What a request is now: as requested, plus the decision once there is one (`decided_by`, `decision_reason`). */
export interface BreakGlassRequest extends Readonly<BreakGlassRequested['data']> {
  readonly decision?: {
    readonly status: 'Approved' | 'Rejected' | 'Voided';
    readonly by: string;
    /** RFC 3339 UTC. */
    readonly time: string;
    readonly reason?: string;
    /** `Voided` only: the target's generation at the approval (absent: the target was gone). */
    readonly current_generation?: number;
  };
}

/** @returns the status at `now` (RFC 3339 or a Date): a decided request keeps its decision; an undecided one expires at `expires_at`. */
export function breakGlassStatus(request: BreakGlassRequest, now: string | Date): BreakGlassStatus {
  if (request.decision) return request.decision.status;
  const at = typeof now === 'string' ? Date.parse(now) : now.getTime();
  return at >= Date.parse(request.expires_at) ? 'Expired' : 'Pending';
}

/** Folds one break-glass event into the requests by id. Pure; a decision for an unknown request is ignored (replay never throws). */
export function evolveBreakGlass(
  requests: ReadonlyMap<string, BreakGlassRequest> | undefined,
  event: BreakGlassEvent,
): ReadonlyMap<string, BreakGlassRequest> {
  const next = new Map(requests ?? []);
  if (event.type === 'BreakGlassRequested') return next.set(event.data.request_id, { ...event.data });
  const current = next.get(event.data.request_id);
  if (!current) return next;
  switch (event.type) {
    case 'BreakGlassApproved': {
      const d = event.data;
      return next.set(d.request_id, {
        ...current,
        decision: { status: 'Approved', by: d.approved_by, time: d.approved_time, ...(d.reason !== undefined && { reason: d.reason }) },
      });
    }
    case 'BreakGlassRejected': {
      const d = event.data;
      return next.set(d.request_id, {
        ...current,
        decision: { status: 'Rejected', by: d.rejected_by, time: d.rejected_time, reason: d.reason },
      });
    }
    case 'BreakGlassVoided': {
      const d = event.data;
      return next.set(d.request_id, {
        ...current,
        decision: {
          status: 'Voided',
          by: d.voided_by,
          time: d.voided_time,
          ...(d.current_generation !== undefined && { current_generation: d.current_generation }),
        },
      });
    }
  }
}
