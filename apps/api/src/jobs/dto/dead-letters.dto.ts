import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalField } from '../../resources/dto/optional-field.js';

/** A queue name as Decom names them: `adapter-run.<adapter>`, `hard-delete` (letters, digits, `.`, `-`, `_`). */
const QUEUE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

/** `GET /api/decom/v1/jobs/failed` parameters; unknown ones are refused with 400 (global pipe). */
export class FailedJobsQueryDto {
  /** Only this queue, e.g. `adapter-run.validation`. */
  @ApiPropertyOptional({ pattern: QUEUE_NAME.source, description: 'only this queue, e.g. `adapter-run.validation`' })
  @OptionalField()
  @IsString()
  @Matches(QUEUE_NAME, { message: 'queue must be a queue name such as adapter-run.validation' })
  queue?: string;
}

/** Body of `POST /api/decom/v1/jobs/retry`. */
export class RetryJobDto {
  @ApiProperty({ pattern: QUEUE_NAME.source })
  @IsString()
  @Matches(QUEUE_NAME, { message: 'queue must be a queue name such as adapter-run.validation' })
  queue!: string;

  /** The job id as `GET /jobs/failed` lists it. */
  @ApiProperty({ minLength: 1, maxLength: 500 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  id!: string;

  /** Why it is retried (logged with the caller). */
  @ApiPropertyOptional({ maxLength: 1000 })
  @OptionalField()
  @IsString()
  @MaxLength(1000)
  reason?: string;
}
