import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { IntegerQueryParam } from '../../resources/dto/integer-query-param.js';
import { BLOCKER_TYPES } from '@decom/domain';
import { OptionalField } from '../../resources/dto/optional-field.js';

const BLOCKER_LIST = new RegExp(`^(${BLOCKER_TYPES.join('|')})(,(${BLOCKER_TYPES.join('|')}))*$`);

/**
 * `GET /api/decom/v1/finalizing` parameters, snake_case like every Decom/HyperFleet query parameter. Any
 * other parameter (e.g. the GraphQL spelling `olderThanSeconds`) is refused with 400 by the global pipe's
 * `forbidNonWhitelisted`, never silently ignored.
 */
export class FinalizingQueryDto {
  /** Only deletions pending at least this many seconds (default 0). */
  @OptionalField()
  @IntegerQueryParam({ min: 0, max: Number.MAX_SAFE_INTEGER, default: 0, description: 'only deletions pending at least this many seconds' })
  older_than_seconds?: number;

  /** A registered kind, PascalCase (`Cluster`); unknown → 404 `Kind`. */
  @ApiPropertyOptional({ description: 'a registered kind, PascalCase (`Cluster`); unknown: 404' })
  @OptionalField()
  @IsString()
  kind?: string;

  /** Comma list of blocker types: only deletions with at least one of them (`Paused,DeadLettered`). */
  @ApiPropertyOptional({ description: `comma list of blocker types (${BLOCKER_TYPES.join(', ')})`, pattern: BLOCKER_LIST.source })
  @OptionalField()
  @IsString()
  @Matches(BLOCKER_LIST, { message: `blocker must be a comma list of ${BLOCKER_TYPES.join(', ')}` })
  blocker?: string;

  /** TSL search over the resource's fields, as on the HyperFleet lists (`labels.env='prod'`); bad TSL → 400. */
  @ApiPropertyOptional({ description: "TSL over the resources' fields" })
  @OptionalField()
  @IsString()
  search?: string;
}
