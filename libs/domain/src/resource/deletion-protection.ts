/**
 * Deletion protection (AWS `DeletionProtection`, GCP `deletion_protection`, Terraform `prevent_destroy`): a
 * resource flag, set on create or PATCH and recorded with who and why (`DeletionProtectionChanged`). While it
 * is set, a DELETE of the resource, or of any ancestor whose cascade would reach it, is refused with
 * `DeletionProtected` naming every protected member. Who may clear it is the edge's rule (admins, or operators
 * when configured: docs/security.md); clearing needs a reason here.
 */
import { requireReason, MAX_REASON_LENGTH } from './decide-operator-actions.js';
import { DeletionProtected, ValidationFailed } from './errors.js';
import type { CommandMetadata } from './resource.commands.js';
import type { DeletionProtectionChanged } from './resource.events.js';
import { isFinalizing, type ResourceState } from './resource.state.js';

/**
 * The `DeletionProtectionChanged` a create or PATCH records, or none when `wanted` is absent or already the
 * resource's state (a repeat records nothing).
 * @throws ValidationFailed (`deletion_protection_reason`) when clearing without a reason, or a reason over 1024 characters.
 */
export function protectionChange(
  resource: Pick<ResourceState, 'id' | 'kind' | 'deletion_protection'>,
  wanted: boolean | undefined,
  rawReason: string | undefined,
  metadata: CommandMetadata,
): DeletionProtectionChanged[] {
  if (wanted === undefined || wanted === (resource.deletion_protection !== undefined)) return [];
  const reason = wanted ? optionalReason(rawReason) : requiredReason(rawReason);
  return [
    {
      type: 'DeletionProtectionChanged',
      data: {
        id: resource.id,
        kind: resource.kind,
        deletion_protection: wanted,
        caller: metadata.caller,
        ...(reason !== undefined ? { reason } : {}),
        changed_time: metadata.now,
      },
    },
  ];
}

/**
 * Refuses a DELETE whose cascade (`members`: the target and its descendants) holds a resource under protection.
 * Members already Finalizing are no longer marked by this DELETE and do not count.
 * @throws DeletionProtected naming every protected member, the target first.
 */
export function refuseProtected(target: ResourceState, members: readonly ResourceState[]): void {
  const protectedMembers = members.filter((m) => m.deletion_protection !== undefined && !isFinalizing(m));
  if (protectedMembers.length === 0) return;
  throw new DeletionProtected(
    target.kind,
    target.id,
    protectedMembers.map((m) => ({ id: m.id, kind: m.kind, name: m.name })),
  );
}

function requiredReason(raw: string | undefined): string {
  try {
    return requireReason(raw);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    const message = error.message.replace(/^reason/, 'deletion_protection_reason');
    throw new ValidationFailed(
      message,
      error.violations.map((v) => ({
        ...v,
        field: 'deletion_protection_reason',
        message: v.message.replace(/^reason/, 'deletion_protection_reason'),
      })),
    );
  }
}

function optionalReason(raw: string | undefined): string | undefined {
  const trimmed = raw?.trim() ?? '';
  if (trimmed === '') return undefined;
  if ([...trimmed].length > MAX_REASON_LENGTH) return requiredReason(trimmed);
  return trimmed;
}
