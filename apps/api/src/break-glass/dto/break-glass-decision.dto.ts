import { IsString } from 'class-validator';
import { OptionalField } from '../../resources/dto/optional-field.js';

/** Body of `POST .../{request_id}/approve` (`reason` optional) and `.../reject` (`reason` required: the domain says so). */
export class BreakGlassDecisionDto {
  @OptionalField()
  @IsString()
  reason?: string;
}
