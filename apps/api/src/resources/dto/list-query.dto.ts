import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { OptionalField } from './optional-field.js';

/** List parameters (contract §1.6): `page` ≥ 1, `size` 1..100, `order` `field [asc|desc],...`. */
export class ListQueryDto {
  @OptionalField()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100000)
  page?: number;

  @OptionalField()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  size?: number;

  @OptionalField()
  @IsString()
  @Matches(/^\s*(created_time|updated_time|name|generation|deleted_time|id)(\s+(asc|desc))?\s*(,\s*(created_time|updated_time|name|generation|deleted_time|id)(\s+(asc|desc))?\s*)*$/i, {
    message: 'order must be a comma list of "field [asc|desc]" with field in created_time, updated_time, name, generation, deleted_time, id',
  })
  order?: string;

  @OptionalField()
  @IsString()
  search?: string;
}
