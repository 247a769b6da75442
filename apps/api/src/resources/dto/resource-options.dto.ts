import { IsIn, IsObject } from 'class-validator';
import { OptionalField } from './optional-field.js';

/** The optional fields a create and a PATCH share: labels, deletion policy, references. */
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
}
