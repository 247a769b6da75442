import { IsIn, IsObject, IsOptional } from 'class-validator';

/** Body of `PATCH .../{id}` (contract §1.2): decoded strictly, unknown fields → 400. */
export class PatchResourceDto {
  @IsOptional()
  @IsObject()
  spec?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  labels?: Record<string, string>;

  /** Seed 003: `Delete` (default) or `Orphan`; settable until the resource is deleted. */
  @IsOptional()
  @IsIn(['Delete', 'Orphan'])
  deletion_policy?: 'Delete' | 'Orphan';

  /** HyperFleet `references`: ref_type → [{ id, kind }]. A live referrer blocks the target's DELETE (seed 004). */
  @IsOptional()
  @IsObject()
  references?: Record<string, { id: string; kind: string }[]>;
}
