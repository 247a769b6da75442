import { useCallback, useEffect, useRef } from 'react';
import {
  ApiError,
  DECOM,
  HF,
  api,
  type AdapterStatus,
  type DeadLetterAvailability,
  type Finalizing,
  type FinalizingPage,
  type HistoryEntry,
  type Kind,
  type Resource,
  type WhoAmI,
} from '../api';
import { ActionPanel } from '../components/ActionPanel';
import { BlockerBadge } from '../components/BlockerBadge';
import { ConditionsTable } from '../components/ConditionsTable';
import { Timeline } from '../components/Timeline';
import { formatTime, hashLink } from '../format';
import { useLastKnown } from '../last-known';
import { subscribeLive } from '../live';
import { isKnown, outageNotices, type OutageInputs } from '../outage';
import { useOutageReport } from '../outage-report';

interface Loaded {
  readonly resource?: Resource;
  readonly gone: boolean;
  readonly statuses: AdapterStatus[];
  readonly children: Resource[];
  readonly blockers?: Finalizing['blockers'];
  /** From the stuck list the blockers come from: while unavailable, `DeadLettered` blockers are unknown. */
  readonly deadLetters?: DeadLetterAvailability;
  readonly events: HistoryEntry[];
}

/**
 * One resource: conditions, adapter statuses, children, references, blockers, actions, and its event
 * timeline. The timeline comes from the event store, so it stays readable after the hard delete (then the
 * page says the resource is gone and shows the last recorded name and kind from the events).
 */
