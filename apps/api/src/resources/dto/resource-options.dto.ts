import { ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsObject, IsString } from 'class-validator';
import { ObjectReferenceAnswer } from '../answers/object-reference.answer.js';

const POLICIES = ['Delete', 'Orphan'] as const;
import { OptionalField } from './optional-field.js';

/** The optional fields a create and a PATCH share: labels, deletion policy, references, deletion protection. */
export abstract class ResourceOptionsDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @OptionalField()
  @IsObject()
  labels?: Record<string, string>;

  /** Seed 003: `Delete` (default) or `Orphan`; settable until the resource is deleted. */
  @ApiPropertyOptional({ enum: POLICIES })
  @OptionalField()
  @IsIn([...POLICIES])
  deletion_policy?: 'Delete' | 'Orphan';

  /** HyperFleet `references`: ref_type → [{ id, kind }]. A live referrer blocks the target's DELETE (seed 004). */
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'array', items: { $ref: getSchemaPath(ObjectReferenceAnswer) } } })
  @OptionalField()
  @IsObject()
  references?: Record<string, { id: string; kind: string }[]>;

  /**
   * `true`: a DELETE of this resource, or of an ancestor whose cascade reaches it, is refused (409) until it is
   * cleared. Clearing (`false`) needs the admin role (or operator, `authorization.deletion_protection.clear_role`)
   * and `deletion_protection_reason`.
   */
  @ApiPropertyOptional({
    description:
      'true: DELETE of it or of an ancestor reaching it is refused (409); false clears it (admin, or operator when configured; needs deletion_protection_reason)',
  })
  @OptionalField()
  @IsBoolean()
  deletion_protection?: boolean;

  /** Why protection is set or cleared (at most 1024 characters); recorded with the caller. Required to clear. */
  @ApiPropertyOptional({ maxLength: 1024, description: 'why protection is set or cleared; recorded with the caller' })
  @OptionalField()
  @IsString()
  deletion_protection_reason?: string;
}
