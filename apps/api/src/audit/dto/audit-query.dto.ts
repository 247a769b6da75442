import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { IntegerQueryParam } from '../../resources/dto/integer-query-param.js';
import { OptionalField } from '../../resources/dto/optional-field.js';

const AUDIT_TYPES = /^(ForceDeleted|ForceOrphaned)(,(ForceDeleted|ForceOrphaned))*$/;

/** `GET /api/decom/v1/audit` parameters; unknown ones are refused with 400 (global pipe). */
export class AuditQueryDto {
  /** Comma list of `ForceDeleted`, `ForceOrphaned` (default both). */
  @ApiPropertyOptional({ description: 'comma list of ForceDeleted, ForceOrphaned (default both)', pattern: AUDIT_TYPES.source })
  @OptionalField()
  @IsString()
  @Matches(AUDIT_TYPES, { message: 'type must be a comma list of ForceDeleted, ForceOrphaned' })
  type?: string;

  /** Newest entries first, at most this many (1..1000, default 100). */
  @OptionalField()
  @IntegerQueryParam({ min: 1, max: 1000, default: 100 })
  limit?: number;
}
