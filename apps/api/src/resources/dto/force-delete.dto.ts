import { IsOptional, IsString } from 'class-validator';

/** Body of `POST .../force-delete` (seed 001): `reason` is required; the domain says so when it is missing or blank. */
export class ForceDeleteDto {
  @IsOptional()
  @IsString()
  reason?: string;
}
