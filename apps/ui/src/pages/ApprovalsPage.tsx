import { useCallback, useEffect, useRef, useState } from 'react';
import { BREAK_GLASS, api, type BreakGlassRequest, type WhoAmI } from '../api';
import { ProblemView } from '../components/ProblemView';
import { formatTime, hashLink } from '../format';

const STATUSES = ['Pending', 'Approved', 'Rejected', 'Voided', 'Expired'] as const;

/**
 * The two-person rule's approval queue (`GET /api/decom/v1/break-glass-requests`): pending requests by default.
 * An administrator other than the requester gets Approve (reason optional; the action runs) and Reject (reason
 * required) on each pending one; the API decides (403 for one's own request, 409 when the target moved or the
 * request expired) and its problem is shown.
 */
export function ApprovalsPage({ me }: { me: WhoAmI | undefined }) {
  const [status, setStatus] = useState<string>('Pending');
  const [items, setItems] = useState<BreakGlassRequest[]>();
  const [error, setError] = useState<unknown>();
  const [deciding, setDeciding] = useState<{ request: BreakGlassRequest; decision: 'approve' | 'reject' }>();
  const [reason, setReason] = useState('');
  const [decisionError, setDecisionError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  const load = useCallback(() => {
    api<{ items: BreakGlassRequest[] }>('GET', `${BREAK_GLASS}${status ? `?status=${status}` : ''}`).then((answer) => {
      setItems(answer.items);
      setError(undefined);
    }, setError);
  }, [status]);
  useEffect(load, [load]);

  // Deciding is admin-only (the same role as the break-glass actions themselves); the requester may not approve.
  const isAdmin = me?.can.force_delete === true;
  const open = (request: BreakGlassRequest, decision: 'approve' | 'reject') => {
    setDeciding({ request, decision });
    setReason('');
    setDecisionError(undefined);
    dialog.current?.showModal();
  };
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!deciding || (deciding.decision === 'reject' && reason.trim() === '')) return;
    setBusy(true);
    try {
      await api('POST', `${deciding.request.href}/${deciding.decision}`, reason.trim() ? { reason: reason.trim() } : {});
      dialog.current?.close();
      load();
    } catch (e) {
      setDecisionError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="approvals-heading">
      <h1 id="approvals-heading">Approvals: break-glass requests</h1>
      <p className="muted">
        Force delete, force orphan, unpause and leak deletion wait here for a second administrator when the two-person rule is on.
      </p>
      <div className="filters">
        <label>
          Status{' '}
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">all</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ProblemView error={error} />
      <table className="approvals">
        <thead>
          <tr>
            <th scope="col">Requested</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Requested by</th>
            <th scope="col">Reason</th>
            <th scope="col">Expires</th>
            <th scope="col">Status</th>
            <th scope="col">Decide</th>
          </tr>
        </thead>
        <tbody>
          {items === undefined ? (
            <tr>
              <td colSpan={8} className="muted">
                {error ? 'Unknown: the queue could not be read.' : 'Loading…'}
              </td>
            </tr>
          ) : null}
          {items?.length === 0 ? (
            <tr>
              <td colSpan={8} className="muted">
                No request.
              </td>
            </tr>
          ) : null}
          {items?.map((r) => (
            <tr key={r.request_id} data-request={r.request_id}>
              <td>{formatTime(r.requested_time)}</td>
              <td>{r.action.replace('_', ' ')}</td>
              <td>
                {r.action === 'delete_leaks' ? (
                  'leaked objects'
                ) : (
                  <a href={hashLink(`/resource/${r.target.id}`)}>
                    {r.target.kind} {r.target.id} (generation {r.generation})
                  </a>
                )}
              </td>
              <td>{r.requested_by}</td>
              <td>{r.reason}</td>
              <td>{formatTime(r.expires_at)}</td>
              <td>
                {r.status}
                {r.decision ? ` by ${r.decision.by}${r.decision.reason ? ` (${r.decision.reason})` : ''}` : ''}
              </td>
              <td>
                {r.status === 'Pending' && isAdmin ? (
                  <>
                    {me?.identity !== r.requested_by ? (
                      <button type="button" className="danger" onClick={() => open(r, 'approve')}>
                        Approve
                      </button>
                    ) : (
                      <span className="muted">yours: another administrator approves </span>
                    )}
                    <button type="button" onClick={() => open(r, 'reject')}>
                      Reject
                    </button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dialog ref={dialog} aria-labelledby="decision-title" onClose={() => setDeciding(undefined)}>
        {deciding ? (
          <form onSubmit={(event) => void submit(event)}>
            <h3 id="decision-title">
              {deciding.decision === 'approve' ? 'Approve' : 'Reject'} {deciding.request.action.replace('_', ' ')} of{' '}
              {deciding.request.target.kind} {deciding.request.target.id}
            </h3>
            {deciding.decision === 'approve' ? (
              <p className="warning">
                Runs the action now, as {deciding.request.requested_by} asked: “{deciding.request.reason}”.
              </p>
            ) : null}
            <label htmlFor="decision-reason">Reason ({deciding.decision === 'approve' ? 'optional' : 'required'}, recorded)</label>
            <textarea id="decision-reason" value={reason} onChange={(e) => setReason(e.target.value)} rows={3} />
            <ProblemView error={decisionError} />
            <div className="dialog-buttons">
              <button type="button" onClick={() => dialog.current?.close()}>
                Cancel
              </button>
              <button
                type="submit"
                className={deciding.decision === 'approve' ? 'danger' : ''}
                disabled={busy || (deciding.decision === 'reject' && reason.trim() === '')}
              >
                {deciding.decision === 'approve' ? 'Approve' : 'Reject'}
              </button>
            </div>
          </form>
        ) : null}
      </dialog>
    </section>
  );
}
