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
  TimedOut: 'timed out',
};

/** One blocker as a readable badge: the API's own `message`, coloured by type. */
export function BlockerBadge({ blocker }: { blocker: Blocker }) {
  const held = blocker.type === 'AdapterNotFinalized' && blocker['held_by_pause'] === true;
  return (
    <span className={`badge badge-${blocker.type}${held ? ' badge-held' : ''}`} data-blocker={blocker.type} title={BLOCKER_LABELS[blocker.type] ?? blocker.type}>
      <span className="badge-type">{BLOCKER_LABELS[blocker.type] ?? blocker.type}</span> {blocker.message}
      {held ? <span className="badge-note"> (waits for the pause)</span> : null}
    </span>
  );
}
