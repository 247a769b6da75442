/**
 * What holds an adapter's deletion in Kubernetes (seed 000 edge case #5 "why is it still there"): the objects
 * whose delete was requested and that are still present, waiting on finalizers. Decom's executor sends them
 * in the status report's free `data` (`AdapterStatusCreateRequest.data`) under
 * `HOLDING_DATA_KEY`; the domain reads them back from the adapter's last report. An adapter that does not
 * send them (HyperFleet's own, any external one) shows no holder; a malformed entry is left out.
 */
import type { HoldingObject } from './blocker-vocabulary.js';

/** The key of the status report's `data` that carries the holders. */
export const HOLDING_DATA_KEY = 'holding';

/** One holder as the executor reports it (`data.holding[]`; `deletion_timestamp` is the object's, RFC 3339). */
export interface ReportedHolder {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly finalizers: readonly string[];
  readonly deletion_timestamp: string;
}

const isString = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** Holders kept per blocker: every reader of the stored deletion status gets a bounded list. */
export const MAX_HOLDERS = 20;

/**
 * The holders a report's `data` names, in the report's order, as `HoldingObject`s (`since` =
 * `deletion_timestamp`). Entries without a kind, name or deletion timestamp, or with a non-list of
 * finalizers, are left out (the data is free JSON: nothing here throws); at most `MAX_HOLDERS`. Empty when there are none.
 */
export function holdingOf(data: Readonly<Record<string, unknown>> | undefined): HoldingObject[] {
  const list = data?.[HOLDING_DATA_KEY];
  if (!Array.isArray(list)) return [];
  const out: HoldingObject[] = [];
  for (const entry of list as unknown[]) {
    if (out.length === MAX_HOLDERS) break;
    if (entry === null || typeof entry !== 'object') continue;
    const e = entry as Record<string, unknown>;
    const finalizers = e.finalizers ?? [];
    if (!isString(e.kind) || !isString(e.name) || !isString(e.deletion_timestamp) || !Array.isArray(finalizers)) continue;
    out.push({
      kind: e.kind,
      ...(isString(e.namespace) ? { namespace: e.namespace } : {}),
      name: e.name,
      finalizers: (finalizers as unknown[]).filter(isString),
      since: e.deletion_timestamp,
    });
  }
  return out;
}

/**
 * `waiting for Job ns-x/job-y (finalizers: example.com/hold, since 2026-12-03T10:00:00Z)` for the first
 * holder (`Namespace x (since ...)` without finalizers), `; and N more` when there are others.
 * Precondition: `holding` is not empty.
 */
export function describeHolding(holding: readonly HoldingObject[]): string {
  const first = holding[0]!;
  const where = first.namespace ? `${first.namespace}/${first.name}` : first.name;
  const finalizers = first.finalizers.length > 0 ? `finalizers: ${first.finalizers.join(', ')}, ` : '';
  const more = holding.length > 1 ? `; and ${holding.length - 1} more` : '';
  return `waiting for ${first.kind} ${where} (${finalizers}since ${first.since})${more}`;
}
