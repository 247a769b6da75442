import { Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsOptional, IsString, Min, ValidateNested } from 'class-validator';

/** One condition of an adapter report; status values are checked by the domain (True/False/Unknown). */
export class ReportedConditionDto {
  @IsString()
  type!: string;

  @IsString()
  status!: string;

  @IsOptional()
  @IsString()
  reason?: string;

  @IsOptional()
  @IsString()
  message?: string;
}

/** Body of `PUT .../statuses` (contract §1.2 AdapterStatusCreateRequest). */
export class AdapterStatusDto {
  @IsString()
  adapter!: string;

  @IsInt()
  @Min(1)
  observed_generation!: number;

  @IsString()
  observed_time!: string;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ReportedConditionDto)
  conditions!: ReportedConditionDto[];

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}
