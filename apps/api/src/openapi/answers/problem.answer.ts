import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** One violated field of a validation problem. */
class FieldViolationAnswer {
  @ApiProperty() field!: string;
  @ApiProperty() message!: string;
}

/**
 * RFC 9457 problem details as HyperFleet's error model has them (problem-details/problem.ts builds them):
 * every 4xx/5xx answer of the API, media type `application/problem+json`.
 */
@ApiSchema({ name: 'Problem' })
export class ProblemAnswer {
  @ApiProperty() type!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: 'integer' }) status!: number;
  @ApiProperty() detail!: string;
  @ApiProperty({ pattern: '^HYPERFLEET-[A-Z]{3}-[0-9]{3}$' }) code!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty() instance!: string;
  @ApiProperty({ description: 'also the X-Request-Id response header' }) trace_id!: string;
  @ApiPropertyOptional({ type: [FieldViolationAnswer] }) errors?: FieldViolationAnswer[];
}
