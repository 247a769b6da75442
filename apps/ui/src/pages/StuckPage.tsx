import { useCallback, useEffect, useRef, useState } from 'react';
import { DECOM, api, type Finalizing, type FinalizingPage, type Kind } from '../api';
import { BLOCKER_LABELS, BlockerBadge } from '../components/BlockerBadge';
import { BlockerChart } from '../components/BlockerChart';
import { formatAge, formatClock, formatTime, hashLink } from '../format';
import { useLastKnown } from '../last-known';
import { subscribeLive, type LiveState } from '../live';
import { isKnown, isLiveDisconnected, outageNotices, type LiveStatus, type OutageInputs } from '../outage';
import { useOutageReport } from '../outage-report';

/**
 * Stuck deletions: `GET /api/decom/v1/finalizing`, oldest first, with the API's blockers as badges. Rows
 * pending longer than the threshold are highlighted. A Server-Sent Event re-reads the list (debounced), so
 * the page follows the engine without polling; while the stream is down the list is re-read every few seconds.
 * A failed read keeps the last list with its age, and the page states an absence ("No deletion is
 * pending.") only while its data is known (`isKnown`): the outage banner says what is not.
 */
export function StuckPage() {
  const [now, setNow] = useState(Date.now());
  const [kinds, setKinds] = useState<Kind[]>([]);
  const [kind, setKind] = useState('');
  const [blocker, setBlocker] = useState('');
  const [thresholdMinutes, setThresholdMinutes] = useState(5);
  const [live, setLive] = useState<LiveState>('connecting');
  const [liveStatus, setLiveStatus] = useState<LiveStatus>(() => ({ connected: false, since: Date.now() }));
  const timer = useRef<number | undefined>(undefined);

  const read = useCallback(
    (signal: AbortSignal) => {
      const query = new URLSearchParams();
      if (kind) query.set('kind', kind);
      if (blocker) query.set('blocker', blocker);
      return api<FinalizingPage>('GET', `${DECOM}/finalizing${query.size ? `?${query}` : ''}`, undefined, { signal });
    },
    [kind, blocker],
  );
  const { data, status, reload } = useLastKnown(read, isLiveDisconnected(liveStatus, now));

  useEffect(
    () =>
      subscribeLive(
        () => {
          window.clearTimeout(timer.current);
          timer.current = window.setTimeout(reload, 150);
        },
        (state) => {
          setLive(state);
          const connected = state === 'live';
          setLiveStatus((s) => (s.connected === connected ? s : { connected, since: Date.now() }));
          // Events missed while disconnected may not all come back with Last-Event-ID: read the list afresh.
          if (connected) reload();
        },
      ),
    [reload],
  );
  useEffect(() => {
    void api<{ items: Kind[] }>('GET', `${DECOM}/kinds`).then(
      (k) => setKinds(k.items),
      () => undefined,
    );
    const tick = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(tick);
  }, []);

  const inputs: OutageInputs = { read: status, ...(data?.dead_letters ? { deadLetters: data.dead_letters } : {}), live: liveStatus };
  const known = isKnown(inputs);
  useOutageReport(outageNotices(inputs, now));

  const items: Finalizing[] = data?.items ?? [];
  const counts: Record<string, number> = {};
  for (const item of items) for (const type of new Set(item.blockers.map((b) => b.type))) counts[type] = (counts[type] ?? 0) + 1;
  const elapsed = status.fetchedAt === undefined ? 0 : (now - status.fetchedAt) / 1000;
  const threshold = thresholdMinutes * 60;
  const deadLettersUnknown = data?.dead_letters?.status === 'unavailable';
  const unknownWhy = known
    ? undefined
    : status.failure
      ? status.fetchedAt === undefined
        ? 'the engine could not be reached'
        : `the engine could not be reached since ${formatClock(status.failure.since)}; counts from ${formatClock(status.fetchedAt)}`
      : deadLettersUnknown
        ? 'the job queue is unreachable, so dead-lettered jobs are not counted'
        : 'not loaded yet';

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
            {kinds.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.kind}
              </option>
            ))}
          </select>
        </label>
        <label>
          Blocker{' '}
          <select value={blocker} onChange={(e) => setBlocker(e.target.value)}>
            <option value="">any</option>
            {Object.entries(BLOCKER_LABELS).map(([type, label]) => (
              <option key={type} value={type}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Stuck after (minutes){' '}
          <input
            type="number"
            min={0}
            value={thresholdMinutes}
            onChange={(e) => setThresholdMinutes(Math.max(0, Number(e.target.value)))}
          />
        </label>
      </form>
      <div className="stuck-layout">
        <table className={known ? 'stuck' : 'stuck is-stale'}>
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
              <tr>
                <td colSpan={5} className={known ? 'muted' : 'unknown'} data-field="empty-list">
                  {emptyListText(known, status.fetchedAt, status.failure !== undefined, deadLettersUnknown)}
                </td>
              </tr>
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
                  <td>
                    <a href={hashLink(`/resource/${item.id}`)}>{item.name}</a>
                  </td>
                  <td>{item.deleted_by}</td>
                  <td className="blockers">
                    {item.blockers.length === 0 ? (
                      <span className={known ? 'muted' : 'unknown'}>{noBlockerText(known, status.fetchedAt, deadLettersUnknown)}</span>
                    ) : (
                      item.blockers.map((b, i) => <BlockerBadge key={i} blocker={b} />)
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <BlockerChart counts={counts} {...(unknownWhy ? { unknown: unknownWhy } : {})} />
      </div>
    </section>
  );
}

/** The empty list's one line: the all-clear only when the data is known, otherwise what is known and what is not. */
function emptyListText(known: boolean, fetchedAt: number | undefined, failing: boolean, deadLettersUnknown: boolean): string {
  if (known) return 'No deletion is pending.';
  if (fetchedAt === undefined) return failing ? 'Unknown: the engine could not be reached, and no list was loaded yet.' : 'Loading…';
  if (failing) return `Unknown now: none was pending at ${formatClock(fetchedAt)}, the last successful read.`;
  return deadLettersUnknown ? 'None in the read model; dead-letter blockers unknown (job queue unreachable).' : 'Unknown.';
}

/** A row without blockers: "hard delete due" only when nothing could be missing from its blockers. */
function noBlockerText(known: boolean, fetchedAt: number | undefined, deadLettersUnknown: boolean): string {
  if (known) return 'none: hard delete due';
  if (deadLettersUnknown) return 'none known: dead-letter blockers unknown';
  return `none at ${fetchedAt === undefined ? 'the last read' : formatClock(fetchedAt)}`;
}
