import { useEffect, useMemo, useRef, useState } from 'react';
import { DECOM, api, type Finalizing, type Kind } from '../api';
import { BLOCKER_LABELS, BlockerBadge } from '../components/BlockerBadge';
import { BlockerChart } from '../components/BlockerChart';
import { ProblemView } from '../components/ProblemView';
import { formatAge, formatTime, hashLink } from '../format';
import { subscribeLive, type LiveState } from '../live';

/**
 * Stuck deletions: `GET /api/decom/v1/finalizing`, oldest first, with the API's blockers as badges. Rows
 * pending longer than the threshold are highlighted. A Server-Sent Event re-reads the list (debounced), so
 * the page follows the engine without polling.
 */
export function StuckPage() {
  const [items, setItems] = useState<Finalizing[]>([]);
  const [fetchedAt, setFetchedAt] = useState(Date.now());
  const [now, setNow] = useState(Date.now());
  const [error, setError] = useState<unknown>();
  const [kinds, setKinds] = useState<Kind[]>([]);
  const [kind, setKind] = useState('');
  const [blocker, setBlocker] = useState('');
  const [thresholdMinutes, setThresholdMinutes] = useState(5);
  const [live, setLive] = useState<LiveState>('connecting');
  const timer = useRef<number | undefined>(undefined);

  const load = useMemo(
    () => async () => {
      const query = new URLSearchParams();
      if (kind) query.set('kind', kind);
      if (blocker) query.set('blocker', blocker);
      try {
        const page = await api<{ items: Finalizing[] }>('GET', `${DECOM}/finalizing${query.size ? `?${query}` : ''}`);
        setItems(page.items);
        setFetchedAt(Date.now());
        setError(undefined);
      } catch (e) {
        setError(e);
      }
    },
    [kind, blocker],
  );

  useEffect(() => {
    void load();
    return subscribeLive(
      () => {
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => void load(), 150);
      },
      setLive,
    );
  }, [load]);
  useEffect(() => {
    void api<{ items: Kind[] }>('GET', `${DECOM}/kinds`).then((k) => setKinds(k.items), () => undefined);
    const tick = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(tick);
  }, []);

  const counts: Record<string, number> = {};
  for (const item of items) for (const type of new Set(item.blockers.map((b) => b.type))) counts[type] = (counts[type] ?? 0) + 1;
  const elapsed = (now - fetchedAt) / 1000;
  const threshold = thresholdMinutes * 60;

  return (
    <section aria-labelledby="stuck-heading">
      <div className="page-head">
        <h1 id="stuck-heading">Stuck deletions</h1>
        <span className={`live live-${live}`} role="status" aria-live="polite">
          {live === 'live' ? 'live' : live === 'connecting' ? 'connecting…' : 'offline, reconnecting'}
        </span>
      </div>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Kind{' '}
          <select value={kind} onChange={(e) => setKind(e.target.value)}>
            <option value="">all</option>
            {kinds.map((k) => <option key={k.kind} value={k.kind}>{k.kind}</option>)}
          </select>
        </label>
        <label>
          Blocker{' '}
          <select value={blocker} onChange={(e) => setBlocker(e.target.value)}>
            <option value="">any</option>
            {Object.entries(BLOCKER_LABELS).map(([type, label]) => <option key={type} value={type}>{label}</option>)}
          </select>
        </label>
        <label>
          Stuck after (minutes){' '}
          <input type="number" min={0} value={thresholdMinutes} onChange={(e) => setThresholdMinutes(Math.max(0, Number(e.target.value)))} />
        </label>
      </form>
      <ProblemView error={error} />
      <div className="stuck-layout">
        <table className="stuck">
          <caption className="sr-only">Resources pending deletion, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Age</th>
              <th scope="col">Kind</th>
              <th scope="col">Name</th>
              <th scope="col">Deleted by</th>
              <th scope="col">Blockers</th>
            </tr>
          </thead>
          <tbody>
            {items.length === 0 ? (
              <tr><td colSpan={5} className="muted">No deletion is pending.</td></tr>
            ) : null}
            {items.map((item) => {
              const age = item.finalizing_seconds + elapsed;
              const stuck = age >= threshold;
              return (
                <tr key={item.id} className={stuck ? 'is-stuck' : ''} data-id={item.id}>
                  <td title={`deleted_time ${formatTime(item.deleted_time)}`}>
                    {formatAge(age)} {stuck ? <span className="stuck-flag">stuck</span> : null}
                  </td>
                  <td>{item.kind}</td>
                  <td><a href={hashLink(`/resource/${item.id}`)}>{item.name}</a></td>
                  <td>{item.deleted_by}</td>
                  <td className="blockers">
                    {item.blockers.length === 0 ? <span className="muted">none: hard delete due</span> : item.blockers.map((b, i) => <BlockerBadge key={i} blocker={b} />)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <BlockerChart counts={counts} />
      </div>
    </section>
  );
}