export function ResourcePage({ id, me }: { id: string; me: WhoAmI | undefined }) {
  const timer = useRef<number | undefined>(undefined);

  const read = useCallback(
    async (signal: AbortSignal): Promise<Loaded> => {
      const get = <T,>(path: string) => api<T>('GET', path, undefined, { signal });
      const history = await get<{ items: HistoryEntry[] }>(`${HF}/resources/${id}/events`);
      let resource: Resource | undefined;
      try {
        resource = await get<Resource>(`${HF}/resources/${id}`);
      } catch (e) {
        if (!(e instanceof ApiError && e.problem.status === 404)) throw e;
      }
      let statuses: AdapterStatus[] = [];
      let children: Resource[] = [];
      let blockers: Finalizing['blockers'] | undefined;
      let deadLetters: DeadLetterAvailability | undefined;
      if (resource) {
        statuses = (await get<{ items: AdapterStatus[] }>(`${resource.href}/statuses?size=100`)).items;
        const kinds = (await get<{ items: Kind[] }>(`${DECOM}/kinds`)).items.filter((k) => k.parent_kind === resource!.kind);
        for (const child of kinds)
          children = children.concat((await get<{ items: Resource[] }>(`${resource.href}/${child.plural}?size=100`)).items);
        if (resource.deleted_time) {
          const finalizing = await get<FinalizingPage>(`${DECOM}/finalizing?kind=${encodeURIComponent(resource.kind)}`);
          blockers = finalizing.items.find((f) => f.id === id)?.blockers;
          deadLetters = finalizing.dead_letters;
        }
      }
      return {
        ...(resource ? { resource } : {}),
        gone: !resource,
        statuses,
        children,
        ...(blockers ? { blockers } : {}),
        ...(deadLetters ? { deadLetters } : {}),
        events: history.items,
      };
    },
    [id],
  );
  // A failed read keeps the page as last read; the layout's banner says since when and from when the data is.
  const { data, status, reload } = useLastKnown(read, false);
  const inputs: OutageInputs = { read: status, ...(data?.deadLetters ? { deadLetters: data.deadLetters } : {}) };
  useOutageReport(outageNotices(inputs, Date.now()));
  const known = isKnown(inputs);

  useEffect(
    () =>
      subscribeLive(
        (event) => {
          if (event.resource?.id !== id && !event.type.startsWith('ForceDeleted')) return;
          window.clearTimeout(timer.current);
          timer.current = window.setTimeout(reload, 150);
        },
        () => undefined,
      ),
    [reload, id],
  );

  const created = data?.events.find((e) => e.type === 'ResourceCreated')?.data as { kind?: string; name?: string } | undefined;
  const r = data?.resource;
  const title = r ? `${r.kind} ${r.name}` : `${created?.kind ?? 'Resource'} ${created?.name ?? id}`;
  return (
    <section aria-labelledby="resource-heading">
      <div className="page-head">
        <h1 id="resource-heading">{title}</h1>
        <a href={hashLink(`/replay/${id}`)}>Replay history</a>
      </div>
      {data?.gone ? (
        <p className="gone" role="status">
          This resource is gone (hard-deleted or never stored); its recorded history follows.
        </p>
      ) : null}
      {r ? (
        <>
          <dl className="summary">
            <div>
              <dt>id</dt>
              <dd>{r.id}</dd>
            </div>
            <div>
              <dt>generation</dt>
              <dd>{r.generation}</dd>
            </div>
            <div>
              <dt>created</dt>
              <dd>
                {formatTime(r.created_time)} by {r.created_by}
              </dd>
            </div>
            {r.deleted_time ? (
              <div>
                <dt>deleted_time</dt>
                <dd>
                  {formatTime(r.deleted_time)} by {r.deleted_by}
                </dd>
              </div>
            ) : null}
            <div>
              <dt>deletion_policy</dt>
              <dd>{r.deletion_policy ?? 'Delete'}</dd>
            </div>
            {r.deletion_protection ? (
              <div>
                <dt>deletion_protection</dt>
                <dd>
                  <span
                    className="badge badge-protected"
                    title={`set by ${r.deletion_protection_set?.caller ?? '?'}${r.deletion_protection_set?.reason ? `: ${r.deletion_protection_set.reason}` : ''}`}
                  >
                    Protected
                  </span>{' '}
                  a DELETE reaching it is refused; set by {r.deletion_protection_set?.caller ?? '?'}
                  {r.deletion_protection_set?.reason ? ` (${r.deletion_protection_set.reason})` : ''}
                </dd>
              </div>
            ) : null}
            {r.owner_references ? (
              <div>
                <dt>owner</dt>
                <dd>
                  <a href={hashLink(`/resource/${r.owner_references.id}`)}>
                    {r.owner_references.kind} {r.owner_references.id}
                  </a>
                </dd>
              </div>
            ) : null}
          </dl>
          {data?.blockers ? (
            <section aria-labelledby="blockers-heading">
              <h2 id="blockers-heading">Why the deletion is pending</h2>
              <div className="blockers">
                {data.blockers.length ? (
                  data.blockers.map((b, i) => <BlockerBadge key={i} blocker={b} />)
                ) : known ? (
                  <span className="muted">nothing: hard delete due</span>
                ) : (
                  <span className="unknown">
                    nothing known:{' '}
                    {data.deadLetters?.status === 'unavailable' ? 'dead-letter blockers unknown' : 'the engine could not be reached'}
                  </span>
                )}
              </div>
            </section>
          ) : null}
          {me ? <ActionPanel resource={r} can={me.can} onDone={reload} /> : null}
          <ConditionsTable conditions={r.status.conditions} caption="Conditions" />
          <h2>Adapter statuses</h2>
          {data!.statuses.length === 0 ? <p className="muted">No adapter has reported.</p> : null}
          {data!.statuses.map((s) => (
            <ConditionsTable
              key={s.adapter}
              conditions={s.conditions}
              caption={`${s.adapter} (generation ${s.observed_generation}, last report ${formatTime(s.last_report_time)})`}
            />
          ))}
          <h2>Children</h2>
          {data!.children.length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <ul>
              {data!.children.map((c) => (
                <li key={c.id}>
                  <a href={hashLink(`/resource/${c.id}`)}>
                    {c.kind} {c.name}
                  </a>
                  {c.deleted_time ? ' (deleting)' : ''}
                </li>
              ))}
            </ul>
          )}
          <h2>References</h2>
          {r.references && Object.keys(r.references).length > 0 ? (
            <ul>
              {Object.entries(r.references).flatMap(([type, targets]) =>
                targets.map((t) => (
                  <li key={`${type}-${t.id}`}>
                    {type}:{' '}
                    <a href={hashLink(`/resource/${t.id}`)}>
                      {t.kind} {t.id}
                    </a>
                  </li>
                )),
              )}
            </ul>
          ) : (
            <p className="muted">None.</p>
          )}
        </>
      ) : null}
      <h2>Event timeline</h2>
      {data ? (
        <Timeline events={data.events} />
      ) : (
        <p className="muted">
          {!status.failure
            ? 'Loading…'
            : status.failure.kind === 'refused'
              ? `Could not be read: ${status.failure.detail}`
              : 'Unknown: the engine could not be reached.'}
        </p>
      )}
    </section>
  );
}
