import { IsIn, IsObject, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalField } from './optional-field.js';

/** Body of `POST /{plural}` and `POST /{parent}/{id}/{plural}` (contract §1.2 ResourceCreateRequest). */
export class CreateResourceDto {
  @IsString()
  kind!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(253)
  @Matches(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, { message: 'name must match ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' })
  name!: string;

  @IsObject()
  spec!: Record<string, unknown>;

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
