import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsString, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalField } from './optional-field.js';

const ADAPTER_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** One condition of an adapter report; status values are checked by the domain (True/False/Unknown). */
@ApiSchema({ name: 'ConditionRequest' })
export class ReportedConditionDto {
  @ApiProperty()
  @IsString()
  type!: string;

  @ApiProperty({ enum: ['True', 'False', 'Unknown'] })
  @IsString()
  status!: string;

  @ApiPropertyOptional()
  @OptionalField()
  @IsString()
  reason?: string;

  @ApiPropertyOptional()
  @OptionalField()
  @IsString()
  message?: string;
}

/** Body of `PUT .../statuses` (HyperFleet's OpenAPI schema `AdapterStatusCreateRequest`). */
@ApiSchema({ name: 'AdapterStatusCreateRequest' })
export class AdapterStatusDto {
  @ApiProperty({ maxLength: 253, pattern: ADAPTER_NAME.source })
  @IsString()
  @MaxLength(253)
  @Matches(ADAPTER_NAME, { message: 'adapter must be a name of letters, digits, "-", "_" or "."' })
  adapter!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  @IsInt()
  @Min(1)
  observed_generation!: number;

  @ApiProperty({ format: 'date-time' })
  @IsString()
  observed_time!: string;

  @ApiProperty({ type: [ReportedConditionDto] })
  @IsArray()
  @IsObject({ each: true, message: 'each condition must be an object' })
  @ValidateNested({ each: true })
  @Type(() => ReportedConditionDto)
  conditions!: ReportedConditionDto[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalField()
  @IsObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalField()
  @IsObject()
  data?: Record<string, unknown>;
}
