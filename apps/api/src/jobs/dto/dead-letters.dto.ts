import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalField } from '../../resources/dto/optional-field.js';

/** A queue name as Decom names them: `adapter-run.<adapter>`, `hard-delete` (letters, digits, `.`, `-`, `_`). */
const QUEUE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

/** `GET /api/decom/v1/jobs/failed` parameters; unknown ones are refused with 400 (global pipe). */
export class FailedJobsQueryDto {
  /** Only this queue, e.g. `adapter-run.validation`. */
  @OptionalField()
  @IsString()
  @Matches(QUEUE_NAME, { message: 'queue must be a queue name such as adapter-run.validation' })
  queue?: string;
}

/** Body of `POST /api/decom/v1/jobs/retry`. */
export class RetryJobDto {
  @IsString()
  @Matches(QUEUE_NAME, { message: 'queue must be a queue name such as adapter-run.validation' })
  queue!: string;

  /** The job id as `GET /jobs/failed` lists it. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  id!: string;

  /** Why it is retried (logged with the caller). */
  @OptionalField()
  @IsString()
  @MaxLength(1000)
  reason?: string;
}
