/**
 * Folds one event into the tree state. Pure and total: unknown ids are ignored so replaying any
 * recorded history never throws (replay tests rely on it).
 */
import type { ResourceEvent } from './resource.events.js';
import type { ResourceState, TreeState } from './resource.state.js';
import { inventoryKey } from './leaks.js';
import { evolveBreakGlass } from './break-glass-request.js';

export function evolve(state: TreeState, event: ResourceEvent): TreeState {
  const resources = new Map(state.resources);
  let removed = state.removed;
  let inventories = state.inventories;
  let breakGlass = state.break_glass;
  switch (event.type) {
    case 'ResourceCreated': {
      const d = event.data;
      resources.set(d.id, {
        id: d.id,
        kind: d.kind,
        name: d.name,
        spec: d.spec,
        labels: d.labels,
        ...(d.owner_references ? { owner_references: d.owner_references } : {}),
        generation: d.generation,
        created_time: d.created_time,
        created_by: d.created_by,
        updated_time: d.created_time,
        updated_by: d.created_by,
        adapter_statuses: {},
        ...(d.deletion_policy ? { deletion_policy: d.deletion_policy } : {}),
        ...(d.references ? { references: d.references } : {}),
        ...(d.tenant ? { tenant: d.tenant } : {}),
      });
      break;
    }
    case 'SpecChanged': {
      update(resources, event.data.id, (r) => ({
        ...r,
        spec: event.data.spec,
        labels: event.data.labels,
        generation: event.data.generation,
        updated_time: event.data.updated_time,
        updated_by: event.data.updated_by,
        ...(event.data.deletion_policy ? { deletion_policy: event.data.deletion_policy } : {}),
        ...(event.data.references ? { references: event.data.references } : {}),
      }));
      break;
    }
    case 'DeletionRequested': {
      update(resources, event.data.id, (r) => ({
        ...r,
        generation: event.data.generation,
        deleted_time: event.data.deleted_time,
        deleted_by: event.data.deleted_by,
        updated_time: event.data.deleted_time,
        updated_by: event.data.deleted_by,
        ...(event.data.required_adapters ? { deletion_required_adapters: event.data.required_adapters } : {}),
        ...(event.data.deletion_propagation ? { deletion_propagation: event.data.deletion_propagation } : {}),
      }));
      break;
    }
    case 'AdapterStatusReported': {
      const status = event.data.status;
      const fence = event.data.fence;
      update(resources, event.data.id, (r) => ({
        ...r,
        adapter_statuses: { ...r.adapter_statuses, [status.adapter]: status },
        ...(fence && {
          adapter_fences: { ...r.adapter_fences, [status.adapter]: Math.max(fence.sequence, r.adapter_fences?.[status.adapter] ?? 0) },
        }),
      }));
      break;
    }
    case 'DeletionStarted':
      update(resources, event.data.id, (r) => ({ ...r, deletion_started: true }));
      break;
    case 'ResourcePaused': {
      const d = event.data;
      update(resources, d.id, (r) => ({ ...r, paused: { caller: d.caller, reason: d.reason, time: d.paused_time }, ever_paused: true }));
      break;
    }
    case 'ResourceUnpaused':
      update(resources, event.data.id, (r) => {
        const { paused: _paused, ...rest } = r;
        return rest;
      });
      break;
    case 'ForceOrphaned': {
      const d = event.data;
      update(resources, d.id, (r) => ({ ...r, force_orphan: { caller: d.caller, reason: d.reason, time: d.force_orphaned_time } }));
      break;
    }
    case 'AdapterFinalized': {
      const d = event.data;
      // A real confirmation is an audit fact (its state change came with AdapterStatusReported); an abandon
      // also marks the adapter so its later reports are discarded.
      if (d.forced) {
        update(resources, d.id, (r) => ({
          ...r,
          abandoned_adapters: {
            ...r.abandoned_adapters,
            [d.adapter]: { caller: d.caller ?? '', reason: d.reason ?? '', time: d.finalized_time },
          },
        }));
      }
      break;
    }
    case 'DeletionProtectionChanged': {
      const d = event.data;
      update(resources, d.id, (r) => {
        const { deletion_protection: _before, ...rest } = r;
        return d.deletion_protection
          ? { ...rest, deletion_protection: { caller: d.caller, reason: d.reason ?? '', time: d.changed_time } }
          : rest;
      });
      break;
    }
    case 'AdapterStatusDiscarded':
    case 'Orphaned':
    case 'ForceDeleted':
      // Audit facts: the state change they describe comes with AdapterStatusReported / HardDeleted.
      break;
    case 'HardDeleted': {
      const gone = resources.get(event.data.id);
      resources.delete(event.data.id);
      const abandoned = Object.keys(gone?.abandoned_adapters ?? {});
      const entry = {
        id: event.data.id,
        kind: event.data.kind,
        cause: event.data.cause,
        force_orphaned: gone?.force_orphan !== undefined,
        ...(abandoned.length > 0 && { abandoned_adapters: abandoned }),
      };
      removed = new Map(removed ?? []).set(event.data.id, entry);
      break;
    }
    case 'LeakInventoryRecorded':
      inventories = new Set(inventories ?? []).add(inventoryKey(event.data.id, event.data.adapter, event.data.trigger));
      break;
    case 'LeftoverObjectsFound': {
      const d = event.data;
      update(resources, d.id, (r) => ({ ...r, leftovers: { objects: d.objects, unverified: d.unverified, checked_time: d.checked_time } }));
      break;
    }
    case 'Adopted':
    case 'LeakedObjectsDeleted':
      // Audit fact: the objects were outside the tree already.
      break;
    case 'BreakGlassRequested':
    case 'BreakGlassApproved':
    case 'BreakGlassRejected':
    case 'BreakGlassVoided':
      breakGlass = evolveBreakGlass(breakGlass, event);
      break;
  }
  return { resources, ...(removed && { removed }), ...(inventories && { inventories }), ...(breakGlass && { break_glass: breakGlass }) };
}

function update(resources: Map<string, ResourceState>, id: string, change: (resource: ResourceState) => ResourceState): void {
  const current = resources.get(id);
  if (current) resources.set(id, change(current));
}

/** Folds a whole stream. */
export function fold(events: readonly ResourceEvent[], initial: TreeState = { resources: new Map() }): TreeState {
  return events.reduce(evolve, initial);
}
