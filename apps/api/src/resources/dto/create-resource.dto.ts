import { IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

/** Body of `POST /{plural}` and `POST /{parent}/{id}/{plural}` (contract §1.2 ResourceCreateRequest). */
export class CreateResourceDto {
  @IsString()
  kind!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(253)
  @Matches(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, { message: 'name must match ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' })
  name!: string;

  @IsObject()
  spec!: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  labels?: Record<string, string>;
}
