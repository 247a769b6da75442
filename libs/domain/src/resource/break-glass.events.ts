/**
 * The two-person rule's facts (break-glass.ts). A request on a resource lives in that resource's tree stream,
 * so its approval and the action's own events (`ForceDeleted`, `ForceOrphaned`, `ResourceUnpaused`) are one
 * atomic append; a leak-deletion request has no resource and lives in its own `breakglass-<request_id>` stream.
 * Types only: shared by the events union, the state and the decider.
 */
import type { LeakedObject } from './leaked-object.js';

/** The break-glass actions that become requests when `authorization.break_glass.approvals` is 1. */
export type BreakGlassAction = 'force_delete' | 'force_orphan' | 'unpause' | 'abandon_adapter' | 'delete_leaks';

export const BREAK_GLASS_ACTIONS: readonly BreakGlassAction[] = [
  'force_delete',
  'force_orphan',
  'unpause',
  'abandon_adapter',
  'delete_leaks',
];

/** A leaked object as a `delete_leaks` request names it: the object and the (removed) resource its marker names. */
export interface RequestedLeak extends LeakedObject {
  readonly owner: { readonly kind: string; readonly id: string };
}

/**
 * An administrator asked for a break-glass action; a different administrator must approve it before
 * `expires_at`. `id`/`kind` name the target resource (as in every event of a tree) and `generation` its
 * generation when asked: the action runs against that generation only. For `delete_leaks` they are
 * `request_id`/`Leaks`, `generation` is 0 and `objects` lists the exact objects asked for.
 */
export interface BreakGlassRequested {
  readonly type: 'BreakGlassRequested';
  readonly data: {
    readonly request_id: string;
    readonly action: BreakGlassAction;
    readonly id: string;
    readonly kind: string;
    readonly generation: number;
    readonly reason: string;
    readonly requested_by: string;
    /** RFC 3339 UTC. */
    readonly requested_time: string;
    /** RFC 3339 UTC: after this the request can no longer be approved. */
    readonly expires_at: string;
    /** `abandon_adapter`: the adapter whose cleanup the approval counts as done. */
    readonly adapter?: string;
    readonly objects?: readonly RequestedLeak[];
  };
}

/** A second administrator approved; the action's own events follow in the same append. */
export interface BreakGlassApproved {
  readonly type: 'BreakGlassApproved';
  readonly data: {
    readonly request_id: string;
    readonly id: string;
    readonly kind: string;
    readonly approved_by: string;
    readonly reason?: string;
    readonly approved_time: string;
  };
}

/** An administrator (the requester withdrawing, or another) refused the request; nothing ran. */
export interface BreakGlassRejected {
  readonly type: 'BreakGlassRejected';
  readonly data: {
    readonly request_id: string;
    readonly id: string;
    readonly kind: string;
    readonly rejected_by: string;
    readonly reason: string;
    readonly rejected_time: string;
  };
}

/**
 * An approval came after the target changed: its generation moved (`current_generation`) or it is gone
 * (`current_generation` absent). Nothing ran; a new request must be made against what the resource is now.
 */
export interface BreakGlassVoided {
  readonly type: 'BreakGlassVoided';
  readonly data: {
    readonly request_id: string;
    readonly id: string;
    readonly kind: string;
    readonly requested_generation: number;
    readonly current_generation?: number;
    /** Who tried to approve. */
    readonly voided_by: string;
    readonly voided_time: string;
  };
}

export type BreakGlassEvent = BreakGlassRequested | BreakGlassApproved | BreakGlassRejected | BreakGlassVoided;
