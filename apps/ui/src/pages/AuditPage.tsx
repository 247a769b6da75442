import { useEffect, useState } from 'react';
import { DECOM, api, type AuditEntry } from '../api';

/** An object whose Decom owner marker names a resource that no longer exists (`GET /api/decom/v1/leaks`). */
interface Leak {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly owner: { kind: string; id: string; adapter: string };
}
import { ProblemView } from '../components/ProblemView';
import { formatTime, hashLink } from '../format';

/** Force deletes and force orphans fleet-wide (`GET /api/decom/v1/audit`), newest first, and the leak inventory. */
export function AuditPage() {
  const [items, setItems] = useState<AuditEntry[]>([]);
  const [type, setType] = useState('');
  const [error, setError] = useState<unknown>();
  const [loaded, setLoaded] = useState(false);
  const [leaks, setLeaks] = useState<Leak[]>();
  const [leakError, setLeakError] = useState<unknown>();
  useEffect(() => {
    api<{ items: Leak[] }>('GET', `${DECOM}/leaks`).then((l) => setLeaks(l.items), setLeakError);
  }, []);
  useEffect(() => {
    api<{ items: AuditEntry[] }>('GET', `${DECOM}/audit${type ? `?type=${type}` : ''}`).then((a) => {
      setItems(a.items);
      setLoaded(true);
      setError(undefined);
    }, setError);
  }, [type]);
  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading">Audit: force deletes and force orphans</h1>
      <div className="filters">
        <label>
          Type{' '}
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">both</option>
            <option value="ForceDeleted">ForceDeleted</option>
            <option value="ForceOrphaned">ForceOrphaned</option>
          </select>
        </label>
      </div>
      <ProblemView error={error} />
      <table className="audit">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Type</th>
            <th scope="col">Resource</th>
            <th scope="col">Caller</th>
            <th scope="col">Reason</th>
            <th scope="col">Removed subresources</th>
            <th scope="col">Adapter statuses then</th>
          </tr>
        </thead>
        <tbody>
          {items.length === 0 ? (
            // "None recorded" only from an answer: a failed read says nothing about the audit trail.
            <tr>
              <td colSpan={7} className="muted">
                {error ? 'Unknown: the audit could not be read.' : loaded ? 'No break-glass operation recorded.' : 'Loading…'}
              </td>
            </tr>
          ) : null}
          {items.map((e) => (
            <tr key={e.position}>
              <td>{formatTime(e.time)}</td>
              <td>{e.type}</td>
              <td>
                <a href={hashLink(`/resource/${e.id}`)}>
                  {e.kind} {e.name ?? e.id}
                </a>
              </td>
              <td>{e.caller}</td>
              <td>{e.reason}</td>
              <td>{e.subresources.length ? e.subresources.map((s) => `${s.kind} ${s.name}`).join(', ') : '—'}</td>
              <td>
                {Object.entries(e.adapter_statuses).flatMap(([rid, statuses]) =>
                  statuses.map((s) => (
                    <div key={`${rid}-${s.adapter}`}>
                      {s.adapter}:{' '}
                      {s.conditions
                        .filter((c) => c.type === 'Finalized' || c.type === 'Health')
                        .map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`)
                        .join(', ')}
                    </div>
                  )),
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2 id="leaks-heading">Leaked objects</h2>
      <p className="muted">Objects in the managed cluster whose owner resource no longer exists (a live scan).</p>
      <ProblemView error={leakError} />
      {leaks ? (
        <table className="leaks" aria-labelledby="leaks-heading">
          <thead>
            <tr>
              <th scope="col">Object</th>
              <th scope="col">Namespace</th>
              <th scope="col">Former owner</th>
              <th scope="col">Adapter</th>
            </tr>
          </thead>
          <tbody>
            {leaks.length === 0 ? (
              <tr>
                <td colSpan={4} className="muted">
                  None found.
                </td>
              </tr>
            ) : null}
            {leaks.map((l) => (
              <tr key={`${l.apiVersion}/${l.kind}/${l.namespace ?? ''}/${l.name}`}>
                <td>
                  {l.kind} {l.name}
                </td>
                <td>{l.namespace ?? '—'}</td>
                <td>
                  <a href={`#/resource/${l.owner.id}`}>
                    {l.owner.kind} {l.owner.id}
                  </a>
                </td>
                <td>{l.owner.adapter}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
