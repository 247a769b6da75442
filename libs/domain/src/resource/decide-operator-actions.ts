/**
 * Operator actions beside DELETE: pause/unpause (seed 004) and the force-orphan break-glass (seed 003).
 */
import { NotFinalizing, ResourceNotFound, ValidationFailed } from './errors.js';
import type { ForceOrphan, SetPaused } from './resource.commands.js';
import type { ResourceEvent } from './resource.events.js';
import { isFinalizing, type TreeState } from './resource.state.js';

/** Operator reasons (force delete, force orphan, pause) are at most this long (1024 runes, as in HyperFleet). */
export const MAX_REASON_LENGTH = 1024;

/** @throws ValidationFailed (400) when the reason is missing, blank or too long. Returns it trimmed. */
export function requireReason(raw: string | undefined): string {
  const reason = raw?.trim() ?? '';
  if (reason === '') {
    throw new ValidationFailed('reason is required', [
      { field: 'reason', value: raw, constraint: 'required', message: 'reason is required' },
    ]);
  }
  if ([...reason].length > MAX_REASON_LENGTH) {
    throw new ValidationFailed(`reason is too long: at most ${MAX_REASON_LENGTH} characters`, [
      { field: 'reason', constraint: 'max_length', message: `reason must be at most ${MAX_REASON_LENGTH} characters` },
    ]);
  }
  return reason;
}

/**
 * Pauses or unpauses a resource in any state; a repeat records nothing.
 * @throws ValidationFailed (reason), ResourceNotFound.
 * @see seeds/004 "Pause stops a deletion".
 */
export function decideSetPaused(command: SetPaused, state: TreeState): ResourceEvent[] {
  const reason = requireReason(command.reason);
  const resource = state.resources.get(command.id);
  if (!resource || resource.kind !== command.kind) throw new ResourceNotFound(command.kind, command.id);
  const base = { id: resource.id, kind: resource.kind, caller: command.metadata.caller, reason };
  if (command.paused) {
    return resource.paused ? [] : [{ type: 'ResourcePaused', data: { ...base, paused_time: command.metadata.now } }];
  }
  return resource.paused ? [{ type: 'ResourceUnpaused', data: { ...base, unpaused_time: command.metadata.now } }] : [];
}

/**
 * Records the force-orphan break-glass: adapters skip cleanup and report `Finalized=True/Orphaned`.
 * The one mutation allowed while Finalizing; a repeat records nothing.
 * @throws ValidationFailed (reason), ResourceNotFound, NotFinalizing (409).
 * @see seeds/003 "Force-orphan escape hatch".
 */
export function decideForceOrphan(command: ForceOrphan, state: TreeState): ResourceEvent[] {
  const reason = requireReason(command.reason);
  const resource = state.resources.get(command.id);
  if (!resource || resource.kind !== command.kind) throw new ResourceNotFound(command.kind, command.id);
  if (!isFinalizing(resource)) throw new NotFinalizing(resource.kind, resource.id);
  if (resource.force_orphan) return [];
  return [
    {
      type: 'ForceOrphaned',
      data: {
        id: resource.id,
        kind: resource.kind,
        caller: command.metadata.caller,
        reason,
        force_orphaned_time: command.metadata.now,
        generation: resource.generation,
      },
    },
  ];
}
