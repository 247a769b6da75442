import { IsObject } from 'class-validator';
import { OptionalField } from './optional-field.js';
import { ResourceOptionsDto } from './resource-options.dto.js';

/** Body of `PATCH .../{id}`, as HyperFleet's API takes it: decoded strictly, unknown fields → 400. */
export class PatchResourceDto extends ResourceOptionsDto {
  @OptionalField()
  @IsObject()
  spec?: Record<string, unknown>;
}
