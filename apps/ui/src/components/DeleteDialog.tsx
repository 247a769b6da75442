import { useRef, useState } from 'react';
import { api, ApiError, type DeletionBudgetUse, type DeletionPreview, type Resource } from '../api';
import { ProblemView } from './ProblemView';

/**
 * DELETE with its preview first (docs/policies.md "Deletion preview"): opening the dialog asks the API for
 * `DELETE …?dryRun=All`, which records nothing, and shows every resource the DELETE would mark in
 * hard-delete order with its deletion policy (and where it comes from), propagation, the adapters that must
 * finalize and any note — or the refusal the DELETE would meet (409 InUse, a cycle, …). Only after the
 * preview arrived and the operator confirmed is the real DELETE sent. A DELETE past the deletion budget
 * (429) shows the budget it would pass; a caller who may override it (administrators) gives a reason, sees the
 * preview with that override, and the DELETE carries it (`deletion_budget_override`, recorded on the event).
 */
export function DeleteDialog({
  resource,
  canOverrideBudget,
  onDone,
}: {
  resource: Resource;
  canOverrideBudget: boolean;
  onDone: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [preview, setPreview] = useState<DeletionPreview | undefined>();
  const [refusal, setRefusal] = useState<unknown>();
  const [error, setError] = useState<unknown>();
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [overrideReason, setOverrideReason] = useState('');
  const [override, setOverride] = useState<string | undefined>();
  const budget = refusal instanceof ApiError ? refusal.problem.budget : undefined;

  const open = async () => {
    setPreview(undefined);
    setRefusal(undefined);
    setError(undefined);
    setConfirmed(false);
    setOverrideReason('');
    setOverride(undefined);
    dialog.current?.showModal();
    try {
      setPreview(await api<DeletionPreview>('DELETE', `${resource.href}?dryRun=All`));
    } catch (e) {
      setRefusal(e);
    }
  };
  const previewWithOverride = async () => {
    const reason = overrideReason.trim();
    try {
      setPreview(
        await api<DeletionPreview>('DELETE', `${resource.href}?dryRun=All&deletion_budget_override=${encodeURIComponent(reason)}`),
      );
      setRefusal(undefined);
      setOverride(reason);
    } catch (e) {
      setRefusal(e);
    }
  };
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!preview || !confirmed) return;
    setBusy(true);
    try {
      await api(
        'DELETE',
        override === undefined ? resource.href : `${resource.href}?deletion_budget_override=${encodeURIComponent(override)}`,
      );
      dialog.current?.close();
      onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className="danger" onClick={() => void open()}>
        Delete
      </button>
      <dialog ref={dialog} aria-labelledby="delete-title">
        <form onSubmit={(event) => void submit(event)}>
          <h3 id="delete-title">
            Delete {resource.kind} {resource.name}
          </h3>
          {!preview && !refusal ? <p className="muted">Previewing the deletion (nothing is deleted yet)…</p> : null}
          {refusal ? (
            <>
              <p className="warning">This DELETE would be refused:</p>
              <ProblemView error={refusal} />
              {budget ? <BudgetNote budget={budget} retryAfterSeconds={(refusal as ApiError).problem.retryAfterSeconds} /> : null}
              {budget && canOverrideBudget ? (
                <div className="budget-override">
                  <label>
                    Override reason (recorded on the deletion){' '}
                    <input value={overrideReason} maxLength={1024} onChange={(e) => setOverrideReason(e.target.value)} />
                  </label>
                  <button type="button" disabled={overrideReason.trim() === ''} onClick={() => void previewWithOverride()}>
                    Preview with override
                  </button>
                </div>
              ) : null}
            </>
          ) : null}
          {override !== undefined ? <p className="warning">Past the deletion budget, with the override: {override}</p> : null}
          {preview ? (
            <>
              <p>
                Preview: this DELETE marks {preview.resources.length} resource(s); their records go in this order once every adapter has
                finalized.
              </p>
              <table className="preview" aria-label="Deletion preview">
                <thead>
                  <tr>
                    <th>Resource</th>
                    <th>Deletion policy</th>
                    <th>Propagation</th>
                    <th>Adapters</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.resources.map((r) => (
                    <tr key={r.id} data-id={r.id}>
                      <td>
                        {r.kind} {r.name}
                        {r.notes?.map((note) => (
                          <p key={note} className="warning">
                            {note}
                          </p>
                        ))}
                      </td>
                      <td>
                        {r.deletion_policy} <span className="muted">({r.deletion_policy_source})</span>
                      </td>
                      <td>{r.deletion_propagation}</td>
                      <td>{r.required_adapters.join(', ') || '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <label className="check">
                <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> I confirm: delete{' '}
                {resource.id}
              </label>
            </>
          ) : null}
          <ProblemView error={error} />
          <div className="dialog-buttons">
            <button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className="danger" disabled={busy || !preview || !confirmed}>
              Delete
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** The deletion budget a DELETE would pass: which bound, its use and limit, and when one more would fit. */
function BudgetNote({ budget, retryAfterSeconds }: { budget: DeletionBudgetUse; retryAfterSeconds: number | undefined }) {
  const bound = budget.name === 'max_in_flight' ? 'deletions in flight' : 'deletions in the last hour';
  return (
    <p className="budget" data-budget={budget.name}>
      Deletion budget for {budget.kind}
      {budget.tenant ? ` (tenant ${budget.tenant})` : ''}: {budget.used} of {budget.limit} {bound}
      {retryAfterSeconds !== undefined ? `; one more fits in about ${retryAfterSeconds} s` : ''}.
    </p>
  );
}
