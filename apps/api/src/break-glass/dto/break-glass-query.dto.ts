import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { BREAK_GLASS_STATUSES } from '@decom/domain';
import { IntegerQueryParam } from '../../resources/dto/integer-query-param.js';
import { OptionalField } from '../../resources/dto/optional-field.js';

/** `GET /api/decom/v1/break-glass-requests` parameters; unknown ones are refused with 400 (global pipe). */
export class BreakGlassQueryDto {
  /** One of Pending, Approved, Rejected, Voided, Expired (default: all). */
  @ApiPropertyOptional({ enum: BREAK_GLASS_STATUSES, description: 'only requests in this status (default: all)' })
  @OptionalField()
  @IsIn(BREAK_GLASS_STATUSES, { message: `status must be one of ${BREAK_GLASS_STATUSES.join(', ')}` })
  status?: string;

  /** Newest requests first, at most this many (1..1000, default 100). */
  @OptionalField()
  @IntegerQueryParam({ min: 1, max: 1000, default: 100 })
  limit?: number;
}
