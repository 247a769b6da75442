import { IsBoolean, IsIn, IsObject, IsString } from 'class-validator';
import { OptionalField } from './optional-field.js';

/** The optional fields a create and a PATCH share: labels, deletion policy, references, deletion protection. */
export abstract class ResourceOptionsDto {
  @OptionalField()
  @IsObject()
  labels?: Record<string, string>;

  /** Seed 003: `Delete` (default) or `Orphan`; settable until the resource is deleted. */
  @OptionalField()
  @IsIn(['Delete', 'Orphan'])
  deletion_policy?: 'Delete' | 'Orphan';

  /** HyperFleet `references`: ref_type → [{ id, kind }]. A live referrer blocks the target's DELETE (seed 004). */
  @OptionalField()
  @IsObject()
  references?: Record<string, { id: string; kind: string }[]>;

  /**
   * `true`: a DELETE of this resource, or of an ancestor whose cascade reaches it, is refused (409) until it is
   * cleared. Clearing (`false`) needs the admin role (or operator, `authorization.deletion_protection.clear_role`)
   * and `deletion_protection_reason`.
   */
  @OptionalField()
  @IsBoolean()
  deletion_protection?: boolean;

  /** Why protection is set or cleared (at most 1024 characters); recorded with the caller. Required to clear. */
  @OptionalField()
  @IsString()
  deletion_protection_reason?: string;
}
