import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { OptionalField } from './optional-field.js';

/** Paging of `GET /resources/{id}/events`: `page` ≥ 1 (default 1), `size` 1..1000 (default 100). */
export class PageQueryDto {
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
  @Max(1000)
  size?: number;
}
