import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Allow, IsObject, IsString } from 'class-validator';
import { ResourceOptionsDto } from './resource-options.dto.js';

/**
 * Body of `POST /{plural}` and `POST /{parent}/{id}/{plural}` (HyperFleet's OpenAPI `ResourceCreateRequest`).
 * `name` is checked against the route's kind (create-body.ts, `nameViolations`): its limits differ per kind.
 */
@ApiSchema({ name: 'CreateResource' })
export class CreateResourceDto extends ResourceOptionsDto {
  @ApiProperty()
  @IsString()
  kind!: string;

  @ApiProperty({ description: "unique per kind and owner; length and pattern per the kind's entities config (name_min_len..name_max_len)" })
  @Allow()
  name!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject()
  spec!: Record<string, unknown>;
}
