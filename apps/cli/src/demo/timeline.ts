/**
 * A readable timeline of what happened: every recorded event (from the event store) merged with every
 * Kubernetes object created or deleted (from the local Kubernetes server's request log), by time.
 */
import type { EventStore } from '@decom/event-store';
import type { LocalKube } from '@decom/kube-local';

export interface TimelineLine {
  readonly time: string;
  readonly text: string;
}

export async function buildTimeline(
  store: EventStore,
  kube: LocalKube | undefined,
  names: ReadonlyMap<string, string>,
): Promise<TimelineLine[]> {
  const lines: TimelineLine[] = [];
  const label = (id: string, kind: string) => `${kind} ${names.get(id) ?? id.slice(0, 8)}`;
  for (const event of await store.readAll()) {
    const d = event.data as any;
    const who = label(d.id, d.kind);
    let text: string;
    switch (event.type) {
      case 'ResourceCreated':
        text = `${who}: created (generation 1)`;
        break;
      case 'DeletionRequested':
        text = `${who}: DeletionRequested deleted_time=${d.deleted_time} generation=${d.generation}${d.cascaded_from ? ' (cascade)' : ''}`;
        break;
      case 'AdapterStatusReported': {
        const conds = (d.status.conditions as any[]).map((c) => `${c.type}=${c.status}${c.reason ? `(${c.reason})` : ''}`).join(' ');
        text = `${who}: ${d.status.adapter} reported gen ${d.status.observed_generation}: ${conds}`;
        break;
      }
      case 'AdapterFinalized':
        text = `${who}: AdapterFinalized ${d.adapter} at generation ${d.observed_generation}`;
        break;
      case 'HardDeleted':
        text = `${who}: HardDeleted (${d.cause})`;
        break;
      case 'ForceDeleted':
        text = `${who}: ForceDeleted by ${d.caller}, reason "${d.reason}", subresources ${d.subresources.length}`;
        break;
      default:
        text = `${who}: ${event.type}`;
    }
    lines.push({ time: event.recorded_time, text });
  }
  for (const request of kube?.requests ?? []) {
    if (!['POST', 'DELETE'].includes(request.method) || !request.kind) continue;
    const verb = request.method === 'POST' ? 'created' : 'deleted';
    const outcome = request.status < 300 ? verb : `${request.method} refused ${request.status}`;
    lines.push({
      time: request.time,
      text: `  k8s ${request.kind} ${request.namespace ? `${request.namespace}/` : ''}${request.name ?? ''}: ${outcome}`,
    });
  }
  return lines.sort((a, b) => a.time.localeCompare(b.time));
}
