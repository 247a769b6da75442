import { Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsString, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalField } from './optional-field.js';

/** One condition of an adapter report; status values are checked by the domain (True/False/Unknown). */
export class ReportedConditionDto {
  @IsString()
  type!: string;

  @IsString()
  status!: string;

  @OptionalField()
  @IsString()
  reason?: string;

  @OptionalField()
  @IsString()
  message?: string;
}

/** Body of `PUT .../statuses` (HyperFleet's OpenAPI schema `AdapterStatusCreateRequest`). */
export class AdapterStatusDto {
  @IsString()
  @MaxLength(253)
  @Matches(/^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/, { message: 'adapter must be a name of letters, digits, "-", "_" or "."' })
  adapter!: string;

  @IsInt()
  @Min(1)
  observed_generation!: number;

  @IsString()
  observed_time!: string;

  @IsArray()
  @IsObject({ each: true, message: 'each condition must be an object' })
  @ValidateNested({ each: true })
  @Type(() => ReportedConditionDto)
  conditions!: ReportedConditionDto[];

  @OptionalField()
  @IsObject()
  metadata?: Record<string, unknown>;

  @OptionalField()
  @IsObject()
  data?: Record<string, unknown>;
}
