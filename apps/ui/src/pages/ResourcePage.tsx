import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, DECOM, HF, api, type AdapterStatus, type Finalizing, type HistoryEntry, type Kind, type Resource, type WhoAmI } from '../api';
import { ActionPanel } from '../components/ActionPanel';
import { BlockerBadge } from '../components/BlockerBadge';
import { ConditionsTable } from '../components/ConditionsTable';
import { ProblemView } from '../components/ProblemView';
import { Timeline } from '../components/Timeline';
import { formatTime, hashLink } from '../format';
import { subscribeLive } from '../live';

interface Loaded {
  readonly resource?: Resource;
  readonly gone: boolean;
  readonly statuses: AdapterStatus[];
  readonly children: Resource[];
  readonly blockers?: Finalizing['blockers'];
  readonly events: HistoryEntry[];
}

/**
 * One resource: conditions, adapter statuses, children, references, blockers, actions, and its event
 * timeline. The timeline comes from the event store, so it stays readable after the hard delete (then the
 * page says the resource is gone and shows the last recorded name and kind from the events).
 */
export function ResourcePage({ id, me }: { id: string; me: WhoAmI | undefined }) {
  const [data, setData] = useState<Loaded>();
  const [error, setError] = useState<unknown>();
  const timer = useRef<number | undefined>(undefined);

  const load = useCallback(async () => {
    try {
      const history = await api<{ items: HistoryEntry[] }>('GET', `${HF}/resources/${id}/events`);
      let resource: Resource | undefined;
      try {
        resource = await api<Resource>('GET', `${HF}/resources/${id}`);
      } catch (e) {
        if (!(e instanceof ApiError && e.problem.status === 404)) throw e;
      }
      let statuses: AdapterStatus[] = [];
      let children: Resource[] = [];
      let blockers: Finalizing['blockers'] | undefined;
      if (resource) {
        statuses = (await api<{ items: AdapterStatus[] }>('GET', `${resource.href}/statuses`)).items;
        const kinds = (await api<{ items: Kind[] }>('GET', `${DECOM}/kinds`)).items.filter((k) => k.parent_kind === resource!.kind);
        for (const child of kinds) children = children.concat((await api<{ items: Resource[] }>('GET', `${resource.href}/${child.plural}?size=100`)).items);
        if (resource.deleted_time) {
          const finalizing = await api<{ items: Finalizing[] }>('GET', `${DECOM}/finalizing?kind=${encodeURIComponent(resource.kind)}`);
          blockers = finalizing.items.find((f) => f.id === id)?.blockers;
        }
      }
      setData({ ...(resource ? { resource } : {}), gone: !resource, statuses, children, ...(blockers ? { blockers } : {}), events: history.items });
      setError(undefined);
    } catch (e) {
      setError(e);
    }
  }, [id]);

  useEffect(() => {
    void load();
    return subscribeLive(
      (event) => {
        if (event.resource?.id !== id && !event.type.startsWith('ForceDeleted')) return;
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => void load(), 150);
      },
      () => undefined,
    );
  }, [load, id]);

  const created = data?.events.find((e) => e.type === 'ResourceCreated')?.data as { kind?: string; name?: string } | undefined;
  const r = data?.resource;
  const title = r ? `${r.kind} ${r.name}` : `${created?.kind ?? 'Resource'} ${created?.name ?? id}`;
  return (
    <section aria-labelledby="resource-heading">
      <div className="page-head">
        <h1 id="resource-heading">{title}</h1>
        <a href={hashLink(`/replay/${id}`)}>Replay history</a>
      </div>
      <ProblemView error={error} />
      {data?.gone ? (
        <p className="gone" role="status">This resource is gone (hard-deleted or never stored); its recorded history follows.</p>
      ) : null}
      {r ? (
        <>
          <dl className="summary">
            <div><dt>id</dt><dd>{r.id}</dd></div>
            <div><dt>generation</dt><dd>{r.generation}</dd></div>
            <div><dt>created</dt><dd>{formatTime(r.created_time)} by {r.created_by}</dd></div>
            {r.deleted_time ? <div><dt>deleted_time</dt><dd>{formatTime(r.deleted_time)} by {r.deleted_by}</dd></div> : null}
            <div><dt>deletion_policy</dt><dd>{r.deletion_policy ?? 'Delete'}</dd></div>
            {r.owner_references ? (
              <div><dt>owner</dt><dd><a href={hashLink(`/resource/${r.owner_references.id}`)}>{r.owner_references.kind} {r.owner_references.id}</a></dd></div>
            ) : null}
          </dl>
          {data?.blockers ? (
            <section aria-labelledby="blockers-heading">
              <h2 id="blockers-heading">Why the deletion is pending</h2>
              <div className="blockers">{data.blockers.length ? data.blockers.map((b, i) => <BlockerBadge key={i} blocker={b} />) : <span className="muted">nothing: hard delete due</span>}</div>
            </section>
          ) : null}
          {me ? <ActionPanel resource={r} can={me.can} onDone={() => void load()} /> : null}
          <ConditionsTable conditions={r.status.conditions} caption="Conditions" />
          <h2>Adapter statuses</h2>
          {data!.statuses.length === 0 ? <p className="muted">No adapter has reported.</p> : null}
          {data!.statuses.map((s) => (
            <ConditionsTable key={s.adapter} conditions={s.conditions} caption={`${s.adapter} (generation ${s.observed_generation}, last report ${formatTime(s.last_report_time)})`} />
          ))}
          <h2>Children</h2>
          {data!.children.length === 0 ? <p className="muted">None.</p> : (
            <ul>{data!.children.map((c) => <li key={c.id}><a href={hashLink(`/resource/${c.id}`)}>{c.kind} {c.name}</a>{c.deleted_time ? ' (deleting)' : ''}</li>)}</ul>
          )}
          <h2>References</h2>
          {r.references && Object.keys(r.references).length > 0 ? (
            <ul>
              {Object.entries(r.references).flatMap(([type, targets]) =>
                targets.map((t) => <li key={`${type}-${t.id}`}>{type}: <a href={hashLink(`/resource/${t.id}`)}>{t.kind} {t.id}</a></li>),
              )}
            </ul>
          ) : <p className="muted">None.</p>}
        </>
      ) : null}
      <h2>Event timeline</h2>
      {data ? <Timeline events={data.events} /> : <p className="muted">Loading…</p>}
    </section>
  );
}
