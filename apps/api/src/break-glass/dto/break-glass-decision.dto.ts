import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { OptionalField } from '../../resources/dto/optional-field.js';

/** Body of `POST .../{request_id}/approve` (`reason` optional) and `.../reject` (`reason` required: the domain says so). */
export class BreakGlassDecisionDto {
  @ApiPropertyOptional({ description: 'why: optional to approve, required to reject' })
  @OptionalField()
  @IsString()
  reason?: string;
}
