/**
 * The server-side table kubectl asks for when it lists events (`Accept: application/json;as=Table;
 * v=v1;g=meta.k8s.io`), with kube-apiserver's columns for them (pkg/printers/internalversion/printers.go
 * `eventColumnDefinitions`, `printEvent`): LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, and at priority 1
 * (`-o wide`) SUBOBJECT, SOURCE, FIRST SEEN, COUNT, NAME. Other kinds are listed as plain lists, which
 * kubectl prints as NAME and AGE.
 */
import type { KubeList } from './resource-operations.js';

/** True when the `Accept` header asks for a meta.k8s.io/v1 Table. */
export function wantsTable(accept: string): boolean {
  return /as=Table/i.test(accept) && /v=v1(;|,|$)/.test(accept.replace(/\s/g, '')) && /g=meta\.k8s\.io/i.test(accept);
}

/** The `Content-Type` a Table answer carries. */
export const TABLE_CONTENT_TYPE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** apimachinery's `duration.HumanDuration`, to the precision kubectl shows ages with. */
export function humanDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

const COLUMNS: readonly [string, number][] = [
  ['Last Seen', 0],
  ['Type', 0],
  ['Reason', 0],
  ['Object', 0],
  ['Subobject', 1],
  ['Source', 1],
  ['Message', 0],
  ['First Seen', 1],
  ['Count', 1],
  ['Name', 1],
];

interface CoreEvent {
  metadata: { name: string; namespace?: string; creationTimestamp?: string };
  involvedObject?: { kind?: string; name?: string; fieldPath?: string };
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
}

/** A core/v1 EventList as a Table, ages measured from `now`. */
export function eventTable(list: KubeList, now: Date): Record<string, unknown> {
  const age = (time: string | null | undefined) => (time ? humanDuration(now.getTime() - Date.parse(time)) : '<unknown>');
  const rows = (list.items as unknown as CoreEvent[]).map((e) => {
    const last = e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp;
    const first = e.firstTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp;
    const involved = e.involvedObject ?? {};
    const source = e.source?.component ? [e.source.component, e.source.host].filter(Boolean).join(', ') : (e.reportingComponent ?? '');
    return {
      cells: [
        age(last),
        e.type ?? '',
        e.reason ?? '',
        `${(involved.kind ?? '').toLowerCase()}/${involved.name ?? ''}`,
        involved.fieldPath ?? '',
        source,
        (e.message ?? '').trim(),
        age(first),
        String(e.count ?? 1),
        e.metadata.name,
      ],
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: e.metadata },
    };
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion: list.metadata.resourceVersion },
    columnDefinitions: COLUMNS.map(([name, priority]) => ({ name, type: 'string', format: '', description: '', priority })),
    rows,
  };
}
