import type { HistoryEntry } from '../api';
import { formatTime } from '../format';

const HIDDEN = new Set(['id', 'kind']);

/** A field of an event's data, shortened for the timeline (the full event is one click away in the replay). */
function show(value: unknown): string {
  if (typeof value === 'string') return value;
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** The fields an event records, adapter reports reduced to adapter + condition statuses. */
function fields(entry: HistoryEntry): [string, string][] {
  if (entry.type === 'AdapterStatusReported') {
    const status = entry.data['status'] as {
      adapter: string;
      observed_generation: number;
      conditions: { type: string; status: string; reason?: string }[];
    };
    return [
      ['adapter', status.adapter],
      ['observed_generation', String(status.observed_generation)],
      ['conditions', status.conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ')],
    ];
  }
  return Object.entries(entry.data)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => [key, key === 'adapter_statuses' ? showAdapterStatuses(value) : show(value)]);
}

type RecordedStatus = { adapter: string; conditions: { type: string; status: string; reason?: string }[] };

/**
 * A force delete's or force orphan's snapshot (`adapter_statuses`: resource id → its adapter statuses) as
 * one readable line per adapter, Finalized and Health only, as the audit page shows it; anything of
 * another shape falls back to the shortened JSON.
 */
function showAdapterStatuses(value: unknown): string {
  if (!value || typeof value !== 'object') return show(value);
  const lines = Object.values(value as Record<string, RecordedStatus[] | undefined>).flatMap((statuses) =>
    Array.isArray(statuses)
      ? statuses.map(
          (s) =>
            `${s.adapter}: ${(s.conditions ?? [])
              .filter((c) => c.type === 'Finalized' || c.type === 'Health')
              .map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`)
              .join(', ')}`,
        )
      : [],
  );
  return lines.length > 0 ? lines.join('; ') : 'none reported';
}

/** Every event of a resource with time, caller, type and the fields it recorded (from the event store). */
export function Timeline({ events }: { events: HistoryEntry[] }) {
  return (
    <ol className="timeline">
      {events.map((e) => (
        <li key={`${e.position}-${e.revision}`} data-type={e.type}>
          <div className="timeline-head">
            <time dateTime={e.recorded_time}>{formatTime(e.recorded_time)}</time>
            <strong className={`event-type event-${e.type}`}>{e.type}</strong>
            {e.caller ? <span className="caller">by {e.caller}</span> : null}
          </div>
          <dl className="fields">
            {fields(e).map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ol>
  );
}
