import { useRef, useState } from 'react';
import { api, isBreakGlassRequest, type BreakGlassRequest, type Permissions, type Resource } from '../api';
import { DeleteDialog } from './DeleteDialog';
import { ProblemView } from './ProblemView';

/** A path under the resource's href; `adapters/<name>/abandon` gives up on one adapter of its deletion. */
type Action = 'pause' | 'unpause' | 'force-delete' | 'force-orphan' | `adapters/${string}/abandon`;

interface Offer {
  readonly action: Action;
  readonly label: string;
  readonly allowed: keyof Permissions;
  readonly danger: boolean;
  readonly when: (r: Resource) => boolean;
  readonly warning?: string;
}

const ACTIONS: Offer[] = [
  { action: 'pause', label: 'Pause', allowed: 'pause', danger: false, when: (r) => !isPaused(r) },
  { action: 'unpause', label: 'Unpause', allowed: 'unpause', danger: false, when: (r) => isPaused(r) },
  { action: 'force-delete', label: 'Force delete', allowed: 'force_delete', danger: true, when: (r) => r.deleted_time !== undefined },
  { action: 'force-orphan', label: 'Force orphan', allowed: 'force_orphan', danger: true, when: (r) => r.deleted_time !== undefined },
];

/**
 * One "Abandon adapter" per adapter the deletion still waits for: those dispatch may still run, else (held) the
 * whole frozen set. The API refuses (409) one that already finalized.
 */
function abandonOffers(r: Resource): Offer[] {
  if (r.deleted_time === undefined) return [];
  const pending =
    r.deletion_dispatch?.action === 'run' && r.deletion_dispatch.adapters
      ? r.deletion_dispatch.adapters
      : (r.deletion_required_adapters ?? []);
  return pending.map((adapter) => ({
    action: `adapters/${adapter}/abandon` as const,
    label: `Abandon adapter ${adapter}`,
    allowed: 'abandon_adapter' as const,
    danger: true,
    when: () => true,
    warning: `Counts ${adapter}'s cleanup as done without it: the objects it owns stay (recorded in the leak inventory); the rest of the deletion goes on.`,
  }));
}

function isPaused(r: Resource): boolean {
  return r.status.conditions.some((c) => c.type === 'Paused' && c.status === 'True' && c.reason === 'Paused');
}

/**
 * Operator actions on one resource, each offered only when the caller may do it (`whoami.can`) and it
 * applies to the resource's state (force delete / orphan need a pending deletion, like the API). Every
 * break-glass action asks for a reason (required) and a confirmation; DELETE shows its preview first
 * (DeleteDialog). The API's problem details are shown on failure.
 */
export function ActionPanel({ resource, can, onDone }: { resource: Resource; can: Permissions; onDone: () => void }) {
  const [pending, setPending] = useState<Offer | undefined>();
  const [reason, setReason] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [requested, setRequested] = useState<BreakGlassRequest>();
  const dialog = useRef<HTMLDialogElement>(null);
  const offered = [...ACTIONS, ...abandonOffers(resource)].filter((a) => can[a.allowed] === true && a.when(resource));
  const deletable = can.delete && resource.deleted_time === undefined;

  const open = (a: Offer) => {
    setPending(a);
    setReason('');
    setConfirmed(false);
    setError(undefined);
    dialog.current?.showModal();
  };
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!pending || reason.trim() === '' || !confirmed) return;
    setBusy(true);
    try {
      const answer = await api<unknown>('POST', `${resource.href}/${pending.action}`, { reason: reason.trim() });
      // Under the two-person rule the action waits for another administrator (202 with the request).
      setRequested(isBreakGlassRequest(answer) ? answer : undefined);
      dialog.current?.close();
      onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="actions-heading" className="actions">
      <h2 id="actions-heading">Actions</h2>
      {offered.length === 0 && !deletable ? <p className="muted">No action available to you for this resource now.</p> : null}
      {requested ? (
        <p className="warning" role="status">
          Requested {requested.action.replace('_', ' ')} at generation {requested.generation}: another administrator must approve it before{' '}
          {requested.expires_at} (<a href="#/approvals">Approvals</a>).
        </p>
      ) : null}
      {deletable ? <DeleteDialog resource={resource} canOverrideBudget={can.override_deletion_budget === true} onDone={onDone} /> : null}
      {offered.map((a) => (
        <button key={a.action} type="button" className={a.danger ? 'danger' : ''} onClick={() => open(a)}>
          {a.label}
        </button>
      ))}
      <dialog ref={dialog} aria-labelledby="action-title" onClose={() => setPending(undefined)}>
        {pending ? (
          <form onSubmit={(event) => void submit(event)}>
            <h3 id="action-title">
              {pending.label} {resource.kind} {resource.name}
            </h3>
            {pending.danger ? (
              <p className="warning">
                {pending.warning ??
                  (pending.action === 'force-delete'
                    ? 'Removes the record and all its subresources now, without waiting for adapters. Cloud resources may be left behind.'
                    : 'Finishes the deletion without deleting the objects the adapters manage; they stay, unowned.')}
              </p>
            ) : null}
            <label htmlFor="action-reason">Reason (required, recorded in the audit trail)</label>
            <textarea id="action-reason" required value={reason} onChange={(e) => setReason(e.target.value)} rows={3} />
            <label className="check">
              <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> I confirm:{' '}
              {pending.label.toLowerCase()} {resource.id}
            </label>
            <ProblemView error={error} />
            <div className="dialog-buttons">
              <button type="button" onClick={() => dialog.current?.close()}>
                Cancel
              </button>
              <button type="submit" className={pending.danger ? 'danger' : ''} disabled={busy || reason.trim() === '' || !confirmed}>
                {pending.label}
              </button>
            </div>
          </form>
        ) : null}
      </dialog>
    </section>
  );
}
