import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** One recorded event of a resource's stream. */
class HistoryEntryAnswer {
  @ApiPropertyOptional({ type: 'integer' }) position?: number;
  @ApiPropertyOptional({ type: 'integer' }) revision?: number;
  @ApiProperty() type!: string;
  @ApiProperty({ format: 'date-time' }) recorded_time!: string;
  @ApiPropertyOptional() caller?: string;
  @ApiPropertyOptional({ description: 'trace id of the request or job that recorded it' }) trace_id?: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) data!: Record<string, unknown>;
}

/** A page of a resource's events (`HistoryPage`), also after it was hard-deleted. */
@ApiSchema({ name: 'History' })
export class HistoryAnswer {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiPropertyOptional() stream?: string;
  @ApiPropertyOptional({ type: 'integer' }) page?: number;
  @ApiPropertyOptional({ type: 'integer' }) size?: number;
  @ApiPropertyOptional({ type: 'integer' }) total?: number;
  @ApiProperty({ type: [HistoryEntryAnswer] }) items!: HistoryEntryAnswer[];
}
