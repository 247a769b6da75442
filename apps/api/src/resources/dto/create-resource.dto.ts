import { IsObject, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ResourceOptionsDto } from './resource-options.dto.js';

/** Body of `POST /{plural}` and `POST /{parent}/{id}/{plural}` (contract §1.2 ResourceCreateRequest). */
export class CreateResourceDto extends ResourceOptionsDto {
  @IsString()
  kind!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(253)
  @Matches(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, { message: 'name must match ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' })
  name!: string;

  @IsObject()
  spec!: Record<string, unknown>;
}
