/**
 * Readable lines for `decom history <id>`: one per event, `time  #revision  Type  caller  key=value ...`,
 * the key fields an incident needs (generation, adapter, conditions, reason, cause), not the whole payload.
 */

/** One entry of `GET /resources/{id}/events` (see apps/api/src/history/history.controller.ts). */
export interface HistoryEntryJson {
  readonly position: number;
  readonly revision: number;
  readonly type: string;
  readonly recorded_time: string;
  readonly caller?: string;
  readonly data: unknown;
}

type Data = Readonly<Record<string, unknown>>;

/** The key fields of one event's data, as `key=value` words (strings with spaces quoted). */
export function keyFields(type: string, data: Data): string[] {
  const pick = (...keys: string[]) =>
    keys.filter((key) => data[key] !== undefined && data[key] !== null).map((key) => field(key, data[key]));
  switch (type) {
    case 'ResourceCreated':
      return pick('kind', 'name', 'generation', 'deletion_policy');
    case 'SpecChanged':
      return pick('generation', 'deletion_policy');
    case 'DeletionRequested': {
      const override = data['deletion_budget_override'] as { reason?: string } | undefined;
      return [
        ...pick('generation', 'cascaded_from', 'deletion_policy'),
        ...(override?.reason ? [field('budget_override', override.reason)] : []),
      ];
    }
    case 'DeletionProtectionChanged':
      return pick('deletion_protection', 'reason');
    case 'LeftoverObjectsFound': {
      const objects = (data['objects'] ?? []) as Array<{ kind: string; namespace?: string; name: string; terminating?: boolean }>;
      const unverified = (data['unverified'] ?? []) as Array<{ adapter: string }>;
      return [
        ...objects.map((o) =>
          field('leftover', `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}${o.terminating ? ' (terminating)' : ''}`),
        ),
        ...unverified.map((u) => field('unverified', u.adapter)),
      ];
    }
    case 'DeletionStarted':
      return pick('generation', 'adapter');
    case 'AdapterStatusReported': {
      const status = (data['status'] ?? {}) as Data;
      const conditions = ((status['conditions'] ?? []) as Array<{ type: string; status: string }>).map((c) => `${c.type}=${c.status}`);
      return [field('adapter', status['adapter']), field('observed_generation', status['observed_generation']), ...conditions];
    }
    case 'AdapterFinalized':
    case 'Orphaned':
      return pick('adapter', 'observed_generation', 'message', 'forced', 'reason');
    case 'Adopted':
      return pick('adapter', 'observed_generation', 'reason', 'message');
    case 'AdapterStatusDiscarded':
      return pick('adapter', 'observed_generation', 'reason', 'message');
    case 'HardDeleted':
      return pick('kind', 'cause');
    case 'LeakInventoryRecorded':
    case 'LeakedObjectsDeleted': {
      const objects = (data['objects'] ?? []) as Array<{ kind: string; namespace?: string; name: string }>;
      const named = objects.map((o) => `${o.kind}:${o.namespace ? `${o.namespace}/` : ''}${o.name}`).join(',');
      return [...pick('adapter', 'trigger', 'reason'), field('objects', objects.length), ...(named ? [field('names', named)] : [])];
    }
    case 'ForceDeleted': {
      const subresources = (data['subresources'] ?? []) as Array<{ kind: string; name: string }>;
      return [...pick('kind', 'name', 'generation', 'reason'), field('subresources', subresources.length)];
    }
    case 'ResourcePaused':
    case 'ResourceUnpaused':
    case 'ForceOrphaned':
      return pick('reason');
    default:
      return Object.keys(data)
        .filter((key) => key !== 'id')
        .slice(0, 4)
        .map((key) => field(key, data[key]));
  }
}

/** `2026-11-29T10:00:00.123Z  #3   DeletionRequested      operator@example.com  generation=2` */
export function historyLine(entry: HistoryEntryJson): string {
  const fields = keyFields(entry.type, (entry.data ?? {}) as Data);
  return [entry.recorded_time, `#${entry.revision}`.padEnd(4), entry.type.padEnd(22), (entry.caller ?? '-').padEnd(24), ...fields]
    .join('  ')
    .trimEnd();
}

function field(key: string, value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `${key}=${/[\s"]/.test(text) ? JSON.stringify(text) : text}`;
}
