import { useEffect, useState } from 'react';
import { ApiError, HF, api, type HistoryEntry, type Resource } from '../api';
import { ConditionsTable } from '../components/ConditionsTable';
import { ProblemView } from '../components/ProblemView';
import { diff } from '../diff';
import { formatTime, hashLink } from '../format';

/** The resource as of an event: `GET /resources/{id}?as_of=<the event's recorded_time>`; undefined = did not exist then. */
async function stateAfter(id: string, event: HistoryEntry): Promise<Resource | undefined> {
  try {
    return await api<Resource>('GET', `${HF}/resources/${id}?as_of=${encodeURIComponent(event.recorded_time)}`);
  } catch (e) {
    if (e instanceof ApiError && e.problem.status === 404) return undefined;
    throw e;
  }
}

/**
 * Replay: a slider over the resource's events; each position shows the resource as the API answers
 * `?as_of=` at that event's time (the same fold of the same events), and a diff between two chosen points.
 */
export function ReplayPage({ id }: { id: string }) {
  const [events, setEvents] = useState<HistoryEntry[]>([]);
  const [index, setIndex] = useState(0);
  const [state, setState] = useState<Resource | undefined>();
  const [from, setFrom] = useState(0);
  const [to, setTo] = useState(0);
  const [changes, setChanges] = useState<ReturnType<typeof diff>>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    api<{ items: HistoryEntry[] }>('GET', `${HF}/resources/${id}/events`).then((h) => {
      setEvents(h.items);
      setIndex(h.items.length - 1);
      setFrom(0);
      setTo(h.items.length - 1);
    }, setError);
  }, [id]);
  useEffect(() => {
    const event = events[index];
    if (event) stateAfter(id, event).then(setState, setError);
  }, [id, events, index]);

  const compare = async () => {
    try {
      const [a, b] = await Promise.all([stateAfter(id, events[from]!), stateAfter(id, events[to]!)]);
      setChanges(diff(a, b));
    } catch (e) {
      setError(e);
    }
  };

  const event = events[index];
  const option = (e: HistoryEntry, i: number) => (
    <option key={i} value={i}>
      #{i + 1} {e.type} ({formatTime(e.recorded_time)})
    </option>
  );
  return (
    <section aria-labelledby="replay-heading">
      <div className="page-head">
        <h1 id="replay-heading">Replay</h1>
        <a href={hashLink(`/resource/${id}`)}>Resource page</a>
      </div>
      <ProblemView error={error} />
      {events.length > 0 ? (
        <>
          <label htmlFor="replay-slider">
            After event {index + 1} of {events.length}: <strong id="replay-event">{event?.type}</strong> at{' '}
            {formatTime(event?.recorded_time)}
            {event?.caller ? ` by ${event.caller}` : ''}
          </label>
          <input
            id="replay-slider"
            type="range"
            min={0}
            max={events.length - 1}
            value={index}
            onChange={(e) => setIndex(Number(e.target.value))}
            aria-valuetext={`event ${index + 1}: ${event?.type ?? ''}`}
          />
          <div className="replay-state" aria-live="polite" data-testid="replay-state">
            {state ? (
              <>
                <dl className="summary">
                  <div>
                    <dt>name</dt>
                    <dd>{state.name}</dd>
                  </div>
                  <div>
                    <dt>generation</dt>
                    <dd data-field="generation">{state.generation}</dd>
                  </div>
                  <div>
                    <dt>deleted_time</dt>
                    <dd data-field="deleted_time">{state.deleted_time ? formatTime(state.deleted_time) : 'not deleting'}</dd>
                  </div>
                </dl>
                <ConditionsTable conditions={state.status.conditions} caption="Conditions at this point" />
              </>
            ) : (
              <p className="gone" data-field="gone">
                The resource did not exist at this point (not yet created, or already deleted).
              </p>
            )}
          </div>
          <h2>Compare two points</h2>
          <div className="filters">
            <label htmlFor="replay-from">From</label>
            <select id="replay-from" value={from} onChange={(e) => setFrom(Number(e.target.value))}>
              {events.map(option)}
            </select>
            <label htmlFor="replay-to">To</label>
            <select id="replay-to" value={to} onChange={(e) => setTo(Number(e.target.value))}>
              {events.map(option)}
            </select>
            <button type="button" onClick={() => void compare()}>
              Compare
            </button>
          </div>
          {changes ? (
            changes.length === 0 ? (
              <p className="muted">No difference.</p>
            ) : (
              <table className="diff">
                <caption>Fields that changed</caption>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {changes.map((c) => (
                    <tr key={c.path}>
                      <td>{c.path}</td>
                      <td className="before">{c.before ?? '—'}</td>
                      <td className="after">{c.after ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          ) : null}
        </>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </section>
  );
}
