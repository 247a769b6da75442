import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { OptionalField } from './optional-field.js';
import { ResourceOptionsDto } from './resource-options.dto.js';

/** Body of `PATCH .../{id}`, as HyperFleet's API takes it: decoded strictly, unknown fields → 400. */
@ApiSchema({ name: 'PatchResource' })
export class PatchResourceDto extends ResourceOptionsDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalField()
  @IsObject()
  spec?: Record<string, unknown>;
}
