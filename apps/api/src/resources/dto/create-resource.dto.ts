import { Allow, IsObject, IsString } from 'class-validator';
import { ResourceOptionsDto } from './resource-options.dto.js';

/**
 * Body of `POST /{plural}` and `POST /{parent}/{id}/{plural}` (HyperFleet's OpenAPI `ResourceCreateRequest`).
 * `name` is checked against the route's kind (create-body.ts, `nameViolations`): its limits differ per kind.
 */
export class CreateResourceDto extends ResourceOptionsDto {
  @IsString()
  kind!: string;

  @Allow()
  name!: string;

  @IsObject()
  spec!: Record<string, unknown>;
}
