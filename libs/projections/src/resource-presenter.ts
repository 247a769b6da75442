/**
 * Turns read-model rows into HyperFleet's JSON (resource and AdapterStatus): `labels` omitted when empty,
 * `deleted_time`/`deleted_by` omitted unless pending deletion, `owner_references` on children only.
 */
import type { AdapterStatus, DispatchDecision, ResourceCondition } from '@decom/domain';
import type { DeletionInfo, ResourceRow } from './resource-view.schema.js';

export interface ResourceJson {
  readonly id: string;
  readonly kind: string;
  readonly href: string;
  readonly name: string;
  readonly spec: Record<string, unknown>;
  readonly labels?: Record<string, string>;
  readonly generation: number;
  readonly status: { readonly conditions: readonly ResourceCondition[] };
  readonly owner_references?: { readonly id: string; readonly kind: string; readonly href: string };
  readonly created_time: string;
  readonly updated_time: string;
  readonly created_by: string;
  readonly updated_by: string;
  readonly deleted_time?: string;
  readonly deleted_by?: string;
  /** Seed 003. Before deletion: the declared policy (default `Delete`); once deleting: the policy the deletion runs with. */
  readonly deletion_policy: 'Delete' | 'Orphan';
  readonly references?: Record<string, { id: string; kind: string }[]>;
  /**
   * The policy a deletion runs (or would run) with and where it comes from: `own`,
   * `inherited from <Kind>/<id>`, `force-orphan on <Kind>/<id>`, `default`. Per adapter object a task
   * config's `lifecycle.delete.policy: Orphan` may still orphan it (docs/policies.md).
   */
  readonly effective_deletion_policy: { readonly policy: 'Delete' | 'Orphan'; readonly source: string };
  /** Once deleting: `Foreground` (adapters wait for every descendant) or `Background` (parallel). */
  readonly deletion_propagation?: 'Foreground' | 'Background';
  /** Once deleting: the required adapters frozen when the deletion was requested. */
  readonly deletion_required_adapters?: readonly string[];
  /**
   * Once deleting: what dispatch may do, as the stored deletion status decided (`run` with the adapters
   * still to finalize, or `hold` with its reason). Read through the domain's `dispatchOf`.
   */
  readonly deletion_dispatch?: DispatchDecision;
  /** Present (`true`) while deletion protection is set: a DELETE reaching this resource is refused (409). */
  readonly deletion_protection?: true;
  /** Who set the protection, why (empty when no reason was given) and when (RFC 3339); with `deletion_protection`. */
  readonly deletion_protection_set?: { readonly caller: string; readonly reason: string; readonly time: string };
}

export function presentResource(row: ResourceRow): ResourceJson {
  const labels = JSON.parse(row.labels) as Record<string, string>;
  const info = (row.deletion_info ? JSON.parse(row.deletion_info) : {}) as Partial<DeletionInfo>;
  return {
    id: row.id,
    kind: row.kind,
    href: row.href,
    name: row.name,
    spec: JSON.parse(row.spec) as Record<string, unknown>,
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    generation: Number(row.generation),
    status: { conditions: JSON.parse(row.conditions) as ResourceCondition[] },
    ...(row.owner_id && row.owner_kind && row.owner_href
      ? { owner_references: { id: row.owner_id, kind: row.owner_kind, href: row.owner_href } }
      : {}),
    created_time: row.created_time,
    updated_time: row.updated_time,
    created_by: row.created_by,
    updated_by: row.updated_by,
    ...(row.deleted_time ? { deleted_time: row.deleted_time, deleted_by: row.deleted_by ?? '' } : {}),
    deletion_policy: ((row.deleted_time ? row.effective_policy : row.deletion_policy) ?? 'Delete') as 'Delete' | 'Orphan',
    ...(row.refs && Object.keys(JSON.parse(row.refs)).length > 0 ? { references: JSON.parse(row.refs) } : {}),
    effective_deletion_policy: info.effective_deletion_policy ?? {
      policy: ((row.deleted_time ? row.effective_policy : row.deletion_policy) ?? 'Delete') as 'Delete' | 'Orphan',
      source: row.deletion_policy ? 'own' : 'default',
    },
    ...(row.deleted_time ? { deletion_propagation: info.deletion_propagation ?? 'Background' } : {}),
    ...(row.deleted_time && info.deletion_required_adapters ? { deletion_required_adapters: info.deletion_required_adapters } : {}),
    ...(row.deleted_time && info.deletion_status ? { deletion_dispatch: info.deletion_status.dispatch } : {}),
    ...(row.deletion_protection
      ? {
          deletion_protection: true as const,
          deletion_protection_set: JSON.parse(row.deletion_protection) as NonNullable<ResourceJson['deletion_protection_set']>,
        }
      : {}),
  };
}

/** AdapterStatus JSON: the stored report as is. */
export function presentAdapterStatus(status: AdapterStatus): AdapterStatus {
  return status;
}
