import { IsObject, IsOptional } from 'class-validator';

/** Body of `PATCH .../{id}` (contract §1.2): decoded strictly, unknown fields → 400. */
export class PatchResourceDto {
  @IsOptional()
  @IsObject()
  spec?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  labels?: Record<string, string>;
}
