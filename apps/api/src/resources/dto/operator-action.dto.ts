import { IsString } from 'class-validator';
import { OptionalField } from './optional-field.js';

/** Body of `POST .../pause`, `.../unpause`, `.../force-orphan`: a `reason` the domain requires (400 when blank). */
export class OperatorActionDto {
  @OptionalField()
  @IsString()
  reason?: string;
}
