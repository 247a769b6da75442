/**
 * HyperFleet's JSON of a resource and an AdapterStatus. What fields a resource answer has is decided once,
 * in `presentResourceParts`: from a read-model row here, and from the decided state by the API's write answers.
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

/**
 * A resource answer's parts, decoded, with the source of each already chosen: a read-model row
 * (`presentResource`), or the API's decided state after a write (apps/api resource-answers.ts).
 */
export interface ResourceAnswerParts {
  readonly id: string;
  readonly kind: string;
  readonly href: string;
  readonly name: string;
  readonly spec: Record<string, unknown>;
  readonly labels: Record<string, string>;
  readonly generation: number;
  readonly conditions: readonly ResourceCondition[];
  /** With the owner's href; absent on top-level resources (and wherever the owner's href is not known). */
  readonly owner_references?: ResourceJson['owner_references'];
  readonly created_time: string;
  readonly updated_time: string;
  readonly created_by: string;
  readonly updated_by: string;
  /** Set once deleting; `deleted_by` then defaults to ''. */
  readonly deleted_time?: string | null;
  readonly deleted_by?: string | null;
  readonly deletion_policy: ResourceJson['deletion_policy'];
  readonly references?: ResourceJson['references'] | null;
  readonly effective_deletion_policy: ResourceJson['effective_deletion_policy'];
  readonly deletion_propagation?: ResourceJson['deletion_propagation'];
  readonly deletion_required_adapters?: ResourceJson['deletion_required_adapters'];
  readonly deletion_dispatch?: ResourceJson['deletion_dispatch'];
  /** Set while deletion protection is on; the answer then carries `deletion_protection: true` too. */
  readonly deletion_protection_set?: ResourceJson['deletion_protection_set'] | null;
}

/**
 * The one rule of what fields a resource answer has, in HyperFleet's order: `labels` and `references` omitted
 * when empty, `deleted_time`/`deleted_by` only once deleting, `owner_references` on children only,
 * `deletion_protection` with `deletion_protection_set`, each optional deletion field only when given.
 */
export function presentResourceParts(parts: ResourceAnswerParts): ResourceJson {
  return {
    id: parts.id,
    kind: parts.kind,
    href: parts.href,
    name: parts.name,
    spec: parts.spec,
    ...(Object.keys(parts.labels).length > 0 ? { labels: parts.labels } : {}),
    generation: parts.generation,
    status: { conditions: parts.conditions },
    ...(parts.owner_references ? { owner_references: parts.owner_references } : {}),
    created_time: parts.created_time,
    updated_time: parts.updated_time,
    created_by: parts.created_by,
    updated_by: parts.updated_by,
    ...(parts.deleted_time ? { deleted_time: parts.deleted_time, deleted_by: parts.deleted_by ?? '' } : {}),
    deletion_policy: parts.deletion_policy,
    ...(parts.references && Object.keys(parts.references).length > 0 ? { references: parts.references } : {}),
    effective_deletion_policy: parts.effective_deletion_policy,
    ...(parts.deletion_propagation ? { deletion_propagation: parts.deletion_propagation } : {}),
    ...(parts.deletion_required_adapters ? { deletion_required_adapters: parts.deletion_required_adapters } : {}),
    ...(parts.deletion_dispatch ? { deletion_dispatch: parts.deletion_dispatch } : {}),
    ...(parts.deletion_protection_set
      ? { deletion_protection: true as const, deletion_protection_set: parts.deletion_protection_set }
      : {}),
  };
}

/** A read-model row's answer: conditions as the projection stored them, the deletion fields once deleting. */
export function presentResource(row: ResourceRow): ResourceJson {
  const info = (row.deletion_info ? JSON.parse(row.deletion_info) : {}) as Partial<DeletionInfo>;
  const deletionPolicy = ((row.deleted_time ? row.effective_policy : row.deletion_policy) ?? 'Delete') as 'Delete' | 'Orphan';
  return presentResourceParts({
    id: row.id,
    kind: row.kind,
    href: row.href,
    name: row.name,
    spec: JSON.parse(row.spec) as Record<string, unknown>,
    labels: JSON.parse(row.labels) as Record<string, string>,
    generation: Number(row.generation),
    conditions: JSON.parse(row.conditions) as ResourceCondition[],
    ...(row.owner_id && row.owner_kind && row.owner_href
      ? { owner_references: { id: row.owner_id, kind: row.owner_kind, href: row.owner_href } }
      : {}),
    created_time: row.created_time,
    updated_time: row.updated_time,
    created_by: row.created_by,
    updated_by: row.updated_by,
    deleted_time: row.deleted_time,
    deleted_by: row.deleted_by,
    deletion_policy: deletionPolicy,
    references: row.refs ? (JSON.parse(row.refs) as ResourceJson['references']) : null,
    effective_deletion_policy: info.effective_deletion_policy ?? {
      policy: deletionPolicy,
      source: row.deletion_policy ? 'own' : 'default',
    },
    ...(row.deleted_time
      ? {
          deletion_propagation: info.deletion_propagation ?? 'Background',
          deletion_required_adapters: info.deletion_required_adapters,
          deletion_dispatch: info.deletion_status?.dispatch,
        }
      : {}),
    deletion_protection_set: row.deletion_protection
      ? (JSON.parse(row.deletion_protection) as NonNullable<ResourceJson['deletion_protection_set']>)
      : null,
  });
}

/** AdapterStatus JSON: the stored report as is. */
export function presentAdapterStatus(status: AdapterStatus): AdapterStatus {
  return status;
}
