import type { Blocker } from '../api';

/** Short labels for the blocker types the API defines (libs/domain finalizing-blockers.ts); unknown types show as they are. */
export const BLOCKER_LABELS: Record<string, string> = {
  JobQueueUnavailable: 'job queue unreachable',
  Paused: 'paused',
  DeadLettered: 'dead-lettered job',
  AdapterNotFinalized: 'adapter not finalized',
  InUse: 'in use',
  DependencyCycle: 'dependency cycle',
  DeletionBlocked: 'blocked',
  DependentsRemaining: 'dependents remain',
  CleanupUnverified: 'cleanup not verified',
  LeftoverObjects: 'leftover objects',
  TimedOut: 'timed out',
};

/**
 * One blocker as a readable badge: the API's own `message`, coloured by type. An adapter whose job queue no
 * process consumes (`no_worker`) is labelled so: what it needs is a `decom worker`, not the adapter's cleanup.
 */
export function BlockerBadge({ blocker }: { blocker: Blocker }) {
  const held = blocker.type === 'AdapterNotFinalized' && blocker['held_by_pause'] === true;
  const noWorker = blocker.type === 'AdapterNotFinalized' && blocker['no_worker'] === true;
  const label = noWorker ? 'no worker' : (BLOCKER_LABELS[blocker.type] ?? blocker.type);
  return (
    <span className={`badge badge-${blocker.type}${held ? ' badge-held' : ''}`} data-blocker={blocker.type} title={label}>
      <span className="badge-type">{label}</span> {blocker.message}
      {held ? <span className="badge-note"> (waits for the pause)</span> : null}
    </span>
  );
}
