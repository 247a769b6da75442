import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { OptionalField } from './optional-field.js';

/** Body of `POST .../force-delete` (seed 001): `reason` is required; the domain says so when it is missing or blank. */
export class ForceDeleteDto {
  @ApiPropertyOptional({ description: 'why; required (400 when missing or blank), recorded with the caller' })
  @OptionalField()
  @IsString()
  reason?: string;
}
