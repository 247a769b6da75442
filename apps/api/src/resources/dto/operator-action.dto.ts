import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { OptionalField } from './optional-field.js';

/** Body of `POST .../pause`, `.../unpause`, `.../force-orphan`: a `reason` the domain requires (400 when blank). */
export class OperatorActionDto {
  @ApiPropertyOptional({ description: 'why; recorded with the caller (required where the action says so: 400 when blank)' })
  @OptionalField()
  @IsString()
  reason?: string;
}
