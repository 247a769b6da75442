/**
 * The leak inventory: what Decom knows it left behind in the managed clusters, recorded in the
 * owning resource's history, also after the resource is gone. Two facts:
 * - `LeakInventoryRecorded`: after a force delete or force orphan removed a resource whose adapters had
 *   not confirmed cleanup, per adapter, the objects still present that carry its ownership marker;
 * - `LeakedObjectsDeleted`: an operator removed objects whose owner marker names a resource that no longer
 *   exists (`decom leaks --delete --reason`), with caller and reason (an audited operation).
 */
import { requireReason } from './decide-operator-actions.js';
import { ResourceNotFound, ValidationFailed } from './errors.js';
import type { CommandMetadata } from './resource.commands.js';
import type { ResourceEvent } from './resource.events.js';
import type { TreeState } from './resource.state.js';
import type { LeakedObject, LeakTrigger } from './leaked-object.js';

export type { LeakedObject, LeakTrigger, RemovedResource } from './leaked-object.js';

export interface RecordLeakInventory {
  readonly type: 'RecordLeakInventory';
  readonly id: string;
  readonly kind: string;
  readonly adapter: string;
  readonly trigger: LeakTrigger;
  readonly objects: readonly LeakedObject[];
  readonly metadata: CommandMetadata;
}

export interface RecordLeakCleanup {
  readonly type: 'RecordLeakCleanup';
  readonly id: string;
  readonly kind: string;
  readonly reason: string;
  readonly objects: readonly LeakedObject[];
  readonly metadata: CommandMetadata;
}

/** The idempotency key of an inventory: one per resource, adapter and trigger. */
export function inventoryKey(id: string, adapter: string, trigger: LeakTrigger): string {
  return `${id}/${adapter}/${trigger}`;
}

/**
 * Records one adapter's inventory (`[]` objects is recorded too: "nothing left" is an answer).
 * Allowed for a resource removed by a force delete (trigger `ForceDeleted`), one carrying a force
 * orphan, present or removed (`ForceOrphaned`), or, for that adapter only, one whose deletion abandoned the
 * adapter, present or removed (`AdapterAbandoned`). A repeat for the same adapter and trigger records nothing.
 * @throws ResourceNotFound when the id is not (and never was) in this tree;
 *   ValidationFailed (`trigger`) when the resource was not force-deleted / force-orphaned.
 */
export function decideLeakInventory(command: RecordLeakInventory, state: TreeState): ResourceEvent[] {
  const live = state.resources.get(command.id);
  const removed = state.removed?.get(command.id);
  if (!live && !removed) throw new ResourceNotFound(command.kind, command.id);
  const allowed =
    command.trigger === 'ForceDeleted'
      ? removed?.cause === 'ForceDeleted'
      : command.trigger === 'AdapterAbandoned'
        ? live?.abandoned_adapters?.[command.adapter] !== undefined || removed?.abandoned_adapters?.includes(command.adapter) === true
        : live?.force_orphan !== undefined || removed?.force_orphaned === true;
  if (!allowed) {
    const what = {
      ForceDeleted: 'force-deleted',
      ForceOrphaned: 'force-orphaned',
      AdapterAbandoned: `abandoned by adapter '${command.adapter}'`,
    }[command.trigger];
    const message = `${command.kind} ${command.id} was not ${what}: no leak inventory to record`;
    throw new ValidationFailed(message, [{ field: 'trigger', value: command.trigger, constraint: 'enum', message }]);
  }
  if (state.inventories?.has(inventoryKey(command.id, command.adapter, command.trigger))) return [];
  return [
    {
      type: 'LeakInventoryRecorded',
      data: {
        id: command.id,
        kind: command.kind,
        adapter: command.adapter,
        trigger: command.trigger,
        objects: command.objects,
        recorded_time: command.metadata.now,
      },
    },
  ];
}

/**
 * Records an audited removal of leaked objects of a resource that no longer exists.
 * @throws ValidationFailed (reason missing/blank/too long, or the resource still exists: its own
 *   adapters own those objects); ResourceNotFound when the id was never in this tree.
 */
export function decideLeakCleanup(command: RecordLeakCleanup, state: TreeState): ResourceEvent[] {
  const reason = requireReason(command.reason);
  if (state.resources.has(command.id)) {
    const message = `${command.kind} ${command.id} still exists: its objects are not leaked (its adapters clean them up)`;
    throw new ValidationFailed(message, [{ field: 'id', value: command.id, constraint: 'enum', message }]);
  }
  if (!state.removed?.has(command.id)) throw new ResourceNotFound(command.kind, command.id);
  return [
    {
      type: 'LeakedObjectsDeleted',
      data: {
        id: command.id,
        kind: command.kind,
        caller: command.metadata.caller,
        reason,
        objects: command.objects,
        deleted_time: command.metadata.now,
      },
    },
  ];
}
