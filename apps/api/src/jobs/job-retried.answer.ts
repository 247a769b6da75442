import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** `POST /api/decom/v1/jobs/retry`: the job sent back to its queue. */
@ApiSchema({ name: 'JobRetried' })
export class JobRetriedAnswer {
  @ApiProperty() queue!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ type: 'boolean', enum: [true] }) retried!: true;
}
