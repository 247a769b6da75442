/**
 * Deletes leaked objects and records each former owner's `LeakedObjectsDeleted` (caller, reason, objects):
 * at once (`POST /api/decom/v1/leaks/delete`), or on the approval of a `delete_leaks` break-glass request.
 */
import type { CommandBus } from '@nestjs/cqrs';
import { RecordLeakCleanupCommand, type CommandContext } from '@decom/application';
import type { RequestedLeak } from '@decom/domain';
import type { LeakJson, LeakScanner } from './leak-scanner.js';

/**
 * `scanner.remove` re-reads each object first: one whose owner marker or uid changed since it was listed is
 * skipped. `caller`: who the records name (the requester of an approved request). @returns what was deleted.
 */
export async function deleteLeaks(
  scanner: LeakScanner,
  leaks: readonly LeakJson[],
  record: { readonly reason: string; readonly caller: string; readonly now: string; readonly context: CommandContext },
  commandBus: CommandBus,
): Promise<LeakJson[]> {
  const removed = await scanner.remove(leaks);
  const byOwner = new Map<string, LeakJson[]>();
  for (const leak of removed) byOwner.set(leak.owner.id, [...(byOwner.get(leak.owner.id) ?? []), leak]);
  for (const owned of byOwner.values()) {
    const owner = owned[0]!.owner;
    const objects = owned.map(({ owner: o, ...object }) => ({ ...object, adapter: o.adapter }));
    await commandBus.execute(
      new RecordLeakCleanupCommand(
        {
          type: 'RecordLeakCleanup',
          id: owner.id,
          kind: owner.kind,
          reason: record.reason,
          objects,
          metadata: { now: record.now, caller: record.caller },
        },
        record.context,
      ),
    );
  }
  return removed;
}

/** A leak as a `delete_leaks` request names it (the exact object and its former owner). */
export function requestedLeak(leak: LeakJson): RequestedLeak {
  const { owner, ...object } = leak;
  return { ...object, adapter: owner.adapter, owner: { kind: owner.kind, id: owner.id } };
}

export function leakOfRequest(requested: RequestedLeak): LeakJson {
  const { owner, adapter, ...object } = requested;
  return { ...object, owner: { kind: owner.kind, id: owner.id, adapter } };
}
